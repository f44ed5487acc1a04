import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// LL-HLS through the caching edge of `scripts/nginx-cdn.sh` in front of `reel serve`: a
/// blocking playlist request and a GET of the hinted part are held by the origin for longer
/// than the edge's ordinary playlist timeout (2 s), and the players asking for the same part
/// share one origin request.
@Suite("CDN edge in front of reel serve: LL-HLS blocking requests", .serialized)
struct CDNLowLatencyTests {
    static func playlist(parts: Int) -> Data {
        let lowLatency = HLSPlaylist.LowLatency(partTarget: MediaTime(value: 7, timescale: 20))
        let listed = (0..<parts).map {
            HLSPlaylist.Part(address: .init(sequence: 1, index: $0), duration: MediaTime(value: 1, timescale: 3), isIndependent: $0 == 0)
        }
        return HLSPlaylist(targetDuration: 2, lowLatency: lowLatency,
                           partial: .init(sequence: 1, programDateTime: Date(timeIntervalSince1970: 1_796_006_591), parts: listed),
                           preloadHint: .init(sequence: 1, index: parts)).renderedData()
    }

    @Test("held past the playlist timeout, answered with the part, one origin request for five players")
    func blockingRequestsThroughTheEdge() async throws {
        try await withReelServeOrigin { origin in
            try await withNginxCDN(upstream: "http://127.0.0.1:\(origin.port)") { cdn in
                #expect(try await origin.put("/streams/ll/init.mp4", Data("init".utf8)).status == 201)
                #expect(try await origin.put("/streams/ll/part/000001.0.m4s", Data("part 0".utf8)).status == 201)
                #expect(try await origin.put("/streams/ll/playlist.m3u8", Self.playlist(parts: 1)).status == 201)
                let edge = cdn.baseURL.absoluteString + "streams/ll/"
                // curl blocks its thread for the whole hold: each runs on a thread of its own.
                let reloads = (0..<5).map { _ in
                    Task { try await onItsOwnThread { try CDNEdgeTests.get(edge + "playlist.m3u8?_HLS_msn=1&_HLS_part=1") } }
                }
                let hinted = Task { try await onItsOwnThread { try CDNEdgeTests.get(edge + "part/000001.1.m4s") } }
                // Longer than the edge's 2 s playlist read timeout: the old config answered 504 here.
                try await Task.sleep(for: .seconds(3))
                #expect(try await origin.put("/streams/ll/part/000001.1.m4s", Data("part 1".utf8)).status == 201)
                #expect(try await origin.put("/streams/ll/playlist.m3u8", Self.playlist(parts: 2)).status == 204)

                for reload in reloads {
                    let answer = try await reload.value
                    #expect(answer.status == 200, "\(answer.stderr)")
                    #expect(String(decoding: answer.body, as: UTF8.self).contains("URI=\"part/000001.1.m4s\""))
                }
                let part = try await hinted.value
                #expect(part.status == 200 && part.body == Data("part 1".utf8), "the hinted part, held until stored: \(part.status)")
                let originGets = CDNEdgeTests.originLog(origin).filter { $0.method == "GET" && $0.path.hasPrefix("/streams/ll/playlist.m3u8") }
                #expect(originGets.count == 1, "five players, one held origin request: \(originGets)")
            }
        }
    }
}
