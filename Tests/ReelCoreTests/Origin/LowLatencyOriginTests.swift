import Foundation
import Testing
@testable import ReelCore

/// The origin's LL-HLS rules on playlist text: what a stored playlist says, and delta updates
/// (blocking reload's decisions are ReelOriginTests' BlockingReloadTests).
@Suite struct LowLatencyOriginTests {
    /// An LL-HLS playlist: `segments` complete 2 s segments from sequence `first`, each with
    /// 6 parts, then `partsInProgress` parts of the next one and its preload hint.
    static func playlist(first: Int = 1, segments: Int, partsInProgress: Int, ended: Bool = false, skipUntil: Double? = 12) -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2",
                     "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.002"
                        + (skipUntil.map { ",CAN-SKIP-UNTIL=\(String(format: "%.3f", $0))" } ?? ""),
                     "#EXT-X-PART-INF:PART-TARGET=0.334", "#EXT-X-MEDIA-SEQUENCE:\(first)", "#EXT-X-MAP:URI=\"init.mp4\""]
        for sequence in first..<(first + segments) {
            lines.append("#EXT-X-PROGRAM-DATE-TIME:2026-12-03T10:00:00.000Z")
            for part in 0..<6 {
                lines.append("#EXT-X-PART:DURATION=0.333,URI=\"\(StreamLayout.partURI(sequence: sequence, index: part))\"" + (part == 0 ? ",INDEPENDENT=YES" : ""))
            }
            lines += ["#EXTINF:2.000,", "seg/\(String(format: "%06d", sequence)).m4s"]
        }
        let next = first + segments
        for part in 0..<partsInProgress { lines.append("#EXT-X-PART:DURATION=0.333,URI=\"\(StreamLayout.partURI(sequence: next, index: part))\"") }
        lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(StreamLayout.partURI(sequence: next, index: partsInProgress))\"")
        if ended { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    static func tally(_ text: String) -> PlaylistTally {
        var tally = PlaylistTally()
        tally.consume(Array(text.utf8))
        return tally.finished()
    }

    @Test func theTallyReadsWhatBlockingNeeds() {
        let tally = Self.tally(Self.playlist(first: 5, segments: 3, partsInProgress: 2))
        #expect(tally.mediaSequence == 5 && tally.segmentCount == 3 && tally.lastSequence == 7)
        #expect(tally.canBlockReload && tally.canSkipUntil == 12 && tally.partTarget == 0.334 && tally.targetDuration == 2)
        #expect(tally.partsInProgress == 2)
        #expect(tally.preloadHintURI == "part/000008.2.m4s")
        #expect(!tally.isFinished)
        let regular = Self.tally("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg/000001.m4s\n")
        #expect(!regular.canBlockReload && regular.lastSequence == 0, "no media sequence: it starts at 0")
    }

    @Test func deltaUpdatesSkipWhatIsOlderThanTheBoundary() throws {
        let full = Self.playlist(first: 1, segments: 20, partsInProgress: 2)  // 40 s, boundary 12 s
        let delta = try #require(DeltaPlaylist.make(from: full))
        #expect(delta.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=13"), "segments ending more than 12 s before the end: 1 to 13 (14 ends exactly 12 s before)")
        #expect(delta.contains("#EXT-X-VERSION:9") && !delta.contains("#EXT-X-VERSION:7"))
        #expect(!delta.contains("seg/000013.m4s") && delta.contains("seg/000014.m4s") && delta.contains("seg/000020.m4s"))
        #expect(!delta.contains("part/000013.") && delta.contains("part/000014.0.m4s"), "a skipped segment's parts go with it")
        #expect(delta.contains("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part/000021.2.m4s\""))
        let skipLine = delta.components(separatedBy: "\n").firstIndex(of: "#EXT-X-SKIP:SKIPPED-SEGMENTS=13")!
        let mapLine = delta.components(separatedBy: "\n").firstIndex(of: "#EXT-X-MAP:URI=\"init.mp4\"")!
        #expect(mapLine < skipLine, "the playlist's own tags stay before the skip")
        let reread = Self.tally(delta)
        #expect(reread.segmentCount == 7 && reread.mediaSequence == 1, "the media sequence still names the first, skipped segment")
        #expect(DeltaPlaylist.make(from: Self.playlist(segments: 5, partsInProgress: 0)) == nil, "nothing old enough")
        #expect(DeltaPlaylist.make(from: Self.playlist(segments: 20, partsInProgress: 0, skipUntil: nil)) == nil, "no CAN-SKIP-UNTIL")
    }
}
