import Foundation
import ReelOrigin
import ReelTestSupport
import Testing

/// hls.js acceptance: what `reel live` publishes to `reel serve` plays in a real
/// browser with the player most web pages use. Headless chromium runs hls.js 1.6.15
/// (``HLSJSPage``; `make setup` fetches it) on a regular HLS stream of the test source, and the
/// page reads the capture time drawn into every picture it shows, so the test also sees that
/// the pictures are live ones. Timing is only checked for sanity here: how low the latency
/// is belongs to bench/glass-to-glass.sh.
@Suite("hls.js playback in chromium", .serialized)
struct HLSJSPlaybackTests {
    /// Seconds `reel live` publishes.
    static let liveSeconds = 20

    /// Long tier: the viewer page plays regular HLS in chromium in the default tier
    /// (`ViewerBrowserTests`), and hls.js plays LL-HLS and a ladder below.
    @Test("hls.js plays reel live's regular HLS from reel serve: many live pictures, no fatal error, sane ages (long tier)",
          .longTier)
    func regularHLSPlaysInHLSJSLongTier() async throws {
        let summary = try await Self.play(lowLatency: false)
        Self.check(summary)
    }

    /// LL-HLS: hls.js in lowLatencyMode plays `reel live --low-latency`, reloading the playlist
    /// with blocking requests (`_HLS_msn`/`_HLS_part`) that `reel serve` holds, and reports its
    /// latency. How low it is belongs to bench/glass-to-glass.sh; here it must be measured,
    /// and below hls.js's reading of a regular stream's start (three segments back).
    @Test("hls.js in lowLatencyMode plays reel live --low-latency with blocking reloads and reports its latency")
    func lowLatencyHLSPlaysInHLSJS() async throws {
        let summary = try await Self.play(lowLatency: true)
        Self.check(summary)
        let loads = summary["playlistLoads"]?.number ?? 0, blocking = summary["playlistLoadsWithDirectives"]?.number ?? 0
        #expect(blocking >= 20 && blocking >= loads * 0.8, "playlist loads with _HLS_ directives: \(summary)")
        let reported = summary["hlsLatencyP50"]?.number ?? .infinity
        #expect(reported > 0 && reported < 6, "hls.js's latency in s, below the 6 s a regular start costs: \(summary)")
    }

    /// An ABR ladder (`streams/{id}/playlist.m3u8` multivariant, each rung's files in
    /// `streams/{id}/{rung}/`) plays in hls.js straight from the origin: hls.js reads the
    /// multivariant playlist, picks a rung and fetches that rung's playlist, init and segments.
    /// The rungs are copies of one stream `reel live` wrote to a folder (the media is real; two
    /// bit rates are not what is tested here).
    /// The default tier holds its rules: `lowLatencyHLSPlaysInHLSJS()` (hls.js against the origin) and `LiveLadderTests` (the ladder's playlists, played by ffmpeg).
    @Test("hls.js plays an ABR ladder from the origin: the multivariant playlist, then a rung's files (long tier: make test-long)", .longTier)
    func aLadderPlaysInHLSJSLongTier() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let live = try BackgroundProcess(ReelBinary.path(), [
            "live", "--source", "test:640x360@30", "--landscape", "--quality", "low", "--output", folder.path("out"),
            "--stream-id", "g2g", "--no-archive", "--duration", "8", "--quiet"], environment: ["XDG_STATE_HOME": folder.path("state")])
        let published = await live.wait(timeout: .seconds(60))
        #expect(published.status == 0, "reel live: \(published.stderr)")
        let stream = URL(fileURLWithPath: folder.path("out")).appendingPathComponent("streams/g2g")
        let segments = try FileManager.default.contentsOfDirectory(atPath: stream.appendingPathComponent("seg").path).filter { $0.hasSuffix(".m4s") }
        #expect(segments.count >= 3, "reel live wrote \(segments)")
        let multivariant = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=1200000,RESOLUTION=640x360
            high/playlist.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=600000,RESOLUTION=640x360
            low/playlist.m3u8

            """
        let page = try await HLSJSPage()
        defer { page.stop() }
        try await withOrigin { origin in
            for rung in ["low", "high"] {
                for name in ["init.mp4"] + segments.map({ "seg/" + $0 }) + ["playlist.m3u8"] {
                    let body = try Data(contentsOf: stream.appendingPathComponent(name))
                    #expect(try OriginServerTests.put(origin, "/streams/g2g/\(rung)/\(name)", body, token: origin.token).status == 201)
                }
            }
            #expect(try OriginServerTests.put(origin, "/streams/g2g/playlist.m3u8", Data(multivariant.utf8), token: origin.token).status == 201)
            let summary = try await withWebDriver(extraArguments: ["--autoplay-policy=no-user-gesture-required"]) { browser in
                try await browser.navigate(to: page.url(playlist: origin.base + "/streams/g2g/playlist.m3u8", lowLatency: false))
                try await browser.waitUntil(script: "return window.reelG2G && (window.reelG2G.frames >= 30 || window.reelG2G.phase === 'failed')",
                                            timeout: .seconds(30))
                return try await HLSJSPage.summary(browser)
            }
            #expect(summary["phase"]?.string == "playing" && summary["fatalErrors"]?.array?.isEmpty == true, "page: \(summary)")
            #expect((summary["frames"]?.number ?? 0) >= 30, "distinct pictures shown: \(summary)")
            let log = try String(contentsOf: origin.accessLog, encoding: .utf8)
            #expect(log.contains("/streams/g2g/playlist.m3u8") && log.contains("/init.mp4"), "\(log)")
            #expect(["low", "high"].contains { log.contains("/streams/g2g/\($0)/seg/") }, "a rung's segments were read: \(log)")
        }
    }

    /// Publishes the test source to `reel serve` for ``liveSeconds`` and plays it in hls.js
    /// until it ended; returns the page's summary.
    static func play(lowLatency: Bool) async throws -> WebDriver.JSON {
        let page = try await HLSJSPage()
        defer { page.stop() }
        return try await withReelServeOrigin { origin in
            let live = try BackgroundProcess(ReelBinary.path(), [
                "live", "--source", "test:640x360@30", "--landscape", "--quality", "low", "--origin", origin.baseURL.absoluteString,
                "--token", origin.token, "--stream-id", "g2g", "--no-archive", "--duration", String(Self.liveSeconds), "--quiet",
            ] + (lowLatency ? ["--low-latency"] : []))
            let playlist = origin.baseURL.absoluteString + "streams/g2g/playlist.m3u8"
            try await Self.waitForPlaylist(origin, live: live)
            let summary = try await withWebDriver(extraArguments: ["--autoplay-policy=no-user-gesture-required"]) { browser in
                try await browser.navigate(to: page.url(playlist: playlist, lowLatency: lowLatency))
                try await browser.waitUntil(script: "return window.reelG2G && (window.reelG2G.frames >= 30 || window.reelG2G.phase === 'failed')",
                                            timeout: .seconds(30))
                // Play on until the stream has ended and the page has shown the pictures checked
                // below (or the video reached its end, or the page failed).
                _ = await live.wait(timeout: .seconds(Self.liveSeconds + 30))
                try await browser.waitUntil(script: """
                    return window.reelG2G.frames >= 300 || window.reelG2G.phase === 'failed' || document.getElementById('video').ended
                    """, timeout: .seconds(30))
                return try await HLSJSPage.summary(browser)
            }
            let ended = await live.wait(timeout: .seconds(5))
            #expect(ended.status == 0 && !ended.timedOut, "reel live: \(ended.stderr)")
            return summary
        }
    }

    /// What the page measured: it played, pictures kept coming, and each one's age is positive
    /// and below a minute.
    static func check(_ summary: WebDriver.JSON) {
        #expect(summary["phase"]?.string == "playing", "page: \(summary)")
        #expect(summary["hlsVersion"]?.string == "1.6.15", "\(summary)")
        #expect(summary["fatalErrors"]?.array?.isEmpty == true, "hls.js fatal errors: \(summary)")
        // About 10 s of 30 fps pictures at the least (it plays ~15 s of the 20 s stream).
        #expect((summary["frames"]?.number ?? 0) >= 300, "distinct pictures shown: \(summary)")
        #expect(summary["implausible"]?.number == 0, "pictures whose capture time read as nonsense: \(summary)")
        #expect(summary["unreadable"]?.number == 0, "\(summary)")
        let minimum = summary["min"]?.number ?? -1, p50 = summary["p50"]?.number ?? -1, maximum = summary["max"]?.number ?? .infinity
        #expect(minimum > 0, "a picture shown before it was captured: \(summary)")
        #expect(p50 > 0 && maximum < 60_000, "glass-to-glass ages in ms: \(summary)")
    }

    /// Waits until `reel live` has published the playlist (it probes the origin first).
    static func waitForPlaylist(_ origin: ReelServeOrigin, live: BackgroundProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if try await origin.get("streams/g2g/playlist.m3u8").status == 200 { return }
            guard live.isRunning else { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let output = await live.wait(timeout: .seconds(1))
        throw NoPlaylist(description: "no playlist on the origin; reel live said: \(output.stderr)")
    }

    struct NoPlaylist: Error, CustomStringConvertible { var description: String }
}
