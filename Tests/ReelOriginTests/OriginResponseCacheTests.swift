import Foundation
import ReelCore
@testable import ReelOrigin
import ReelHTTP
import ReelTestSupport
import Testing

/// The ready responses the origin keeps for small files (ResponseCache): a file replaced by
/// any means is served new at once, every representation stays right, nothing gets past the
/// no-symlink rule, the memory stays bounded; and reads without openat2 (the walk) too.
@Suite("Origin response cache", .serialized)
struct OriginResponseCacheTests {
    static func playlist(_ version: Int, segments: Int = 30) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for index in 1...segments { text += "#EXTINF:2.000,\nseg/\(String(format: "%06d", index)).m4s\n" }
        // Same length for every version below 10: only the content tells them apart.
        return Data((text + "# version \(version)\n").utf8)
    }

    static func get(_ origin: TestOrigin, _ path: String, _ extra: [String] = []) throws -> CurlResponse {
        try curl(extra + [origin.base + path])
    }

    @Test func aReplacedFileIsServedNewAtOnce() async throws {
        try await withOrigin { origin in
            let path = "/streams/desk/playlist.m3u8"
            let file = origin.data.appendingPathComponent("streams/desk/playlist.m3u8")
            #expect(try OriginServerTests.put(origin, path, Self.playlist(1), token: origin.token).status == 201)
            for _ in 0..<3 { #expect(try Self.get(origin, path).body == Self.playlist(1)) }
            #expect(origin.server.cache.count == 1, "kept after the first GET")
            let firstTag = try Self.get(origin, path).headers["etag"]

            // A PUT of the same length: the next GET has the new bytes and a new tag.
            #expect(try OriginServerTests.put(origin, path, Self.playlist(2), token: origin.token).status == 204)
            let second = try Self.get(origin, path)
            #expect(second.body == Self.playlist(2) && second.headers["etag"] != firstTag)

            // Replaced behind the server's back, atomically (a new inode): new at once.
            let temporary = origin.data.appendingPathComponent("streams/desk/.outside-writer")
            try Self.playlist(3).write(to: temporary)
            #expect(rename(temporary.path, file.path) == 0)
            #expect(try Self.get(origin, path).body == Self.playlist(3))

            // Rewritten in place with the same length (same inode and size): new modification time.
            try await Task.sleep(for: .milliseconds(50))  // past the file system's timestamp granularity
            let handle = try FileHandle(forWritingTo: file)
            try handle.write(contentsOf: Self.playlist(4))
            try handle.close()
            #expect(try Self.get(origin, path).body == Self.playlist(4))

            // … and even with the old modification time put back (only the change time differs).
            let modified = try #require(try FileManager.default.attributesOfItem(atPath: file.path)[.modificationDate] as? Date)
            try await Task.sleep(for: .milliseconds(50))  // past the file system's timestamp granularity: a new change time
            let again = try FileHandle(forWritingTo: file)
            try again.write(contentsOf: Self.playlist(5))
            try again.close()
            try FileManager.default.setAttributes([.modificationDate: modified], ofItemAtPath: file.path)
            #expect(try Self.get(origin, path).body == Self.playlist(5))

            // A longer version, and a deleted stream.
            #expect(try OriginServerTests.put(origin, path, Self.playlist(6, segments: 31), token: origin.token).status == 204)
            #expect(try Self.get(origin, path).body == Self.playlist(6, segments: 31))
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/desk"]).status == 204)
            #expect(try Self.get(origin, path).status == 404)
            #expect(origin.server.cache.count == 0)
            // Every body was given back once dropped and sent (curl's connections are closed).
            for _ in 0..<100 where origin.server.cache.memory.inUse != 0 { try await Task.sleep(for: .milliseconds(10)) }
            #expect(origin.server.cache.memory.inUse == 0)
        }
    }

    @Test func everyRepresentationStaysRight() async throws {
        try await withOrigin { origin in
            let path = "/streams/desk/playlist.m3u8"
            for version in 1...3 {
                let body = Self.playlist(version, segments: 200)
                #expect(try OriginServerTests.put(origin, path, body, token: origin.token).status == (version == 1 ? 201 : 204))
                for _ in 0..<2 {  // the second of each is answered from the cache
                    let plain = try Self.get(origin, path)
                    #expect(plain.status == 200 && plain.body == body && plain.headers["content-encoding"] == nil)
                    #expect(plain.headers["content-length"] == String(body.count))
                    #expect(plain.headers["cache-control"] == "public, max-age=1")
                    #expect(plain.headers["access-control-allow-origin"] == "*" && plain.headers["vary"] == "Accept-Encoding")
                    #expect(plain.headers["content-type"] == "application/vnd.apple.mpegurl")
                    #expect(plain.headers["last-modified"]?.hasSuffix(" GMT") == true)
                    let zipped = try Self.get(origin, path, ["--compressed"])
                    #expect(zipped.status == 200 && zipped.body == body && zipped.headers["content-encoding"] == "gzip")
                    #expect(zipped.headers["etag"] == plain.headers["etag"].map { String($0.dropLast()) + "-gz\"" })
                    let head = try RawClient(port: origin.port)
                    head.send("HEAD \(path) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                    let answer = String(decoding: head.receiveAll(), as: UTF8.self)
                    #expect(answer.hasPrefix("HTTP/1.1 200") && answer.hasSuffix("\r\n\r\n"), "HEAD: headers only")
                    #expect(answer.contains("Content-Length: \(body.count)\r\n"))
                    let part = try Self.get(origin, path, ["-r", "0-6"])
                    #expect(part.status == 206 && part.body == body.prefix(7))
                    let tag = try #require(plain.headers["etag"])
                    #expect(try Self.get(origin, path, ["-H", "If-None-Match: \(tag)"]).status == 304)
                }
            }
            #expect(origin.server.cache.count == 2, "one plain and one gzip response of the newest version")
            // Media: init and media segments are kept too, except over the size limit (2 MiB).
            let initSegment = Data((0..<3000).map { UInt8($0 % 256) })
            #expect(try OriginServerTests.put(origin, "/streams/desk/init.mp4", initSegment, token: origin.token).status == 201)
            let segment = Data((0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            #expect(try OriginServerTests.put(origin, "/streams/desk/seg/000001.m4s", segment, token: origin.token).status == 201)
            let large = Data(repeating: 9, count: (2 << 20) + 1)
            #expect(try OriginServerTests.put(origin, "/streams/desk/seg/000002.m4s", large, token: origin.token).status == 201)
            for _ in 0..<2 {
                #expect(try Self.get(origin, "/streams/desk/init.mp4").body == initSegment)
                #expect(try Self.get(origin, "/streams/desk/seg/000001.m4s").body == segment)
                #expect(try Self.get(origin, "/streams/desk/seg/000001.m4s", ["-r", "1000-1999"]).body == segment[1000..<2000])
                #expect(try Self.get(origin, "/streams/desk/seg/000002.m4s").body == large)
            }
            #expect(origin.server.cache.count == 4)
        }
    }

    @Test func aFolderSwappedForASymlinkIsNeverFollowed() async throws {
        for walk in [false, true] {
            try await withOrigin { origin in
                if walk { origin.server.store.beneathAvailable.store(false, ordering: .relaxed) }
                let path = "/streams/desk/playlist.m3u8"
                #expect(try OriginServerTests.put(origin, path, Self.playlist(1), token: origin.token).status == 201)
                #expect(try Self.get(origin, path).body == Self.playlist(1))
                #expect(try Self.get(origin, path).body == Self.playlist(1))
                // The stream folder is swapped for a symlink to a folder outside holding the same names.
                let fm = FileManager.default
                try Self.playlist(1).write(to: origin.outside.appendingPathComponent("playlist.m3u8"))
                let streams = origin.data.appendingPathComponent("streams")
                try fm.moveItem(at: streams.appendingPathComponent("desk"), to: streams.appendingPathComponent("moved"))
                try fm.createSymbolicLink(atPath: streams.appendingPathComponent("desk").path, withDestinationPath: origin.outside.path)
                #expect(try Self.get(origin, path).status == 404, "walk: \(walk)")
                #expect(try Self.get(origin, path, ["--compressed"]).status == 404)
                // A file that is a symlink (to a file inside the data folder, even).
                try fm.createSymbolicLink(atPath: streams.appendingPathComponent("moved/init.mp4").path,
                                          withDestinationPath: streams.appendingPathComponent("moved/playlist.m3u8").path)
                #expect(try Self.get(origin, "/streams/moved/init.mp4").status == 404)
                #expect(try Self.get(origin, "/streams/moved/playlist.m3u8").body == Self.playlist(1))
                #expect(origin.server.store.beneathAvailable.load(ordering: .relaxed) == !walk)
            }
        }
    }

    @Test func memoryIsBounded() async throws {
        try await withOrigin(configure: { $0.responseCacheBytes = 8 << 10; $0.responseCacheEntries = 3 }) { (origin: TestOrigin) async throws in
            for round in 0..<2 {
                for id in 0..<6 {
                    let body = Self.playlist(id)
                    let path = "/streams/s\(id)/playlist.m3u8"
                    if round == 0 { #expect(try OriginServerTests.put(origin, path, body, token: origin.token).status == 201) }
                    #expect(try Self.get(origin, path).body == body)
                    #expect(try Self.get(origin, path, ["--compressed"]).body == body)
                }
                #expect(origin.server.cache.count <= 3)
            }
        }
        try await withOrigin(configure: { $0.responseCacheBytes = 0 }) { (origin: TestOrigin) async throws in
            #expect(try OriginServerTests.put(origin, "/streams/a/playlist.m3u8", Self.playlist(1), token: origin.token).status == 201)
            #expect(try Self.get(origin, "/streams/a/playlist.m3u8").body == Self.playlist(1))
            #expect(try Self.get(origin, "/streams/a/playlist.m3u8", ["--compressed"]).body == Self.playlist(1))
            #expect(origin.server.cache.count == 0, "0 bytes keeps nothing")
        }
    }

    @Test func bodyMemoryHasAHardLimit() async throws {
        let memory = ResponseMemory(limit: 1000)
        var bodies = [ResponseBody]()
        for _ in 0..<4 { bodies.append(try #require(ResponseBody(count: 250, memory: memory))) }
        #expect(memory.inUse == 1000)
        #expect(ResponseBody(count: 1, memory: memory) == nil, "nothing past the limit")
        bodies.removeLast()
        #expect(memory.inUse == 750 && ResponseBody(count: 250, memory: memory) != nil, "given back on release")
        bodies.removeAll()
        #expect(memory.inUse == 0)

        // A server whose allowance is used up still answers right: from the file.
        try await withOrigin(configure: { $0.responseCacheBytes = 16 << 10 }) { (origin: TestOrigin) async throws in
            let reserved = try #require(ResponseBody(count: origin.server.cache.memory.limit, memory: origin.server.cache.memory))
            let body = Self.playlist(1)
            #expect(try OriginServerTests.put(origin, "/streams/a/playlist.m3u8", body, token: origin.token).status == 201)
            for _ in 0..<2 {
                #expect(try Self.get(origin, "/streams/a/playlist.m3u8").body == body)
                #expect(try Self.get(origin, "/streams/a/playlist.m3u8", ["--compressed"]).body == body)
            }
            #expect(origin.server.cache.count == 0)
            _ = reserved
        }
    }
}
