import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// The acceptance test for a CDN in front (docs/cdn.md): a live stream published by the real
/// `reel live` to `reel serve`, 200 players polling its playlist through the nginx edge
/// (`scripts/hls-pollers.py`: one asyncio process), and an S3 bucket behind the same edge.
@Suite("CDN edge under 200 players, and in front of S3", .serialized)
struct CDNLoadTests {
    /// What `scripts/hls-pollers.py` prints.
    struct PollSummary: Decodable {
        var players: Int
        var answers: Int
        var errors: Int
        var firstErrors: [String]
        var seconds: Double
        var worstStaleSeconds: Double
        var newestSegment: Int?
        var referenceAnswers: Int
        var segmentsBracketed: Int
        var cacheStatuses: [String: Int]
        var originPlaylistGets: Int
        var originGetsPerSecond: Double
    }

    static let players = 200
    static let pollSeconds = 20.0
    /// The longest a player's answer may lag the origin: the edge's TTL for a `max-age=1`
    /// playlist (``CDNEdgeTests/edgeTTL``, whole seconds in nginx) plus 0.5 s for what the
    /// measurement itself adds — the reference polls the origin every 50 ms, so a segment's
    /// appearance is known only to within that period and a round trip, and one refresh fetch
    /// (during which the others get the old copy) — on a 2-core machine that also encodes the stream.
    static let staleBound = CDNEdgeTests.edgeTTL + 0.5

    static func runPollers(edge: URL, origin: ReelServeOrigin, streamID: String) async throws -> PollSummary {
        let path = "streams/\(streamID)/playlist.m3u8"
        let script = NginxCDN.packageScript("hls-pollers.py")
        let pollers = try BackgroundProcess("/usr/bin/python3", [
            script, "--url", edge.absoluteString + path, "--players", String(players), "--interval", "1", "--seconds", String(pollSeconds),
            "--reference", origin.baseURL.absoluteString + path, "--reference-source", "127.0.0.2", "--origin-log", origin.accessLogFile.path])
        let result = await pollers.wait(timeout: Duration.seconds(pollSeconds + 30))
        #expect(!result.timedOut && result.status == 0, "hls-pollers.py: \(result.stderr)")
        do {
            return try JSONDecoder().decode(PollSummary.self, from: Data(result.stdout.utf8))
        } catch {
            Issue.record("hls-pollers.py printed no summary: \(result.stdout) \(result.stderr)")
            throw error
        }
    }

    /// Long tier (a load run of 30 s): the default tier checks the edge's caching rules with a
    /// few requests (`CDNEdgeTests`, `CDNLowLatencyTests`).
    @Test("200 players poll a live playlist every second through the edge: the origin sees about one playlist GET a second, no player's playlist lags the origin by more than the edge's TTL (long tier)",
          .longTier)
    func twoHundredPlayersLongTier() async throws {
        try await withReelServeOrigin(arguments: ["--trusted-proxy", "127.0.0.1"]) { origin in
            try await withNginxCDN(upstream: "http://127.0.0.1:\(origin.port)") { cdn in
                let dir = try TemporaryDirectory()
                defer { dir.cleanup() }
                let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:640x360@30", "--quality", "low", "--no-archive"]
                    + origin.liveArguments + ["--stream-id", "crowd", "--duration", "30", "--quiet"],
                    environment: ["XDG_STATE_HOME": dir.path("state")])
                // Players come once the stream has a segment (as a viewer would find it).
                let deadline = ContinuousClock.now + .seconds(20)
                while ContinuousClock.now < deadline, try await origin.get("streams/crowd/playlist.m3u8").status != 200 {
                    try await Task.sleep(for: .milliseconds(100))
                }
                let summary = try await Self.runPollers(edge: cdn.baseURL, origin: origin, streamID: "crowd")
                let result = await reel.wait(timeout: .seconds(60))
                #expect(result.status == 0 && !result.timedOut, "reel live: \(result.stderr)")
                check(summary)
            }
        }
    }

    static let expectedAnswers = Int(Double(players) * pollSeconds * 0.9)

    func check(_ summary: PollSummary) {
        let report = "summary: \(summary)"
        #expect(summary.errors == 0, "wrong answers: \(summary.firstErrors)")
        #expect(summary.answers >= Self.expectedAnswers, "each player polled about once a second: \(summary.answers) answers. \(report)")
        // One fetch per TTL at most for each of the two copies (gzip, identity: half the players
        // accept gzip): a copy lives ≥ 1 s, and the cache lock and `updating` let exactly one
        // request refresh it. +1 each: the first miss.
        #expect(Double(summary.originPlaylistGets) <= 2 * (summary.seconds + 1),
                "\(summary.originPlaylistGets) playlist GETs reached the origin in \(summary.seconds) s (players made \(summary.answers)). \(report)")
        #expect(summary.originPlaylistGets >= Int(summary.seconds / (CDNEdgeTests.edgeTTL + 1)), "the edge did refresh the playlist. \(report)")
        print("hls-pollers.py through the edge: \(summary.answers) answers in \(summary.seconds) s, \(summary.originPlaylistGets) playlist GETs "
              + "at the origin (\(summary.originGetsPerSecond)/s), worst lag behind the origin \(summary.worstStaleSeconds) s, cache \(summary.cacheStatuses)")
        #expect(summary.worstStaleSeconds <= Self.staleBound, "a player got a playlist \(summary.worstStaleSeconds) s behind the origin. \(report)")
        // The measurement measured: the stream grew during the polls, and most segments' appearance was bracketed.
        #expect(summary.segmentsBracketed >= Int(Self.pollSeconds / 2) - 2, "\(report)")
        #expect((summary.cacheStatuses["HIT"] ?? 0) + (summary.cacheStatuses["UPDATING"] ?? 0) >= summary.answers * 9 / 10, "\(report)")
    }

    @Test("the edge in front of S3: the playlist and a segment served with the objects' Cache-Control, a MISS then HITs, a Range from the cache")
    func inFrontOfS3() async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let live = try ReelBinary.run(["live", "--source", "test:640x360@30", "--quality", "low", "--no-archive"] + server.liveArguments
                + ["--stream-id", "s3cdn", "--duration", "4", "--quiet"],
                environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            #expect(live.status == 0, "reel live to moto: \(live.stderr)")
            try await withNginxCDN(upstream: "\(server.endpoint)/\(server.bucket)/\(server.prefix)") { cdn in
                let edge = cdn.baseURL.absoluteString + "streams/s3cdn/"
                let direct = try await server.get("streams/s3cdn/playlist.m3u8")
                let first = try curl([edge + "playlist.m3u8"]), second = try curl([edge + "playlist.m3u8"])
                #expect(first.status == 200 && first.body == direct.body && first.headers["x-cache-status"] == "MISS", "\(first.status) \(first.headers)")
                #expect(second.body == direct.body && second.headers["x-cache-status"] == "HIT", "\(second.headers)")
                #expect(first.headers["cache-control"] == OriginFile.playlist.cacheControl, "\(first.headers)")

                let segment = try await server.get("streams/s3cdn/seg/000001.m4s")
                #expect(segment.status == 200 && segment.body.count > 1000)
                let miss = try curl([edge + "seg/000001.m4s"]), hit = try curl([edge + "seg/000001.m4s"])
                #expect(miss.body == segment.body && miss.headers["x-cache-status"] == "MISS", "\(miss.headers)")
                #expect(hit.body == segment.body && hit.headers["x-cache-status"] == "HIT", "\(hit.headers)")
                #expect(hit.headers["cache-control"] == OriginFile.segment(sequence: 1).cacheControl, "\(hit.headers)")
                let ranged = try curl(["-H", "Range: bytes=10-109", edge + "seg/000001.m4s"])
                #expect(ranged.status == 206 && ranged.body == segment.body[10..<110] && ranged.headers["x-cache-status"] == "HIT", "\(ranged.headers)")
                let put = try curl(["-X", "PUT", "--data-binary", "x", edge + "seg/000001.m4s"])
                #expect(put.status == 405)
            }
        }
    }
}
