import Foundation
import ReelCore
@testable import ReelOrigin
import ReelTestSupport
import Testing

/// LL-HLS at the origin: a playlist asked for with `_HLS_msn`/`_HLS_part` waits until the
/// stored playlist holds it (400 when too far ahead, 503 when it never comes), the hinted part
/// waits until it is stored, `_HLS_skip` gets a delta update, and waiting requests hold no
/// thread: the server answers others meanwhile and stops at once.
@Suite("Origin blocking reload", .serialized)
struct OriginBlockingReloadTests {
    /// An LL-HLS playlist with 1 s segments: `segments` complete ones, then `parts` parts of
    /// the next and the hint of the part after.
    static func playlist(segments: Int, parts: Int) -> Data {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:9", "#EXT-X-TARGETDURATION:1",
                     "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,PART-HOLD-BACK=0.750,CAN-SKIP-UNTIL=6.0",
                     "#EXT-X-PART-INF:PART-TARGET=0.250", "#EXT-X-MEDIA-SEQUENCE:1", "#EXT-X-MAP:URI=\"init.mp4\""]
        for sequence in 1...segments {
            for part in 0..<4 { lines.append("#EXT-X-PART:DURATION=0.250,URI=\"\(StreamLayout.partURI(sequence: sequence, index: part))\"") }
            lines += ["#EXTINF:1.000,", StreamLayout.segmentURI(sequence: sequence)]
        }
        for part in 0..<parts { lines.append("#EXT-X-PART:DURATION=0.250,URI=\"\(StreamLayout.partURI(sequence: segments + 1, index: part))\"") }
        lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(StreamLayout.partURI(sequence: segments + 1, index: parts))\"")
        return Data((lines.joined(separator: "\n") + "\n").utf8)
    }

    static func put(_ origin: TestOrigin, _ path: String, _ body: Data) throws -> Int {
        try OriginServerTests.put(origin, path, body, token: origin.token).status
    }

    /// A GET started now in the background; its answer and when it came.
    static func getLater(_ url: String) -> Task<(CurlResponse, Duration), Error> {
        Task {
            try await onItsOwnThread {
                let started = ContinuousClock.now
                let answer = try curl([url])
                return (answer, ContinuousClock.now - started)
            }
        }
    }

    @Test func aPlaylistRequestWaitsForItsPart() async throws {
        try await withOrigin { origin in
            let playlist = origin.base + "/streams/live/playlist.m3u8"
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 3, parts: 2)) == 201)
            #expect(try curl([playlist + "?_HLS_msn=3"]).status == 200, "there: at once")
            #expect(try curl([playlist + "?_HLS_msn=4&_HLS_part=1"]).status == 200, "part 1 of 4 is there")
            let tooFar = try curl([playlist + "?_HLS_msn=6"])
            #expect(tooFar.status == 400 && tooFar.text.contains("more than two"), "\(tooFar.text)")
            #expect(try curl([playlist + "?_HLS_part=1"]).status == 400, "_HLS_part alone")
            let waiting = Self.getLater(playlist + "?_HLS_msn=4&_HLS_part=2")
            try await eventually("the request held") { origin.server.http.heldRequests == 1 ? true : nil }
            // Held for a while is the scenario: the part comes 300 ms later.
            try await Task.sleep(for: .milliseconds(300))
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 3, parts: 3)) == 204)
            let (answer, took) = try await waiting.value
            #expect(answer.status == 200)
            #expect(answer.text.contains(StreamLayout.partURI(sequence: 4, index: 2)), "the playlist that holds the part")
            #expect(took >= .milliseconds(300) && took < .seconds(2), "answered when the part came (\(took))")
            #expect(origin.server.http.heldRequests == 0)
            let never = try curl([playlist + "?_HLS_msn=5"])
            #expect(never.status == 503 && never.headers["retry-after"] == "1", "after three target durations: \(never.text)")
        }
    }

    @Test func theHintedPartWaitsUntilItIsStored() async throws {
        try await withOrigin { origin in
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 3, parts: 2)) == 201)
            let part = "/streams/live/" + StreamLayout.partURI(sequence: 4, index: 2)
            let waiting = Self.getLater(origin.base + part)
            try await eventually("the part request held") { origin.server.http.heldRequests == 1 ? true : nil }
            let bytes = Data("part four two".utf8)
            #expect(try Self.put(origin, part, bytes) == 201)
            let (answer, took) = try await waiting.value
            #expect(answer.status == 200 && answer.body == bytes)
            #expect(took < .seconds(2))
            // Stored before the playlist hints at the next one: served at once, again and again,
            // each GET opening the file once (no descriptor left behind).
            let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count
            for _ in 0..<20 { #expect(try curl([origin.base + part]).status == 200) }
            #expect(try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd").count <= descriptors + 2)
            let notHinted = try curl([origin.base + "/streams/live/" + StreamLayout.partURI(sequence: 4, index: 3)])
            #expect(notHinted.status == 404, "only the hinted part waits")
        }
    }

    @Test func aSkipRequestGetsTheDeltaUpdate() async throws {
        try await withOrigin { origin in
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 20, parts: 1)) == 201)
            let url = origin.base + "/streams/live/playlist.m3u8"
            let delta = try curl([url + "?_HLS_skip=YES"])
            #expect(delta.status == 200 && delta.text.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS=13"), "\(delta.text)")
            #expect(delta.headers["etag"] != (try curl([url]).headers["etag"]), "its own tag")
            #expect(try curl([url + "?_HLS_skip=YES"]).text == delta.text, "the kept answer")
            #expect(!(try curl([url]).text.contains("EXT-X-SKIP")), "the playlist itself is whole")
        }
    }

    @Test func heldRequestsHoldNoThread() async throws {
        try await withOrigin(configure: { $0.maxConnectionsPerAddress = 0 }) { origin in
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 3, parts: 0)) == 201)
            /// `count` raw connections, each asking for segment `msn`.
            func ask(_ count: Int, msn: Int) throws -> [RawClient] {
                try (0..<count).map { _ in
                    let client = try RawClient(port: origin.port)
                    client.send("GET /streams/live/playlist.m3u8?_HLS_msn=\(msn) HTTP/1.1\r\nHost: x\r\n\r\n")
                    return client
                }
            }
            var clients = try ask(300, msn: 4)
            try await eventually("300 requests held") { origin.server.http.heldRequests == 300 ? true : nil }
            let started = ContinuousClock.now
            #expect(try curl([origin.base + "/health"]).status == 200)
            #expect(ContinuousClock.now - started < .seconds(1), "4 threads, 300 held requests: others are answered")
            #expect(try Self.put(origin, "/streams/live/playlist.m3u8", Self.playlist(segments: 4, parts: 0)) == 204)
            for client in clients { #expect(client.receiveStatus() == 200) }
            clients += try ask(50, msn: 5)
            try await eventually("50 requests held") { origin.server.http.heldRequests == 50 ? true : nil }
            let stopping = ContinuousClock.now
            origin.server.stop()
            #expect(ContinuousClock.now - stopping < .seconds(3), "held requests do not keep the server from stopping")
        }
    }
}
