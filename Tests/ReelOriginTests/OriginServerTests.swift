import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelCore
import ReelOrigin
import ReelTestSupport
import Testing

/// The origin server on loopback, spoken to by curl, raw sockets and URLSession.
@Suite("Origin server", .serialized)
struct OriginServerTests {
    static let playlist = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-MEDIA-SEQUENCE:1
        #EXTINF:2.000,
        seg/000001.m4s
        #EXTINF:2.000,
        seg/000002.m4s

        """

    /// PUTs `body` with curl; returns the status.
    static func put(_ origin: TestOrigin, _ path: String, _ body: Data, token: String?, extra: [String] = []) throws -> CurlResponse {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let file = folder.path("body")
        try body.write(to: URL(fileURLWithPath: file))
        var arguments = ["--path-as-is", "-X", "PUT", "--data-binary", "@\(file)", "-H", "Content-Type: application/octet-stream"]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        return try curl(arguments + extra + [origin.base + path])
    }

    @Test func putNeedsTheTokenThenCreatesAndReplaces() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            let body = Data((0..<4096).map { UInt8($0 % 251) })
            let missing = try Self.put(origin, "/streams/desk/init.mp4", body, token: nil)
            #expect(missing.status == 401)
            #expect(missing.headers["www-authenticate"]?.hasPrefix("Bearer") == true)
            #expect(try Self.put(origin, "/streams/desk/init.mp4", body, token: "0123456789abcdef0123456789abcdef").status == 403)
            #expect(try Self.put(origin, "/streams/desk/init.mp4", body, token: String(origin.token.dropLast())).status == 403)
            #expect(try Self.put(origin, "/streams/desk/init.mp4", body, token: nil, extra: ["-H", "Authorization: Basic \(origin.token)"]).status == 401)
            #expect(!FileManager.default.fileExists(atPath: origin.data.appendingPathComponent("streams/desk").path), "refused PUTs store nothing")

            #expect(try Self.put(origin, "/streams/desk/init.mp4", body, token: origin.token).status == 201)
            let replacement = Data(body.reversed())
            #expect(try Self.put(origin, "/streams/desk/init.mp4", replacement, token: origin.token).status == 204)
            #expect(try Data(contentsOf: origin.data.appendingPathComponent("streams/desk/init.mp4")) == replacement)
            #expect(try Self.put(origin, "/streams/desk/seg/000001.m4s", body, token: origin.token).status == 201)
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", Data(), token: origin.token).status == 201, "an empty body is a body")
            #expect(origin.temporaryFiles().isEmpty)
            #expect(try curl([origin.base + "/streams/desk/init.mp4"]).body == replacement)
        }
    }

    @Test func traversalInEveryFormReachesNothing() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            try Data("secret".utf8).write(to: origin.outside.appendingPathComponent("secret.txt"))
            #expect(try Self.put(origin, "/streams/desk/init.mp4", Data("ok".utf8), token: origin.token).status == 201)
            let before = origin.filesOutsideData()
            let paths = [
                "/streams/../token", "/streams/desk/../../token", "/streams/%2e%2e/token", "/streams/%2E%2E/%2e%2e/outside/secret.txt",
                "/streams/desk%2f..%2f..%2ftoken", "/streams/desk/..%2f..%2ftoken", "/streams/desk%00/init.mp4",
                "/streams/desk/init.mp4%00.m3u8", "//etc/passwd", "/../outside/secret.txt", "/streams/..%2f..%2foutside%2fsecret.txt/init.mp4",
                "/streams/desk/seg/..%2f..%2f..%2ftoken", "/token", "/data/token", "/streams/desk/%2e%2e/init.mp4",
                "/streams/desk/./init.mp4", "/streams/.%2e/desk/init.mp4", "/streams/desk/init.mp4/", "/streams/%64esk/../token",
            ]
            for path in paths {
                let get = try curl(["--path-as-is", origin.base + path])
                #expect(get.status == 404, "GET \(path) → \(get.status)")
                #expect(!String(decoding: get.body, as: UTF8.self).contains(origin.token))
                let put = try Self.put(origin, path, Data("evil".utf8), token: origin.token)
                #expect(put.status == 404, "PUT \(path) → \(put.status)")
            }
            // Request targets curl will not send: absolute paths, absolute-form, a raw NUL, backslashes.
            for target in ["/etc/passwd", "http://127.0.0.1/../token", "../token", "/streams/desk\u{0}/init.mp4",
                           "/streams\\..\\..\\token", "*"] {
                let client = try RawClient(port: origin.port)
                client.send("PUT \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: 4\r\nConnection: close\r\n\r\nevil")
                let status = client.receiveStatus()
                #expect(status != nil && (400..<500).contains(status!), "PUT \(target.debugDescription) → \(String(describing: status))")
                let get = try RawClient(port: origin.port)
                get.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
                let answer = String(decoding: get.receiveAll(), as: UTF8.self)
                #expect(answer.hasPrefix("HTTP/1.1 4"), "GET \(target.debugDescription) → \(answer.prefix(40))")
                #expect(!answer.contains(origin.token) && !answer.contains("root:"))
            }
            #expect(origin.filesOutsideData() == before, "nothing was written outside the data folder")
            #expect(try String(contentsOf: origin.outside.appendingPathComponent("secret.txt"), encoding: .utf8) == "secret")
            let streams = try FileManager.default.contentsOfDirectory(atPath: origin.data.appendingPathComponent("streams").path)
            #expect(streams == ["desk"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: origin.data.appendingPathComponent("streams/desk").path) == ["init.mp4"])
        }
    }

    @Test func symlinksPlantedInTheDataFolderAreNeverFollowed() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            let fm = FileManager.default
            let secret = Data("outside".utf8)
            try fm.createDirectory(at: origin.outside.appendingPathComponent("seg"), withIntermediateDirectories: true)
            for name in ["init.mp4", "playlist.m3u8", "seg/000001.m4s"] {
                try secret.write(to: origin.outside.appendingPathComponent(name))
            }
            let streams = origin.data.appendingPathComponent("streams")
            // A stream folder that is a symlink to a folder outside.
            try fm.createSymbolicLink(atPath: streams.appendingPathComponent("evil").path, withDestinationPath: origin.outside.path)
            // A real stream whose `seg` folder and playlist are symlinks.
            try fm.createDirectory(at: streams.appendingPathComponent("mixed"), withIntermediateDirectories: true)
            try fm.createSymbolicLink(atPath: streams.appendingPathComponent("mixed/seg").path,
                                      withDestinationPath: origin.outside.appendingPathComponent("seg").path)
            try fm.createSymbolicLink(atPath: streams.appendingPathComponent("mixed/playlist.m3u8").path,
                                      withDestinationPath: origin.outside.appendingPathComponent("playlist.m3u8").path)
            // The streams folder's file pointing at the token.
            try fm.createSymbolicLink(atPath: streams.appendingPathComponent("tok").path, withDestinationPath: "../token")

            for path in ["/streams/evil/init.mp4", "/streams/evil/playlist.m3u8", "/streams/evil/seg/000001.m4s",
                         "/streams/mixed/seg/000001.m4s", "/streams/mixed/playlist.m3u8", "/streams/tok/init.mp4"] {
                let get = try curl([origin.base + path])
                #expect(get.status == 404, "GET \(path) → \(get.status)")
                #expect(get.body != secret)
            }
            #expect(try Self.put(origin, "/streams/evil/init.mp4", Data("evil".utf8), token: origin.token).status == 409)
            #expect(try Self.put(origin, "/streams/evil/seg/000002.m4s", Data("evil".utf8), token: origin.token).status == 409)
            #expect(try Self.put(origin, "/streams/mixed/seg/000002.m4s", Data("evil".utf8), token: origin.token).status == 409)
            #expect(try Self.put(origin, "/streams/tok/init.mp4", Data("evil".utf8), token: origin.token).status == 409)
            // Replacing a file that is a symlink replaces the link itself, never its target.
            #expect(try Self.put(origin, "/streams/mixed/playlist.m3u8", Data("#EXTM3U\n".utf8), token: origin.token).status == 204)
            let replaced = try fm.attributesOfItem(atPath: streams.appendingPathComponent("mixed/playlist.m3u8").path)
            #expect(replaced[.type] as? FileAttributeType == .typeRegular, "the link was replaced by a regular file")
            // Deleting a symlinked stream removes the link, not what it points at.
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/evil"]).status == 204)
            #expect(!fm.fileExists(atPath: streams.appendingPathComponent("evil").path))
            for name in ["init.mp4", "playlist.m3u8", "seg/000001.m4s"] {
                #expect(try Data(contentsOf: origin.outside.appendingPathComponent(name)) == secret, "\(name) outside is untouched")
            }
            #expect(try fm.contentsOfDirectory(atPath: origin.outside.appendingPathComponent("seg").path) == ["000001.m4s"])
            #expect(try String(contentsOf: origin.data.appendingPathComponent("token"), encoding: .utf8).hasPrefix(origin.token))
        }
    }

    @Test func bodiesAreBoundedBeforeTheyAreRead() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            // 413: announced 40 MB, nothing sent; the answer must come without the body.
            let big = try RawClient(port: origin.port)
            big.send("PUT /streams/desk/seg/000001.m4s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: 41943040\r\n\r\n")
            let started = ContinuousClock.now
            #expect(big.receiveStatus() == 413)
            #expect(ContinuousClock.now - started < .seconds(3))
            // 413 also with Expect: 100-continue: no 100 before the refusal.
            let expecting = try RawClient(port: origin.port)
            expecting.send("PUT /streams/desk/seg/000001.m4s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: 33554433\r\nExpect: 100-continue\r\n\r\n")
            #expect(expecting.receiveStatus() == 413)
            // 411: no Content-Length, and chunked.
            let bare = try RawClient(port: origin.port)
            bare.send("PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\n\r\n")
            #expect(bare.receiveStatus() == 411)
            let chunked = try Self.put(origin, "/streams/desk/init.mp4", Data(repeating: 1, count: 1000), token: origin.token,
                                       extra: ["-H", "Transfer-Encoding: chunked"])
            #expect(chunked.status == 411)
            let bad = try RawClient(port: origin.port)
            bad.send("PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: 1e3\r\n\r\n")
            #expect(bad.receiveStatus().map { (400..<500).contains($0) } == true)
            // Authentication comes first, so a stranger learns nothing about the limits.
            let stranger = try RawClient(port: origin.port)
            stranger.send("PUT /streams/desk/init.mp4 HTTP/1.1\r\nHost: x\r\nContent-Length: 41943040\r\n\r\n")
            #expect(stranger.receiveStatus() == 401)
            #expect(!FileManager.default.fileExists(atPath: origin.data.appendingPathComponent("streams/desk/seg/000001.m4s").path))
            #expect(origin.temporaryFiles().isEmpty)
            // The server still answers.
            #expect(try curl([origin.base + "/health"]).status == 200)
        }
    }

    @Test func headersAndConnectionsAreBounded() async throws {
        try await withOrigin(configure: { $0.maxConnections = 4; $0.threadCount = 2 }) { origin in
            // A header block larger than the connection's 64 KiB is refused and the connection closed.
            let huge = try RawClient(port: origin.port)
            huge.send("GET /health HTTP/1.1\r\nHost: x\r\nX-Big: \(String(repeating: "a", count: 100_000))\r\n\r\n")
            let started = ContinuousClock.now
            let answer = String(decoding: huge.receiveAll(), as: UTF8.self)
            #expect(answer.isEmpty || answer.hasPrefix("HTTP/1.1 431"), "\(answer.prefix(30))")
            #expect(ContinuousClock.now - started < .seconds(5), "closed, not left waiting")

            // With the cap taken by idle connections, a new client waits in the listen queue …
            var holders = try (0..<4).map { _ in try RawClient(port: origin.port) }
            // Once the server has taken the four, a newcomer gets no answer.
            try await eventually("no answer while 4 of 4 are taken") {
                (try? curl(["--max-time", "1", origin.base + "/health"]))?.status == 0 ? true : nil
            }
            // … and is served once a place is free.
            holders.removeLast()
            #expect(try curl(["--max-time", "5", origin.base + "/health"]).status == 200)
            _ = holders
        }
    }

    @Test func getServesRangesTagsCachingTypesAndCORS() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            let media = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            for path in ["/streams/desk/init.mp4", "/streams/desk/seg/000001.m4s"] {
                #expect(try Self.put(origin, path, media, token: origin.token).status == 201)
            }
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", Data(Self.playlist.utf8), token: origin.token).status == 201)

            let kinds: [(String, String, String)] = [
                ("/streams/desk/init.mp4", "video/mp4", "public, max-age=31536000, immutable"),
                ("/streams/desk/seg/000001.m4s", "video/iso.segment", "public, max-age=31536000, immutable"),
                ("/streams/desk/playlist.m3u8", "application/vnd.apple.mpegurl", "public, max-age=1"),
            ]
            for (path, type, caching) in kinds {
                let response = try curl(["-H", "Origin: https://viewer.example", origin.base + path])
                #expect(response.status == 200)
                #expect(response.headers["content-type"] == type, "\(path)")
                #expect(response.headers["cache-control"] == caching, "\(path)")
                #expect(response.headers["access-control-allow-origin"] == "*")
                let exposed = response.headers["access-control-expose-headers"] ?? ""
                #expect(exposed.contains("Content-Length") && exposed.contains("Content-Range") && exposed.contains("ETag"))
                #expect(response.headers["accept-ranges"] == "bytes")
                #expect(response.headers["last-modified"]?.hasSuffix(" GMT") == true)
                #expect(response.headers["etag"]?.hasPrefix("\"") == true)
                let head = try curl(["-I", origin.base + path])
                #expect(head.status == 200 && head.headers["content-length"] == response.headers["content-length"])
                #expect(head.headers["content-type"] == type && head.headers["etag"] == response.headers["etag"])
            }

            let segment = origin.base + "/streams/desk/seg/000001.m4s"
            let part = try curl(["-r", "1000-1999", segment])
            #expect(part.status == 206 && part.body == media[1000..<2000])
            #expect(part.headers["content-range"] == "bytes 1000-1999/100000")
            let tail = try curl(["-H", "Range: bytes=-10", segment])
            #expect(tail.status == 206 && tail.body == media.suffix(10))
            let open = try curl(["-H", "Range: bytes=99990-", segment])
            #expect(open.status == 206 && open.body == media.suffix(10))
            let outside = try curl(["-H", "Range: bytes=100000-", segment])
            #expect(outside.status == 416 && outside.headers["content-range"] == "bytes */100000")
            #expect(try curl(["-H", "Range: bytes=5-2", segment]).status == 416)
            #expect(try curl(["-H", "Range: bytes=0-1,5-6", segment]).status == 200, "several ranges: the whole file")

            let etag = try #require(try curl([segment]).headers["etag"])
            let cached = try curl(["-H", "If-None-Match: \(etag)", segment])
            #expect(cached.status == 304 && cached.body.isEmpty && cached.headers["etag"] == etag)
            #expect(try curl(["-H", "If-None-Match: \"stale\"", segment]).status == 200)
            // A new version is a new tag.
            #expect(try Self.put(origin, "/streams/desk/seg/000001.m4s", media + Data([1]), token: origin.token).status == 204)
            let renewed = try curl(["-H", "If-None-Match: \(etag)", segment])
            #expect(renewed.status == 200 && renewed.headers["etag"] != etag && renewed.body.count == 100_001)

            let preflight = try curl(["-X", "OPTIONS", "-H", "Origin: https://viewer.example", "-H", "Access-Control-Request-Method: GET",
                                      "-H", "Access-Control-Request-Headers: range", segment])
            #expect(preflight.status == 204)
            #expect(preflight.headers["access-control-allow-origin"] == "*")
            #expect(preflight.headers["access-control-allow-methods"]?.contains("GET") == true)
            #expect(preflight.headers["access-control-allow-headers"]?.lowercased().contains("range") == true)

            #expect(try curl(["-X", "POST", "--data", "x", segment]).status == 405)
            #expect(try curl(["-X", "DELETE", segment]).status == 401, "a file's DELETE needs the token (OriginFileDeleteTests)")
            #expect(try curl([origin.base + "/streams/desk/seg/000009.m4s"]).status == 404)
        }
    }

    @Test func playlistsAreGzippedForClientsThatAsk() throws {
        try awaitless {
            let origin = try TestOrigin()
            defer { origin.close() }
            let long = Self.playlist + (3...400).map { "#EXTINF:2.000,\nseg/\(String(format: "%06d", $0)).m4s\n" }.joined()
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", Data(long.utf8), token: origin.token).status == 201)
            let url = origin.base + "/streams/desk/playlist.m3u8"
            let zipped = try curl(["--compressed", url])
            #expect(zipped.status == 200 && zipped.headers["content-encoding"] == "gzip")
            #expect(String(decoding: zipped.body, as: UTF8.self) == long, "curl decompressed it to the stored text")
            #expect(Int(zipped.headers["content-length"] ?? "") ?? .max < long.utf8.count / 3)
            #expect(zipped.headers["vary"] == "Accept-Encoding")
            let plain = try curl([url])
            #expect(plain.headers["content-encoding"] == nil && String(decoding: plain.body, as: UTF8.self) == long)
            #expect(plain.headers["etag"] != zipped.headers["etag"], "each representation has its own tag")
            let zippedTag = try #require(zipped.headers["etag"])
            #expect(try curl(["--compressed", "-H", "If-None-Match: \(zippedTag)", url]).status == 304)
            #expect(try curl(["-H", "Accept-Encoding: gzip;q=0", url]).headers["content-encoding"] == nil)
            // Media is never gzipped.
            #expect(try Self.put(origin, "/streams/desk/init.mp4", Data(repeating: 0, count: 10_000), token: origin.token).status == 201)
            #expect(try curl(["--compressed", origin.base + "/streams/desk/init.mp4"]).headers["content-encoding"] == nil)
        }
    }

    @Test func streamListHealthIndexAndDelete() async throws {
        try await withOrigin { origin in
            let empty = String(decoding: try curl([origin.base + "/api/streams"]).body, as: UTF8.self)
            #expect(empty.hasPrefix("{\"serverTime\":\"") && empty.hasSuffix("Z\",\"streams\":[]}"), "\(empty)")
            for (id, ended) in [("first", true), ("second", false), ("third", false)] {
                #expect(try Self.put(origin, "/streams/\(id)/init.mp4", Data("i".utf8), token: origin.token).status == 201)
                let text = Self.playlist + (ended ? "#EXT-X-ENDLIST\n" : "")
                #expect(try Self.put(origin, "/streams/\(id)/playlist.m3u8", Data(text.utf8), token: origin.token).status == 201)
            }
            // Only an init so far: listed with no segments. (Each PUT is answered before the next
            // is sent, so each update time is later than the one before.)
            #expect(try Self.put(origin, "/streams/fresh/init.mp4", Data("i".utf8), token: origin.token).status == 201)
            // Updating `first` makes it the newest.
            #expect(try Self.put(origin, "/streams/first/playlist.m3u8", Data((Self.playlist + "#EXT-X-ENDLIST\n").utf8), token: origin.token).status == 204)

            let list = try curl([origin.base + "/api/streams"])
            #expect(list.status == 200 && list.headers["content-type"] == "application/json")
            #expect(list.headers["access-control-allow-origin"] == "*")
            struct Body: Decodable {
                struct Stream: Decodable { var streamId: String; var playlistURL: String; var updatedAt: String; var segmentCount: Int; var isFinished: Bool }
                var streams: [Stream]
            }
            let decoded = try JSONDecoder().decode(Body.self, from: list.body)
            #expect(decoded.streams.map(\.streamId) == ["first", "fresh", "third", "second"])
            let first = try #require(decoded.streams.first)
            #expect(first.isFinished && first.segmentCount == 2 && first.playlistURL == "/streams/first/playlist.m3u8")
            #expect(first.updatedAt.hasSuffix("Z") && first.updatedAt.count == 24)
            #expect(decoded.streams[1].segmentCount == 0 && !decoded.streams[1].isFinished)
            #expect(!decoded.streams[2].isFinished)

            let health = try curl([origin.base + "/health"])
            #expect(health.status == 200 && health.headers["content-type"] == "application/json")
            #expect(String(decoding: health.body, as: UTF8.self).contains("\"status\":\"ok\""))

            #expect(try curl(["-X", "DELETE", origin.base + "/streams/second"]).status == 401)
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/second"]).status == 204)
            #expect(try curl(["-X", "DELETE", "-H", "Authorization: Bearer \(origin.token)", origin.base + "/streams/second"]).status == 404)
            #expect(try curl([origin.base + "/streams/second/playlist.m3u8"]).status == 404)
            let after = try JSONDecoder().decode(Body.self, from: try curl([origin.base + "/api/streams"]).body)
            #expect(after.streams.map(\.streamId) == ["first", "fresh", "third"])
            #expect(try FileManager.default.contentsOfDirectory(atPath: origin.data.appendingPathComponent("streams").path).sorted()
                    == ["first", "fresh", "third"], "the deleted folder is gone, no trash left")
        }
    }

    @Test func viewerPagesAndTheirAssetsComeFromTheBinary() async throws {
        try await withOrigin { origin in
            let index = try curl([origin.base + "/"])
            let html = String(decoding: index.body, as: UTF8.self)
            #expect(index.status == 200 && index.headers["content-type"] == "text/html; charset=utf-8")
            #expect(html.contains("<script src=\"/viewer.js\" defer></script>") && html.contains("data-stream=\"\""))
            #expect(html.contains("data-hls-js=\"\"") && html.contains("<video id=\"video\" muted autoplay playsinline controls"))
            let policy = try #require(index.headers["content-security-policy"])
            #expect(policy.contains("script-src 'self';") && policy.contains("connect-src 'self'") && policy.contains("media-src 'self' blob:"))
            #expect(index.headers["x-content-type-options"] == "nosniff" && index.headers["cache-control"] == "no-cache")

            let watch = try curl([origin.base + "/watch/desk_1"])
            #expect(watch.status == 200 && String(decoding: watch.body, as: UTF8.self).contains("data-stream=\"desk_1\""))
            #expect(try curl([origin.base + "/watch/a.b"]).status == 404, "ids follow the layout rule here too")
            #expect(try curl([origin.base + "/watch/"]).status == 404)
            #expect(try curl(["-X", "PUT", "-H", "Authorization: Bearer \(origin.token)", "--data-binary", "x", origin.base + "/watch/x"]).status == 405)

            for (path, type, marker) in [("/viewer.js", "text/javascript; charset=utf-8", "/api/streams"),
                                         ("/viewer.css", "text/css; charset=utf-8", ".state-live")] {
                let asset = try curl([origin.base + path])
                #expect(asset.status == 200 && asset.headers["content-type"] == type, "\(path)")
                #expect(String(decoding: asset.body, as: UTF8.self).contains(marker))
                let tag = try #require(asset.headers["etag"])
                #expect(try curl(["-H", "If-None-Match: \(tag)", origin.base + path]).status == 304)
                #expect(try curl(["-H", "If-None-Match: \"other\"", origin.base + path]).status == 200)
            }
            #expect(try curl([origin.base + "/viewer.jsx"]).status == 404)
        }
        // An operator's hls.js: named in the page, and the only other place scripts may come from.
        try await withOrigin(configure: { $0.hlsJS = URL(string: "https://cdn.example.org:8443/hls/hls.min.js?v=1&x=\"") }) { origin in
            let index = try curl([origin.base + "/watch/desk"])
            let html = String(decoding: index.body, as: UTF8.self)
            #expect(html.contains("data-hls-js=\"https://cdn.example.org:8443/hls/hls.min.js?v=1&amp;x=%22\""), "\(html)")
            #expect(index.headers["content-security-policy"]?.contains("script-src 'self' https://cdn.example.org:8443;") == true)
        }
    }

    @Test func failedAuthenticationsAreCappedPerAddress() throws {
        try awaitless {
            let origin = try TestOrigin { $0.maxAuthFailures = 3; $0.authFailureWindow = 60 }
            defer { origin.close() }
            for _ in 0..<3 {
                #expect(try Self.put(origin, "/streams/desk/init.mp4", Data("x".utf8), token: "wrong-token-wrong-token").status == 403)
            }
            let blocked = try Self.put(origin, "/streams/desk/init.mp4", Data("x".utf8), token: "wrong-token-wrong-token")
            #expect(blocked.status == 429)
            #expect(Int(blocked.headers["retry-after"] ?? "") ?? 0 > 50)
            // The token is 256 random bits: no number of guesses finds it, so the cap only sheds
            // the wrong ones; a publisher sharing the address (a proxy, a NAT) is never locked out.
            #expect(try Self.put(origin, "/streams/desk/init.mp4", Data("x".utf8), token: origin.token).status == 201,
                    "the right token is never locked out")
            #expect(try Self.put(origin, "/streams/desk/init.mp4", Data("x".utf8), token: "wrong-token-wrong-token").status == 429)
            #expect(try curl([origin.base + "/health"]).status == 200, "reading is not affected")
        }
    }

    @Test func behindATrustedProxyFailuresCountAgainstTheForwardedClient() throws {
        try awaitless {
            let origin = try TestOrigin {
                $0.maxAuthFailures = 3
                $0.trustedProxies = ["127.0.0.1"]
            }
            defer { origin.close() }
            func put(_ token: String, forwardedFor: String) throws -> Int {
                try curl(["-X", "PUT", "--data-binary", "x", "-H", "Authorization: Bearer \(token)",
                          "-H", "X-Forwarded-For: \(forwardedFor)", origin.base + "/streams/desk/init.mp4"]).status
            }
            for _ in 0..<3 { #expect(try put("wrong-token-wrong-token", forwardedFor: "203.0.113.7") == 403) }
            #expect(try put("wrong-token-wrong-token", forwardedFor: "203.0.113.7") == 429, "the guessing client is capped")
            #expect(try put("wrong-token-wrong-token", forwardedFor: "198.51.100.2") == 403, "another client behind the proxy is not")
            // A client writing its own X-Forwarded-For: the proxy appends the real address, which counts.
            #expect(try put("wrong-token-wrong-token", forwardedFor: "198.51.100.2, 203.0.113.7") == 429)
            let log = try String(contentsOf: origin.accessLog, encoding: .utf8)
            #expect(log.contains(" 203.0.113.7 PUT "), "the access log names the forwarded client")
        }
    }

    @Test func accessLogHasALinePerRequest() throws {
        try awaitless {
            let origin = try TestOrigin()
            #expect(try Self.put(origin, "/streams/desk/init.mp4", Data("x".utf8), token: origin.token).status == 201)
            _ = try curl([origin.base + "/streams/desk/init.mp4"])
            _ = try curl(["--path-as-is", origin.base + "/streams/a%20b/../x"])
            origin.server.stop()
            let lines = try String(contentsOf: origin.accessLog, encoding: .utf8).split(separator: "\n")
            origin.close()
            #expect(lines.count == 3)
            let fields = lines.map { $0.split(separator: " ") }
            #expect(fields[0][2] == "PUT" && fields[0][3] == "/streams/desk/init.mp4" && fields[0][4] == "201")
            #expect(fields[1][2] == "GET" && fields[1][4] == "200" && fields[1][5] == "1")
            #expect(fields[2][3] == "/streams/a%2520b/../x" && fields[2][4] == "404")
            #expect(fields.allSatisfy { $0.count == 7 && $0[1] == "127.0.0.1" && $0[6].hasSuffix("ms") && $0[0].hasSuffix("Z") })
        }
    }

    @Test func urlSessionReadsAndKeepAliveReusesConnections() async throws {
        try await withOrigin { origin in
            #expect(try Self.put(origin, "/streams/desk/playlist.m3u8", Data(Self.playlist.utf8), token: origin.token).status == 201)
            let session = URLSession(configuration: .ephemeral)
            defer { session.invalidateAndCancel() }
            for _ in 0..<3 {
                let (data, response) = try await session.data(from: URL(string: origin.base + "/streams/desk/playlist.m3u8")!)
                #expect((response as? HTTPURLResponse)?.statusCode == 200)
                #expect(String(decoding: data, as: UTF8.self) == Self.playlist)
            }
            // Two requests on one raw connection: keep-alive.
            let client = try RawClient(port: origin.port)
            client.send("GET /health HTTP/1.1\r\nHost: x\r\n\r\nGET /api/streams HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let answer = String(decoding: client.receiveAll(), as: UTF8.self)
            #expect(answer.components(separatedBy: "HTTP/1.1 200 OK").count == 3, "both answered on one connection")
        }
    }

    @Test func leftoversOfACrashAreRemovedAtStart() throws {
        let parent = try TemporaryDirectory()
        defer { parent.cleanup() }
        let data = parent.url.appendingPathComponent("data")
        let fm = FileManager.default
        try fm.createDirectory(at: data.appendingPathComponent("streams/desk/seg"), withIntermediateDirectories: true)
        try fm.createDirectory(at: data.appendingPathComponent("streams/.deleted-old-1f/seg"), withIntermediateDirectories: true)
        for name in ["streams/desk/init.mp4", "streams/desk/.init.mp4.0123.tmp", "streams/desk/seg/.000001.m4s.4567.tmp",
                     "streams/desk/seg/000002.m4s", "streams/.deleted-old-1f/seg/000001.m4s"] {
            try Data("x".utf8).write(to: data.appendingPathComponent(name))
        }
        let server = try OriginServer(settings: OriginSettings(port: 0, dataDirectory: data, accessLog: .none))
        _ = server
        #expect(try fm.contentsOfDirectory(atPath: data.appendingPathComponent("streams").path) == ["desk"])
        #expect(try fm.contentsOfDirectory(atPath: data.appendingPathComponent("streams/desk").path).sorted() == ["init.mp4", "seg"])
        #expect(try fm.contentsOfDirectory(atPath: data.appendingPathComponent("streams/desk/seg").path) == ["000002.m4s"])
    }

    @Test func stopLetsRequestsInFlightFinish() async throws {
        let origin = try TestOrigin()
        defer { origin.close() }
        let body = Data(repeating: 7, count: 200_000)
        let client = try RawClient(port: origin.port)
        client.send("PUT /streams/desk/seg/000001.m4s HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer \(origin.token)\r\nContent-Length: \(body.count)\r\n\r\n")
        client.send(body.prefix(100_000))
        try await eventually("the upload in flight") { origin.server.requestsInFlight == 1 ? true : nil }
        let stopped = Thread { origin.server.stop() }
        stopped.start()
        // The listener closes first (a connection that got in meanwhile is closed at once here).
        try await eventually("the listener closed") { (try? RawClient(port: origin.port)) == nil ? true : nil }
        // The listener is gone, so a new client is refused …
        #expect(throws: (any Error).self) { _ = try RawClient(port: origin.port) }
        // … while the upload in flight completes.
        client.send(body.suffix(100_000))
        #expect(client.receiveStatus() == 201)
        #expect(try Data(contentsOf: origin.data.appendingPathComponent("streams/desk/seg/000001.m4s")) == body)
    }
}

/// Runs synchronous test code (curl subprocesses) as is; a name for readability.
private func awaitless(_ body: () throws -> Void) rethrows { try body() }
