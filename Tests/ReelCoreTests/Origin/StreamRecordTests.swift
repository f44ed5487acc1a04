import Foundation
import Testing
@testable import ReelCore

/// A ladder is one stream in `/api/streams`, judged by its rungs' media playlists.
@Suite struct StreamRecordTests {
    static func tally(segments: Int, ended: Bool = false) -> PlaylistTally {
        var tally = PlaylistTally()
        tally.consume(Array(("#EXTM3U\n" + String(repeating: "#EXTINF:2.0,\nseg/x.m4s\n", count: segments)
            + (ended ? "#EXT-X-ENDLIST\n" : "")).utf8))
        return tally.finished()
    }

    static let multivariant: PlaylistTally = {
        var tally = PlaylistTally()
        tally.consume(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=800000\nlow/playlist.m3u8\n".utf8))
        return tally.finished()
    }()

    static func at(_ seconds: Double) -> Date { Date(timeIntervalSince1970: seconds) }

    @Test func withoutRungsTheSummaryIsTheStreamsOwn() throws {
        let desk = try StreamLayout(streamID: "desk")
        #expect(StreamRecord().summary(layout: desk) == nil && StreamRecord().isEmpty)
        let initOnly = StreamRecord(own: .init(updatedAt: Self.at(5), tally: nil))
        #expect(initOnly.summary(layout: desk) == StreamSummary(layout: desk, updatedAt: Self.at(5), tally: PlaylistTally()))
        let ended = StreamRecord(own: .init(updatedAt: Self.at(7), tally: Self.tally(segments: 3, ended: true)))
        let summary = try #require(ended.summary(layout: desk))
        #expect(summary.segmentCount == 3 && summary.isFinished && summary.renditions == nil)
        #expect(summary.playlistURL == "/streams/desk/playlist.m3u8" && summary.updatedAt == Self.at(7))
    }

    @Test func aLadderIsJudgedByItsRungs() throws {
        let desk = try StreamLayout(streamID: "desk")
        var record = StreamRecord(own: .init(updatedAt: Self.at(1), tally: Self.multivariant))
        record["low"] = .init(updatedAt: Self.at(4), tally: Self.tally(segments: 5))
        record["high"] = .init(updatedAt: Self.at(3), tally: Self.tally(segments: 4))
        var summary = try #require(record.summary(layout: desk))
        #expect(summary.streamId == "desk" && summary.playlistURL == "/streams/desk/playlist.m3u8", "the multivariant playlist")
        #expect(summary.segmentCount == 4, "the fewest any rung has, not the multivariant's 0")
        #expect(!summary.isFinished && summary.renditions == ["high", "low"] && summary.updatedAt == Self.at(4))
        // A rung with only its init lists nothing yet: the ladder has no segment every rendition plays.
        record["medium"] = .init(updatedAt: Self.at(6), tally: nil)
        summary = try #require(record.summary(layout: desk))
        #expect(summary.segmentCount == 0 && summary.updatedAt == Self.at(6) && summary.renditions == ["high", "low", "medium"])
        // Finished only once every rung's playlist ended.
        record["medium"] = .init(updatedAt: Self.at(8), tally: Self.tally(segments: 6, ended: true))
        record["low"] = .init(updatedAt: Self.at(8), tally: Self.tally(segments: 5, ended: true))
        #expect(record.summary(layout: desk)?.isFinished == false, "high has not ended")
        record["high"] = .init(updatedAt: Self.at(9), tally: Self.tally(segments: 5, ended: true))
        summary = try #require(record.summary(layout: desk))
        #expect(summary.isFinished && summary.segmentCount == 5 && summary.updatedAt == Self.at(9))
        // A rung's layout gives the stream's summary all the same.
        #expect(record.summary(layout: try desk.rung("low")) == summary)
        // Rungs without the multivariant playlist (not stored yet): still listed under the stream.
        #expect(StreamRecord(rungs: ["low": .init(updatedAt: Self.at(2), tally: Self.tally(segments: 1))]).summary(layout: desk)?.segmentCount == 1)
    }

    @Test func theSubscriptNamesTheStreamsOwnOrARungs() {
        var record = StreamRecord()
        record[nil] = .init(updatedAt: Self.at(1), tally: nil)
        record["low"] = .init(updatedAt: Self.at(2), tally: Self.tally(segments: 1))
        #expect(record.own?.updatedAt == Self.at(1) && record["low"]?.tally?.segmentCount == 1 && record["high"] == nil)
        record[nil] = nil
        #expect(!record.isEmpty)
        record["low"] = nil
        #expect(record.isEmpty)
    }

    @Test func theJSONNamesRenditionsOnlyForALadder() throws {
        var record = StreamRecord(own: .init(updatedAt: Self.at(1_700_000_000), tally: Self.multivariant))
        #expect(!String(decoding: StreamSummary.listJSON([try #require(record.summary(layout: try StreamLayout(streamID: "a")))]), as: UTF8.self)
            .contains("renditions"))
        record["low"] = .init(updatedAt: Self.at(1_700_000_000), tally: Self.tally(segments: 2))
        record["high"] = .init(updatedAt: Self.at(1_700_000_000), tally: Self.tally(segments: 3))
        let json = String(decoding: StreamSummary.listJSON([try #require(record.summary(layout: try StreamLayout(streamID: "a")))]), as: UTF8.self)
        #expect(json == """
            {"streams":[{"isFinished":false,"playlistURL":"/streams/a/playlist.m3u8","renditions":["high","low"],"segmentCount":2,"streamId":"a","updatedAt":"2023-11-14T22:13:20.000Z"}]}
            """)
    }
}
