import Foundation
import ReelCore
import Testing
@testable import ReelOrigin

/// Blocking playlist reload's rules: the query's values and the decision against the playlist
/// stored now.
@Suite struct BlockingReloadTests {
    /// The tally of an LL-HLS playlist: `segments` complete 2 s segments from sequence `first`,
    /// each with 6 parts, then `partsInProgress` parts of the next one and its preload hint.
    static func tally(first: Int = 1, segments: Int, partsInProgress: Int, ended: Bool = false) -> PlaylistTally {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:2", "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=1.002",
                     "#EXT-X-PART-INF:PART-TARGET=0.334", "#EXT-X-MEDIA-SEQUENCE:\(first)", "#EXT-X-MAP:URI=\"init.mp4\""]
        for sequence in first..<(first + segments) {
            for part in 0..<6 { lines.append("#EXT-X-PART:DURATION=0.333,URI=\"\(StreamLayout.partURI(sequence: sequence, index: part))\"") }
            lines += ["#EXTINF:2.000,", "seg/\(String(format: "%06d", sequence)).m4s"]
        }
        let next = first + segments
        for part in 0..<partsInProgress { lines.append("#EXT-X-PART:DURATION=0.333,URI=\"\(StreamLayout.partURI(sequence: next, index: part))\"") }
        lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(StreamLayout.partURI(sequence: next, index: partsInProgress))\"")
        if ended { lines.append("#EXT-X-ENDLIST") }
        return tally(lines.joined(separator: "\n") + "\n")
    }

    static func tally(_ text: String) -> PlaylistTally {
        var tally = PlaylistTally()
        tally.consume(Array(text.utf8))
        return tally.finished()
    }

    @Test func blockingReloadDecisions() {
        let tally = Self.tally(first: 5, segments: 3, partsInProgress: 2)  // last 7, parts 0 and 1 of 8
        func decide(_ msn: Int, _ part: Int?) -> BlockingReload.Decision {
            BlockingReload.decide(BlockingReload.Request(sequence: msn, part: part), playlist: tally)
        }
        #expect(decide(7, nil) == .answer && decide(3, nil) == .answer, "there (or older)")
        #expect(decide(8, nil) == .wait, "the segment in progress")
        #expect(decide(8, 1) == .answer && decide(8, 2) == .wait, "parts 0 and 1 of 8 exist")
        #expect(decide(7, 5) == .answer, "a part of a complete segment")
        #expect(decide(9, 0) == .wait, "two ahead: waits")
        if case .refuse(let reason) = decide(10, nil) { #expect(reason.contains("more than two")) } else { Issue.record("10 must be refused") }
        let ended = Self.tally(segments: 3, partsInProgress: 0, ended: true)
        #expect(BlockingReload.decide(.init(sequence: 40, part: nil), playlist: ended) == .answer, "an ended playlist never blocks")
        let regular = Self.tally("#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXTINF:2.0,\nseg/000001.m4s\n")
        #expect(BlockingReload.decide(.init(sequence: 5, part: nil), playlist: regular) == .answer, "no CAN-BLOCK-RELOAD: no blocking")
        #expect(BlockingReload.maximumWait(targetDuration: 2) == 6)
    }

    @Test func queryValues() throws {
        #expect(BlockingReload.request(msn: nil, part: nil) == nil)
        #expect(try BlockingReload.request(msn: "12", part: "3")?.get() == .init(sequence: 12, part: 3))
        #expect(try BlockingReload.request(msn: "12", part: nil)?.get() == .init(sequence: 12, part: nil))
        for (msn, part) in [(nil, "1"), ("-1", nil), ("1e3", nil), ("", nil), ("5", "x"), ("99999999999", nil)] as [(String?, String?)] {
            guard case .failure = BlockingReload.request(msn: msn, part: part) else {
                Issue.record("msn \(msn ?? "nil") part \(part ?? "nil") must be refused")
                continue
            }
        }
    }
}
