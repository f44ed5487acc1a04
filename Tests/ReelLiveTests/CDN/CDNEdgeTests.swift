import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// A CDN in front (docs/cdn.md): Debian's nginx with the config `scripts/nginx-cdn.sh` writes, as a
/// caching edge in front of the real `reel serve` binary and in front of an S3 server (moto),
/// all on loopback. The edge caches what the origin's Cache-Control allows, for as long as it
/// says; `reel serve` answers the conditional and Range requests the edge makes.
@Suite("CDN edge (nginx-cdn.sh) in front of reel serve and S3", .serialized)
struct CDNEdgeTests {
    /// How long nginx may serve a copy of a `max-age=1` playlist: it keeps an answer until the
    /// clock passes the whole second it was fetched in plus max-age, so between 1 s and 2 s
    /// (nginx counts freshness in whole seconds).
    static let edgeTTL = 2.0

    /// One GET through curl with extra headers (`-H`), from `source` (a loopback address) when given.
    static func get(_ url: String, headers: [String] = [], source: String? = nil) throws -> CurlResponse {
        try curl(headers.flatMap { ["-H", $0] } + (source.map { ["--interface", $0] } ?? []) + [url])
    }

    /// `reel serve`'s access log: (client, method, path, status) per line.
    static func originLog(_ origin: ReelServeOrigin) -> [(client: String, method: String, path: String, status: Int)] {
        origin.accessLog.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ").map(String.init)
            guard fields.count >= 5, let status = Int(fields[4]) else { return nil }
            return (fields[1], fields[2], fields[3], status)
        }
    }

    static func playlist(_ segments: Int) -> Data {
        var text = "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:1\n#EXT-X-MAP:URI=\"init.mp4\"\n"
        for sequence in 1...segments { text += "#EXTINF:2.000,\n\(StreamLayout.segmentURI(sequence: sequence))\n" }
        return Data(text.utf8)
    }

    static func segmentBytes(_ sequence: Int) -> Data {
        var generator = SplitMix64(seed: UInt64(sequence))
        return Data((0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) })
    }

    /// A stream of two segments PUT to the origin directly.
    static func publish(_ origin: ReelServeOrigin, segments: Int) async throws {
        #expect(try await origin.put("/streams/cdn/init.mp4", Data("init".utf8)).status == 201)
        for sequence in 1...segments {
            #expect(try await origin.put("/streams/cdn/seg/\(String(format: "%06d", sequence)).m4s", segmentBytes(sequence)).status == 201)
        }
        #expect(try await origin.put("/streams/cdn/playlist.m3u8", playlist(segments)).status == 201)
    }

    @Test("reel serve behind the edge: the playlist kept for its max-age, then fetched anew, then revalidated (304); segments HIT after one MISS; ranges from the cache; encodings never mix; PUT refused; X-Forwarded-For believed")
    func cachesAsTheOriginSays() async throws {
        try await withReelServeOrigin(arguments: ["--trusted-proxy", "127.0.0.1"]) { origin in
            try await withNginxCDN(upstream: "http://127.0.0.1:\(origin.port)") { cdn in
                try await Self.publish(origin, segments: 2)
                let edge = cdn.baseURL.absoluteString + "streams/cdn/"
                try await Self.checkPlaylistLifetime(origin, edge: edge, cdn: cdn)
                try Self.checkSegmentsAndRanges(edge: edge)
                try Self.checkEncodings(edge: edge)

                let put = try curl(["-X", "PUT", "--data-binary", "x", "-H", "Authorization: Bearer \(origin.token)", edge + "seg/000009.m4s"])
                #expect(put.status == 405, "the edge is read-only: \(put.status)")
                #expect(!Self.originLog(origin).contains { $0.method == "PUT" && $0.path.hasSuffix("000009.m4s") }, "no PUT reached the origin")

                // A miss asked from 127.0.0.3 reaches the origin in the edge's name, and the
                // origin (--trusted-proxy 127.0.0.1) logs the player's address from X-Forwarded-For.
                #expect(try Self.get(edge + "init.mp4", source: "127.0.0.3").status == 200)
                let initGets = Self.originLog(origin).filter { $0.method == "GET" && $0.path == "/streams/cdn/init.mp4" }
                #expect(initGets.map(\.client) == ["127.0.0.3"], "origin saw \(initGets)")
            }
        }
    }

    /// v1 from the origin (MISS), v1 from the cache (HIT) though v2 was PUT, v2 once max-age
    /// passed, then a 304 revalidation when it expires unchanged.
    static func checkPlaylistLifetime(_ origin: ReelServeOrigin, edge: String, cdn: NginxCDN) async throws {
        let first = try get(edge + "playlist.m3u8")
        let fetched = ContinuousClock.now
        #expect(first.status == 200 && first.body == playlist(2) && first.headers["x-cache-status"] == "MISS", "\(first.status) \(first.headers)")
        #expect(first.headers["cache-control"] == "public, max-age=1" && first.headers["vary"] == "Accept-Encoding")
        #expect(try await origin.put("/streams/cdn/seg/000003.m4s", segmentBytes(3)).status == 201)
        #expect(try await origin.put("/streams/cdn/playlist.m3u8", playlist(3)).status == 204, "replaced")
        let second = try get(edge + "playlist.m3u8")
        let within = ContinuousClock.now - fetched
        // Inside one second of the fetch the copy is fresh whatever the second's fraction was.
        if within < .milliseconds(950) {
            #expect(second.body == playlist(2) && second.headers["x-cache-status"] == "HIT", "within \(within): \(second.headers)")
        }
        var newer: CurlResponse?
        let deadline = fetched + .seconds(edgeTTL + 0.5)
        while ContinuousClock.now < deadline {
            let answer = try get(edge + "playlist.m3u8")
            if answer.body == playlist(3) { newer = answer; break }
            try await Task.sleep(for: .milliseconds(50))
        }
        #expect(newer?.headers["x-cache-status"] == "EXPIRED", "v2 within \(edgeTTL) s of the first fetch: \(String(describing: newer?.headers))")
        // Unchanged now: once this copy expires the edge asks with If-None-Match and gets 304.
        // (Hits until then are the edge's own and reach no origin.)
        let revalidated = try await eventually("the edge's copy expired", within: edgeTTL + 10) { () -> CurlResponse? in
            guard let answer = try? get(edge + "playlist.m3u8"), answer.headers["x-cache-status"] != "HIT" else { return nil }
            return answer
        }
        #expect(revalidated.body == playlist(3) && revalidated.headers["x-cache-status"] == "REVALIDATED", "\(revalidated.headers)")
        let statuses = originLog(origin).filter { $0.method == "GET" && $0.path == "/streams/cdn/playlist.m3u8" }.map(\.status)
        #expect(statuses == [200, 200, 304], "the origin answered the edge's playlist GETs with \(statuses)")
    }

    /// Segments: MISS then HIT with the bytes and Cache-Control of the origin; a Range on a
    /// miss and on a hit gives exactly those bytes (206).
    static func checkSegmentsAndRanges(edge: String) throws {
        let bytes = segmentBytes(1)
        let miss = try get(edge + "seg/000001.m4s"), hit = try get(edge + "seg/000001.m4s")
        #expect(miss.status == 200 && miss.body == bytes && miss.headers["x-cache-status"] == "MISS", "\(miss.headers)")
        #expect(hit.status == 200 && hit.body == bytes && hit.headers["x-cache-status"] == "HIT", "\(hit.headers)")
        #expect(hit.headers["cache-control"] == "public, max-age=31536000, immutable")
        let ranged = try get(edge + "seg/000001.m4s", headers: ["Range: bytes=1000-1999"])
        #expect(ranged.status == 206 && ranged.body == bytes[1000..<2000] && ranged.headers["content-range"] == "bytes 1000-1999/200000",
                "hit: \(ranged.status) \(ranged.headers)")
        let bytes2 = segmentBytes(2)
        let rangedMiss = try get(edge + "seg/000002.m4s", headers: ["Range: bytes=-100"])
        #expect(rangedMiss.status == 206 && rangedMiss.body == bytes2.suffix(100) && rangedMiss.headers["x-cache-status"] == "MISS",
                "miss: \(rangedMiss.status) \(rangedMiss.headers)")
        let whole = try get(edge + "seg/000002.m4s")
        #expect(whole.body == bytes2 && whole.headers["x-cache-status"] == "HIT", "the ranged miss cached the whole segment: \(whole.headers)")
    }

    /// A gzip copy and an identity copy of one playlist, each served only to who can read it.
    static func checkEncodings(edge: String) throws {
        for round in 0..<2 {
            let zipped = try get(edge + "playlist.m3u8", headers: ["Accept-Encoding: gzip, deflate"])
            let plain = try get(edge + "playlist.m3u8", headers: ["Accept-Encoding: identity"])
            let refusing = try get(edge + "playlist.m3u8", headers: ["Accept-Encoding: gzip;q=0"])
            #expect(zipped.headers["content-encoding"] == "gzip" && zipped.body.prefix(2) == Data([0x1f, 0x8b]), "round \(round): \(zipped.headers)")
            for answer in [plain, refusing] {
                #expect(answer.headers["content-encoding"] == nil && answer.body == playlist(3), "round \(round): \(answer.headers)")
            }
        }
    }
}
