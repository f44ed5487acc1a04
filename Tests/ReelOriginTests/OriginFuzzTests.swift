import Foundation
import ReelCore
import ReelOrigin
import ReelTestSupport
import Testing

/// Thousands of malformed and truncated requests, mutated from real ones with a fixed seed:
/// no crash, only the answers a hostile request deserves, nothing stored outside the layout,
/// and the server still answering afterwards.
@Suite("Origin fuzzing", .serialized)
struct OriginFuzzTests {
    static func seeds(token: String) -> [[UInt8]] {
        let body = String(repeating: "m", count: 300)
        return [
            "GET /streams/desk/playlist.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n\r\n",
            "GET /streams/desk/seg/000001.m4s HTTP/1.1\r\nHost: 127.0.0.1\r\nRange: bytes=10-99\r\nIf-None-Match: \"x\"\r\n\r\n",
            "HEAD /streams/desk/init.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
            "PUT /streams/desk/seg/000002.m4s HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Type: video/iso.segment\r\nContent-Length: 300\r\n\r\n\(body)",
            "PUT /streams/fz/playlist.m3u8 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nContent-Length: 8\r\n\r\n#EXTM3U\n",
            "DELETE /streams/gone HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\n\r\n",
            "OPTIONS /streams/desk/init.mp4 HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: https://a.example\r\nAccess-Control-Request-Method: GET\r\n\r\n",
            "GET /api/streams HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n",
        ].map { Array($0.utf8) }
    }

    static let fragments: [[UInt8]] = ["../", "%2e%2e%2f", "%2f", "%00", "\0", "\r\n", "\n", " ", "/", "//", "..", "%", "\\",
                                       "Content-Length: 99999999999\r\n", "Transfer-Encoding: chunked\r\n", "Expect: 100-continue\r\n",
                                       "Range: bytes=-\r\n", "\u{FF}\u{FE}", "HTTP/9.9", "?a=%zz", ":"].map { Array($0.utf8) }

    static func mutate(_ seed: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var bytes = seed
        for _ in 0..<Int.random(in: 1...4, using: &rng) {
            let at = Int.random(in: 0...bytes.count, using: &rng)
            switch Int.random(in: 0..<7, using: &rng) {
            case 0 where !bytes.isEmpty: bytes[min(at, bytes.count - 1)] = UInt8.random(in: 0...255, using: &rng)
            case 1: bytes.insert(contentsOf: fragments.randomElement(using: &rng)!, at: at)
            case 2: bytes.removeSubrange(at..<min(bytes.count, at + Int.random(in: 1...20, using: &rng)))
            case 3: bytes = Array(bytes.prefix(at))  // truncated
            case 4: bytes.insert(contentsOf: Array(bytes[at...].prefix(40)), at: at)
            case 5: bytes.insert(contentsOf: (0..<Int.random(in: 1...30, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }, at: at)
            default: bytes += seeds(token: "x").randomElement(using: &rng)!  // pipelined second request
            }
        }
        return bytes
    }

    /// The layout's names (and the token file) are all the data folder may hold.
    static func isLayoutPath(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        if parts == ["token"] || parts == ["streams"] { return true }
        guard parts.count >= 2, parts[0] == "streams", (try? StreamLayout(streamID: parts[1])) != nil else { return false }
        if parts.count == 2 { return true }
        return OriginRoute(path: "/" + path) != nil || parts == ["streams", parts[1], "seg"]
    }

    @Test func mutatedRequestsNeverHurtTheServer() async throws {
        try await withOrigin(configure: { $0.maxAuthFailures = 1_000_000 }) { origin in
            let media = Data(repeating: 5, count: 1000)
            for path in ["/streams/desk/init.mp4", "/streams/desk/seg/000001.m4s", "/streams/desk/playlist.m3u8", "/streams/gone/init.mp4"] {
                _ = try curl(["-X", "PUT", "--data-binary", String(decoding: media, as: UTF8.self), "-H", "Authorization: Bearer \(origin.token)",
                              origin.base + path])
            }
            let outsideBefore = origin.filesOutsideData()
            var rng = SplitMix64(seed: 20261130)
            let seeds = Self.seeds(token: origin.token)
            var statuses: [Int: Int] = [:]
            var unexpected: [String] = []
            let count = 3000
            for index in 0..<count {
                let request = index < seeds.count ? seeds[index] : Self.mutate(seeds.randomElement(using: &rng)!, &rng)
                let client = try RawClient(port: origin.port, receiveTimeout: 2)
                client.send(Data(request))
                shutdown(client.fd, Int32(SHUT_WR))  // end of request: truncated ones end here
                let began = ContinuousClock.now
                let answer = client.receiveAll(limit: 1 << 16)
                if ContinuousClock.now - began > .seconds(1.5) {
                    unexpected.append("not closed after the client's end of request: \(String(decoding: request.prefix(300), as: UTF8.self).debugDescription)")
                }
                guard !answer.isEmpty else { statuses[0, default: 0] += 1; continue }
                let line = String(decoding: answer.prefix(while: { $0 != 13 }), as: UTF8.self)
                let parts = line.split(separator: " ")
                guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let status = Int(parts[1]) else {
                    unexpected.append("not HTTP: \(line.prefix(60))")
                    continue
                }
                statuses[status, default: 0] += 1
                // Success, not-modified, client errors; from libmicrohttpd also 501/505 for methods and versions it rejects.
                if !([200, 201, 204, 206, 304].contains(status) || (400..<500).contains(status) || status == 501 || status == 505) {
                    unexpected.append("\(status) for \(String(decoding: request.prefix(80), as: UTF8.self).debugDescription)")
                }
            }
            #expect(unexpected.isEmpty, "\(unexpected.prefix(10))")
            #expect(statuses.keys.contains { (400..<500).contains($0) } && statuses[200, default: 0] > 0, "\(statuses)")
            #expect(origin.filesOutsideData() == outsideBefore, "nothing new outside the data folder")
            let enumerator = FileManager.default.enumerator(atPath: origin.data.path)
            var stray: [String] = []
            while let path = enumerator?.nextObject() as? String {
                if !Self.isLayoutPath(path) { stray.append(path) }
            }
            #expect(stray.isEmpty, "only layout names in the data folder: \(stray.prefix(10))")
            #expect(origin.temporaryFiles().isEmpty)
            #expect(try curl([origin.base + "/health"]).status == 200, "still answering")
            #expect(try curl([origin.base + "/streams/desk/init.mp4"]).body == media, "stored files intact")
        }
    }
}
