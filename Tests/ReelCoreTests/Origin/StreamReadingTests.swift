import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

@Suite struct PlaylistTallyTests {
    @Test func chunksOfAnySizeCountTheSame() {
        let text = Array("#EXTM3U\n#EXTINF:2.0,\nseg/000001.m4s\r\n  #EXTINF:2.0,\nseg/000002.m4s\n#EXT-X-ENDLIST".utf8)
        for size in [1, 2, 3, 7, 64, text.count] {
            var tally = PlaylistTally()
            var start = 0
            while start < text.count {
                tally.consume(Array(text[start..<min(text.count, start + size)]))
                start += size
            }
            let done = tally.finished()
            #expect(done.segmentCount == 2 && done.isFinished, "chunks of \(size)")
        }
        var notEnded = PlaylistTally()
        notEnded.consume(Array("#EXT-X-ENDLIST-NOT\n#EXTINF-like\n".utf8))
        #expect(!notEnded.finished().isFinished && notEnded.finished().segmentCount == 0)
    }
}

@Suite struct StreamSummaryTests {
    @Test func playlistTextGivesCountAndState() throws {
        let layout = try StreamLayout(streamID: "desk")
        let live = "#EXTM3U\n#EXT-X-VERSION:7\n#EXTINF:2.000,\nseg/000001.m4s\n#EXTINF:2.000,\nseg/000002.m4s\n"
        let a = StreamSummary(layout: layout, updatedAt: Date(timeIntervalSince1970: 10), playlistText: live)
        #expect(a.segmentCount == 2 && !a.isFinished && a.playlistURL == "/streams/desk/playlist.m3u8")
        let ended = StreamSummary(layout: layout, updatedAt: Date(timeIntervalSince1970: 10), playlistText: live + "#EXT-X-ENDLIST\r\n")
        #expect(ended.isFinished && ended.segmentCount == 2)
        #expect(StreamSummary(layout: layout, updatedAt: Date(), playlistText: "").segmentCount == 0)
    }

    @Test func listIsNewestFirstWithTheAgreedFields() throws {
        let older = StreamSummary(layout: try StreamLayout(streamID: "b"), updatedAt: Date(timeIntervalSince1970: 1_700_000_000.5), playlistText: "")
        let newer = StreamSummary(layout: try StreamLayout(streamID: "a"), updatedAt: Date(timeIntervalSince1970: 1_700_000_100), playlistText: "#EXTINF:2,\nx\n#EXT-X-ENDLIST\n")
        let json = String(decoding: StreamSummary.listJSON([older, newer]), as: UTF8.self)
        #expect(json == """
            {"streams":[{"isFinished":true,"playlistURL":"/streams/a/playlist.m3u8","segmentCount":1,"streamId":"a","updatedAt":"2023-11-14T22:15:00.000Z"},\
            {"isFinished":false,"playlistURL":"/streams/b/playlist.m3u8","segmentCount":0,"streamId":"b","updatedAt":"2023-11-14T22:13:20.500Z"}]}
            """)
        #expect(String(decoding: StreamSummary.listJSON([]), as: UTF8.self) == "{\"streams\":[]}")
        #expect(String(decoding: StreamSummary.listJSON([], serverTime: Date(timeIntervalSince1970: 1_700_000_000.25)), as: UTF8.self)
                == "{\"serverTime\":\"2023-11-14T22:13:20.250Z\",\"streams\":[]}")
    }
}
