import Foundation
import ReelCore
import ReelRuntime
@testable import ReelOrigin
import ReelTestSupport
import Testing

/// What a long live stream, a cache in front and a careless publisher ask of the origin: a
/// playlist of megabytes compressed once per version (never for HEAD or an abandoned client),
/// a stream list kept in memory and exact for any playlist length, the conditional and range
/// requests a cache makes, and a DELETE racing PUTs that leaves nothing behind.
@Suite("Origin long streams and caches", .serialized)
struct OriginLongStreamTests {
    /// A media playlist of `segments` segments (about 140 bytes of text each).
    static func playlist(segments: Int, ended: Bool) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for index in 1...segments {
            text += "#EXT-X-PROGRAM-DATE-TIME:2026-12-03T10:00:00.000Z\n#EXTINF:2.000000,\nseg/\(String(format: "%06d", index)).m4s\n"
        }
        if ended { text += "#EXT-X-ENDLIST\n" }
        return Data(text.utf8)
    }

    static func put(_ origin: TestOrigin, _ path: String, _ body: Data) throws -> Int {
        try OriginServerTests.put(origin, path, body, token: origin.token).status
    }

    @Test func aLongPlaylistIsCompressedOncePerVersion() async throws {
        try await withOrigin { origin in
            let text = Self.playlist(segments: 40_000, ended: false)  // 3.3 MB, about 22 hours
            #expect(text.count > 3_000_000)
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", text) == 201)
            let url = origin.base + "/streams/desk/playlist.m3u8"
            let head = try curl(["-I", "-H", "Accept-Encoding: gzip", url])
            #expect(head.status == 200 && head.headers["content-encoding"] == nil, "HEAD compresses nothing")
            #expect(origin.server.cache.count == 0)
            let first = try curl(["-H", "Accept-Encoding: gzip", url])
            #expect(first.headers["content-encoding"] == "gzip")
            #expect(first.body.count < text.count / 5)
            #expect(origin.server.cache.count == 1, "the compressed answer is kept although the file is over 2 MiB")
            let plain = try curl(["--compressed", url])
            #expect(plain.body == text, "gunzipped by curl: the same bytes")
            let again = try curl(["-H", "Accept-Encoding: gzip", "-H", "If-None-Match: \(first.headers["etag"] ?? "")", url])
            #expect(again.status == 304)
            let identity = try curl([url])
            #expect(identity.body == text && identity.headers["content-encoding"] == nil)
        }
    }

    @Test func theStreamListIsExactForAnyLengthAndFollowsEveryWrite() async throws {
        let parent = try TemporaryDirectory()
        defer { parent.cleanup() }
        let data = parent.url.appendingPathComponent("data")
        func start() throws -> TestOrigin { try TestOrigin { $0.dataDirectory = data } }
        func list(_ origin: TestOrigin) throws -> [String: (Int, Bool)] {
            let body = try curl([origin.base + "/api/streams"]).body
            let json = try JSONSerialization.jsonObject(with: body) as? [String: Any]
            var result: [String: (Int, Bool)] = [:]
            for item in json?["streams"] as? [[String: Any]] ?? [] {
                result[item["streamId"] as? String ?? ""] = (item["segmentCount"] as? Int ?? -1, item["isFinished"] as? Bool ?? false)
            }
            return result
        }
        do {
            let origin = try start()
            defer { origin.server.stop() }
            #expect(try Self.put(origin, "/streams/long/playlist.m3u8", Self.playlist(segments: 40_000, ended: true)) == 201)
            #expect(try Self.put(origin, "/streams/live/init.mp4", Data("init".utf8)) == 201)
            var streams = try list(origin)
            #expect(streams["long"]?.0 == 40_000 && streams["long"]?.1 == true, "a finished 3.3 MB playlist is finished")
            #expect(streams["live"]?.0 == 0 && streams["live"]?.1 == false)
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 3, ended: false)) == 201)
            #expect(try list(origin)["live"]?.0 == 3)
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/live/playlist.m3u8"]).status == 204)
            #expect(try list(origin)["live"]?.0 == 0, "the init segment alone remains")
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/live"]).status == 204)
            streams = try list(origin)
            #expect(streams["live"] == nil && streams.count == 1)
        }
        let restarted = try start()
        defer { restarted.close() }
        #expect(try list(restarted)["long"]?.0 == 40_000, "read again from the folder at start")
    }

    @Test func theRequestsACacheMakes() async throws {
        try await withOrigin { origin in
            let bytes = Data((0..<10_000).map { UInt8(truncatingIfNeeded: $0) })
            #expect(try Self.put(origin, "/streams/desk/seg/000001.m4s", bytes) == 201)
            let url = origin.base + "/streams/desk/seg/000001.m4s"
            let whole = try curl([url])
            let tag = whole.headers["etag"] ?? "", modified = whole.headers["last-modified"] ?? ""
            #expect(!tag.isEmpty && !modified.isEmpty)
            #expect(try curl(["-H", "If-Modified-Since: \(modified)", url]).status == 304)
            #expect(try curl(["-H", "If-Modified-Since: Sat, 01 Jan 2000 00:00:00 GMT", url]).status == 200)
            let part = try curl(["-H", "Range: bytes=100-199", "-H", "If-Range: \(tag)", url])
            #expect(part.status == 206 && part.body == bytes[100..<200])
            let byDate = try curl(["-H", "Range: bytes=100-199", "-H", "If-Range: \(modified)", url])
            #expect(byDate.status == 206)
            for stale in ["\"0-0-0\"", "W/\(tag)", "Sat, 01 Jan 2000 00:00:00 GMT"] {
                let full = try curl(["-H", "Range: bytes=100-199", "-H", "If-Range: \(stale)", url])
                #expect(full.status == 200 && full.body == bytes, "If-Range \(stale): the whole file")
            }
        }
    }

    @Test func aDeleteRacingUploadsLeavesNothingBehind() async throws {
        try await withOrigin { origin in
            let segment = Data(repeating: 7, count: 256 * 1024)
            let deadline = ContinuousClock.now + .seconds(4)
            let uploaded = Locked<[Int]>([])
            try await withThrowingTaskGroup(of: Void.self) { group in
                for worker in 0..<3 {
                    group.addTask {
                        var sequence = worker * 100_000 + 1
                        while ContinuousClock.now < deadline {
                            let status = try Self.put(origin, "/streams/race/seg/\(String(format: "%06d", sequence)).m4s", segment)
                            if status == 201 || status == 204 { uploaded.withLock { $0.append(sequence) } }
                            #expect([201, 204, 409].contains(status))
                            sequence += 1
                        }
                    }
                }
                group.addTask {
                    while ContinuousClock.now < deadline {
                        _ = try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/race"])
                        // The race is the scenario: a delete every 50 ms among the uploads.
                        try await Task.sleep(for: .milliseconds(50))
                    }
                }
                try await group.waitForAll()
            }
            let streams = origin.data.appendingPathComponent("streams")
            let names = try FileManager.default.contentsOfDirectory(atPath: streams.path)
            #expect(!names.contains { $0.hasPrefix(".deleted-") }, "no trash left: \(names)")
            #expect(origin.temporaryFiles().isEmpty)
            // Every upload answered 201/204 after the last DELETE is there to be served.
            let stored = (try? FileManager.default.contentsOfDirectory(atPath: streams.appendingPathComponent("race/seg").path)) ?? []
            for name in stored { #expect(try curl([origin.base + "/streams/race/seg/\(name)"]).status == 200) }
            #expect(uploaded.withLock { $0.count } > 0)
        }
    }
}
