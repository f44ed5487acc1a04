import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

/// `reel live --window`: the playlist lists only the newest segments, so a long stream's
/// playlist (sent again after every segment, every part under LL-HLS) stops growing.
@Suite("Sliding-window playlists")
struct SlidingWindowTests {
    static let two = MediaTime(value: 2, timescale: 1)
    static let start = Date(timeIntervalSince1970: 1_796_006_591.123)

    @Test func aWindowHasNoPlaylistTypeAndCountsItsDroppedDiscontinuities() {
        var late = HLSPlaylist.Segment(sequence: 8, duration: Self.two, programDateTime: Self.start.addingTimeInterval(40))
        late.followsDiscontinuity = true
        var playlist = HLSPlaylist(targetDuration: 2, mediaSequence: 7,
                                   segments: [.init(sequence: 7, duration: Self.two, programDateTime: Self.start), late])
        playlist.isSlidingWindow = true
        playlist.discontinuitySequence = 2
        #expect(playlist.rendered() == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA-SEQUENCE:7
            #EXT-X-DISCONTINUITY-SEQUENCE:2
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:11.123Z
            #EXTINF:2.000,
            seg/000007.m4s
            #EXT-X-DISCONTINUITY
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:51.123Z
            #EXTINF:2.000,
            seg/000008.m4s

            """)
        #expect(HLSPlaylist(targetDuration: 2).rendered().contains("#EXT-X-PLAYLIST-TYPE:EVENT\n"), "without a window: EVENT, as before")
    }

    /// Segments 1…`count` published one by one into a queue listing at most `window`, with
    /// discontinuities before `gaps`; every playlist the queue sends is committed at once.
    static func publish(_ count: Int, window: Int, gaps: Set<Int>) throws -> (PublishQueue, sent: [HLSPlaylist]) {
        var queue = PublishQueue(settings: .init(targetDuration: 2, window: window))
        var sent: [HLSPlaylist] = []
        func perform(_ actions: [PublishQueue.Action]) {
            for case .upload(.playlist(let playlist)) in actions { sent.append(playlist) }
        }
        _ = try queue.initReady(now: .zero)
        perform(queue.uploadSucceeded(.initSegment, now: .zero))
        for sequence in 1...count {
            perform(try queue.segmentReady(sequence: sequence, duration: two, programDateTime: start.addingTimeInterval(Double(sequence) * 2),
                                           followsDiscontinuity: gaps.contains(sequence), now: .zero))
            perform(queue.uploadSucceeded(.segment(sequence), now: .zero))
            if let last = sent.last, queue.committed != last { perform(queue.uploadSucceeded(.playlist, now: .zero)) }
        }
        return (queue, sent)
    }

    @Test func theQueueListsTheNewestSegmentsAndNumbersThemOnward() throws {
        var (queue, sent) = try Self.publish(8, window: 3, gaps: [2, 5])
        #expect(sent.map { $0.segments.map(\.sequence) } == [[1], [1, 2], [1, 2, 3], [2, 3, 4], [3, 4, 5], [4, 5, 6], [5, 6, 7], [6, 7, 8]])
        #expect(sent.allSatisfy { $0.isSlidingWindow && $0.mediaSequence == $0.segments[0].sequence })
        // Segment 2's discontinuity leaves the count once segment 2 leaves the window; segment 5
        // keeps its own tag while it is listed.
        #expect(sent.map(\.discontinuitySequence) == [0, 0, 0, 0, 1, 1, 1, 2])
        #expect(sent[4].segments.map(\.followsDiscontinuity) == [false, false, true])
        // The counts speak of segments on the target, not of lines in the playlist.
        #expect(queue.stats.committed == 8 && queue.stats.backlog == 0 && queue.uncommittedSequences.isEmpty)

        let actions = queue.finishRequested(now: .zero)
        guard case .upload(.playlist(let last))? = actions.first else { Issue.record("no ENDLIST playlist: \(actions)"); return }
        #expect(last.isFinished && last.segments.map(\.sequence) == [6, 7, 8] && last.mediaSequence == 6)
        #expect(queue.uploadSucceeded(.playlist, now: .zero) == [.finished])
    }

    @Test func aWindowLongerThanTheStreamListsEverySegmentFromOne() throws {
        let (_, sent) = try Self.publish(4, window: 6, gaps: [3])
        let last = try #require(sent.last)
        #expect(last.segments.map(\.sequence) == [1, 2, 3, 4] && last.mediaSequence == 1 && last.discontinuitySequence == 0)
        #expect(last.rendered().contains("#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-DISCONTINUITY-SEQUENCE:0\n"))
        #expect(!last.rendered().contains("PLAYLIST-TYPE"))
    }

    @Test func aDeltaUpdateKeepsTheDiscontinuitySequenceInItsHeader() throws {
        var playlist = HLSPlaylist(targetDuration: 2, mediaSequence: 31,
                                   segments: (31...50).map { .init(sequence: $0, duration: Self.two, programDateTime: Self.start.addingTimeInterval(Double($0) * 2)) },
                                   lowLatency: .init(partTarget: MediaTime(value: 1, timescale: 3)))
        playlist.isSlidingWindow = true
        playlist.discontinuitySequence = 3
        let delta = try #require(DeltaPlaylist.make(from: playlist.rendered()))
        let lines = delta.components(separatedBy: "\n")
        let skip = try #require(lines.firstIndex { $0.hasPrefix("#EXT-X-SKIP:") })
        let sequence = try #require(lines.firstIndex(of: "#EXT-X-DISCONTINUITY-SEQUENCE:3"), "the header tag is not a segment's: \(delta)")
        #expect(sequence < skip && lines[skip] == "#EXT-X-SKIP:SKIPPED-SEGMENTS=13")
    }
}
