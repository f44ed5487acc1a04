import Foundation
import ReelTestSupport
import Testing

/// The throttling proxy the ABR tests play through (``ThrottleProxy``,
/// `Tests/Fixtures/throttle-proxy/throttle_proxy.py`), in front of `reel serve`: what it
/// forwards, and that it never lets answers through faster than the rate set. Only lower
/// bounds on time are checked (pacing guarantees them); how much slower a loaded machine is
/// does not matter.
@Suite("The throttling proxy of the ABR tests", .serialized)
struct ThrottleProxyTests {
    @Test("forwards PUT bodies, query strings and Range to reel serve, paces answers on one shared link at the rate set while it runs")
    func forwardsAndPaces() async throws {
        try await withReelServeOrigin { origin in
            let proxy = try await ThrottleProxy(upstreamPort: origin.port)
            defer { proxy.stop() }
            let client = TestHTTPClient(timeout: 30)
            let base = proxy.baseURL
            func url(_ path: String) -> URL { URL(string: path, relativeTo: base)!.absoluteURL }
            let segment = url("streams/p/seg/000001.m4s")
            let body = Data((0..<60_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })

            let put = try await client.send("PUT", url("streams/p/seg/000001.m4s"), body: body,
                                            headers: ["Authorization": "Bearer \(origin.token)"])
            #expect(put.status == 201)
            let ranged = try await client.send("GET", url("streams/p/seg/000001.m4s?a=1&b=2"), headers: ["Range": "bytes=1000-1999"])
            #expect(ranged.status == 206 && ranged.body == body[1000..<2000], "\(ranged.status) \(ranged.headers)")
            #expect(ranged.headers["content-range"] == "bytes 1000-1999/60000", "\(ranged.headers)")
            #expect(ranged.headers["access-control-allow-origin"] == "*", "the origin's headers come through: \(ranged.headers)")
            #expect(await proxy.log().contains("GET /streams/p/seg/000001.m4s?a=1&b=2 206"))

            // 60 000 bytes at 240 kbps: 2 s at the least.
            try await proxy.setRate(bitsPerSecond: 240_000)
            var start = ContinuousClock.now
            let slow = try await client.send("GET", url("streams/p/seg/000001.m4s"))
            #expect(slow.status == 200 && slow.body == body)
            #expect(ContinuousClock.now - start >= .seconds(2), "took \(ContinuousClock.now - start)")

            // Two at once share the link: 120 000 bytes at 480 kbps, 2 s at the least.
            try await proxy.setRate(bitsPerSecond: 480_000)
            start = ContinuousClock.now
            async let first = client.send("GET", segment)
            async let second = client.send("GET", segment)
            let both = try await [first, second]
            #expect(both.allSatisfy { $0.status == 200 && $0.body == body })
            #expect(ContinuousClock.now - start >= .seconds(2), "took \(ContinuousClock.now - start)")

            // Unthrottled again, and a rate that is no number is refused.
            try await proxy.setRate(bitsPerSecond: 0)
            #expect(try await client.send("GET", url("streams/p/seg/000001.m4s")).body == body)
            let refused = try await client.send("POST", url("__rate?bps=fast"))
            #expect(refused.status == 400)
        }
    }
}
