import Foundation
import Testing
@testable import ReelCore

@Suite("A spool after a crash: the playlist read back, what reel publish publishes, what reel live says")
struct SpoolRecoveryTests {
    /// 2026-11-30T02:43:11.123Z
    static let start = Date(timeIntervalSince1970: 1_796_006_591.123)

    static func playlist(_ count: Int, finished: Bool = false) -> HLSPlaylist {
        var segments = (1...count).map {
            HLSPlaylist.Segment(sequence: $0, duration: MediaTime(value: 2002, timescale: 1000), programDateTime: start.addingTimeInterval(Double($0 - 1) * 2.002))
        }
        segments[segments.count - 1].followsDiscontinuity = count > 1
        return HLSPlaylist(targetDuration: 3, segments: segments, isFinished: finished)
    }

    @Test("a rendered playlist reads back as the same value (durations to the millisecond)")
    func roundTrip() throws {
        for finished in [false, true] {
            let original = Self.playlist(3, finished: finished)
            let read = try #require(HLSPlaylist(parsing: original.rendered()))
            #expect(read.rendered() == original.rendered())
            #expect(read.segments.map(\.sequence) == [1, 2, 3] && read.segments.map(\.followsDiscontinuity) == [false, false, true])
            #expect(read.segments.allSatisfy { $0.duration == MediaTime(value: 2002, timescale: 1000) })
            #expect(abs(read.segments[0].programDateTime.timeIntervalSince(Self.start)) < 0.0005)
            #expect(read.targetDuration == 3 && read.mediaSequence == 1 && read.isFinished == finished)
        }
        #expect(HLSPlaylist(parsing: HLSPlaylist(targetDuration: 2).rendered())?.segments == [])
    }

    @Test("not Reel's playlist: nil")
    func refusesOtherText() {
        #expect(HLSPlaylist(parsing: "") == nil)
        #expect(HLSPlaylist(parsing: "#EXTM3U\n#EXTINF:2.000,\nseg/000001.m4s\n") == nil, "no target duration")
        #expect(HLSPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.000,\nhttp://x/seg.ts\n") == nil)
        #expect(HLSPlaylist(parsing: "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:x,\nseg/000001.m4s\n") == nil)
        #expect(HLSPlaylist.segmentSequence(uri: "seg/000012.m4s") == 12)
        #expect(HLSPlaylist.segmentSequence(uri: "seg/1234567.m4s") == 1_234_567)
        for name in ["seg/12.m4s", "seg/0000012.m4s", "seg/00001a.m4s", "seg/.000001.m4s.tmp", "init.mp4"] {
            #expect(HLSPlaylist.segmentSequence(uri: name) == nil, "\(name)")
        }
    }

    @Test("killed between a segment's file and the playlist listing it: the file is published with the target duration")
    func unlistedFileFollows() {
        let text = Self.playlist(3).rendered()
        let plan = SpoolRecovery(playlistText: text, segmentFiles: [1, 2, 3, 4], fallbackTargetDuration: 2, firstSegmentDate: .distantPast)
        #expect(plan.segments.map(\.sequence) == [1, 2, 3, 4])
        #expect(plan.segments[3].duration == MediaTime(value: 3, timescale: 1))
        #expect(abs(plan.segments[3].programDateTime.timeIntervalSince(Self.start) - 3 * 2.002) < 0.001)
        #expect(plan.segments.prefix(3).map(\.duration) == Array(repeating: MediaTime(value: 2002, timescale: 1000), count: 3))
        #expect(plan.targetDuration == 3 && plan.stranded.isEmpty && !plan.wasFinished)
    }

    @Test("a missing file ends the run of segments; what follows a gap is stranded, never listed")
    func gapStrands() {
        let plan = SpoolRecovery(playlistText: Self.playlist(5, finished: true).rendered(), segmentFiles: [1, 2, 4, 5],
                                 fallbackTargetDuration: 2, firstSegmentDate: .distantPast)
        #expect(plan.segments.map(\.sequence) == [1, 2])
        #expect(plan.stranded == [4, 5])
        #expect(plan.wasFinished)
    }

    @Test("no playlist (killed before the first one was written): the fallback duration from the first file's date")
    func noPlaylist() {
        let plan = SpoolRecovery(playlistText: nil, segmentFiles: [2, 1], fallbackTargetDuration: 2, firstSegmentDate: Self.start)
        #expect(plan.segments.map(\.sequence) == [1, 2] && plan.targetDuration == 2)
        #expect(plan.segments.map(\.programDateTime) == [Self.start, Self.start.addingTimeInterval(2)])
        #expect(SpoolRecovery(playlistText: "garbage", segmentFiles: [], fallbackTargetDuration: 2, firstSegmentDate: Self.start).segments.isEmpty)
    }

    @Test("what reel live says about spools waiting")
    func waitingSentence() {
        #expect(SpoolRecovery.waitingSentence([]) == nil)
        #expect(SpoolRecovery.waitingSentence([("desk", 12)])
                == "1 stream waits in the spool: desk (12 segments not published); publish it with reel publish desk --origin URL (or --output DIR)")
        #expect(SpoolRecovery.waitingSentence([("a", 1), ("b", 3)])
                == "2 streams wait in the spool: a (1 segment not published), b (3 segments not published); publish each with reel publish ID --origin URL (or --output DIR)")
        // A ladder whose rungs were all published but not its last multivariant playlist.
        #expect(SpoolRecovery.waitingSentence([("abr", 0)])
                == "1 stream waits in the spool: abr (its playlist not published); publish it with reel publish abr --origin URL (or --output DIR)")
    }
}
