import Foundation
#if canImport(Glibc)
import Glibc
#endif
import ReelTestSupport
import Testing

/// The ABR acceptance test: hls.js switches rungs when the connection gets slow, and the
/// stream keeps playing.
///
/// `reel live --ladder` publishes two rungs far apart in bit rate to `reel serve`; chromium
/// plays the multivariant playlist with hls.js 1.6.15 (``HLSJSPage``) through a throttling
/// proxy (``ThrottleProxy``: one paced link shared by every request). Phase 1, unthrottled:
/// hls.js plays the top rung. Phase 2, the link is throttled to the geometric mean of the two
/// rungs' BANDWIDTH (the bottom rung loads in well under real time, the top one cannot keep
/// up): hls.js switches down to the bottom rung within a bounded time, and video.currentTime
/// keeps advancing with no fatal error. Phase 3, unthrottled again: hls.js climbs back.
///
/// Every wait polls the page's summary against a deadline (a guard against a hang, never a
/// schedule); the deadlines are generous, the checks are not. Playback may freeze for a moment
/// around a switch (the next fragment of the new rung is on its way): a freeze of up to
/// ``acceptableFreeze`` is accepted; a longer one, a fatal error, or currentTime not moving
/// fails the test.
@Suite("hls.js switches ABR rungs through a throttled link", .serialized)
struct HLSJSLadderSwitchingTests {
    /// Far apart: the test pattern compresses well, so x264 undershoots the top rung's 1.5 Mbps
    /// by a lot (about 0.45 Mbps measured), and the bottom one (100k, the least `--ladder`
    /// takes) carries 64 kbps of AAC besides (about 0.18 Mbps measured). The test reads the
    /// BANDWIDTH hls.js got and requires a factor of 2 at the least.
    static let ladder = "640x360@1.5M,320x180@100k"
    static let (topHeight, bottomHeight) = (360, 180)
    /// The longest freeze of video.currentTime accepted while throttled or switching.
    static let acceptableFreeze = 4000.0
    /// Segments (of 2 s) each rung has before the page starts playing.
    static let segmentsBeforeStart = 5
    /// hls.js settings a real page may use: hls.js's defaults but for the half-lives of its
    /// bandwidth estimate on live streams (`abrEwmaFastLive` 1 s instead of 3, `abrEwmaSlowLive`
    /// 3 s instead of 9), as pages for viewers on changing links tune them. Why:
    ///
    /// - The estimate is an EWMA of fragment loads weighted by load time, each sample counted
    ///   as at least 50 ms, so on unthrottled loopback one ~100 KB fragment reads as ~16 Mbps.
    ///   With the default half-lives the estimate needs several slow fragment loads to come
    ///   down below the top rung: measured here, 11-12 s of 1.6x-slower-than-real-time loads
    ///   before the down switch was decided and a 1.2 s freeze, the buffer gone meanwhile.
    ///   With these, two slow loads (~8 s, the switch on show at ~10 s) and no real freeze.
    /// - hls.js's emergency switch (abandoning a fragment that loads too slowly) only looks at
    ///   rungs above the lowest one, so with a two-rung ladder it never fires: the estimate
    ///   alone decides.
    ///
    /// Start level, bandwidth factors and buffer lengths are hls.js's defaults.
    static let hlsConfig = #"{"abrEwmaFastLive":1,"abrEwmaSlowLive":3}"#

    /// Long tier (about 50 s of real time): the ladder's own rules and files are in the default
    /// tier (`LiveLadderTests`, `HLSJSPlaybackTests` plays a ladder); this is hls.js's reaction.
    @Test("hls.js plays the top rung, switches down when the link is throttled below it and keeps playing, and climbs back (long tier)",
          .longTier)
    func hlsJSSwitchesRungsWhenThrottledLongTier() async throws {
        let began = ContinuousClock.now
        let page = try await HLSJSPage()
        defer { page.stop() }
        try await withReelServeOrigin { origin in
            let live = try BackgroundProcess(ReelBinary.path(), [
                "live", "--source", "test:640x360@30", "--landscape", "--ladder", Self.ladder,
                "--origin", origin.baseURL.absoluteString, "--token", origin.token, "--stream-id", "abr", "--no-archive",
                "--duration", "150", "--quiet"])
            defer { if live.isRunning { live.send(SIGKILL) } }
            try await Self.waitForLadder(origin, live: live)
            let proxy = try await ThrottleProxy(upstreamPort: origin.port)
            defer { proxy.stop() }
            let playlist = proxy.baseURL.absoluteString + "streams/abr/playlist.m3u8"

            try await withWebDriver(extraArguments: ["--autoplay-policy=no-user-gesture-required"]) { browser in
                try await browser.navigate(to: page.url(playlist: playlist, lowLatency: false, config: Self.hlsConfig))
                let poll = Poller(browser: browser, proxy: proxy)

                // Phase 1, unthrottled: the top rung on show for 4 s (two fragments).
                let playing = try await poll.until("hls.js plays the top rung", timeout: .seconds(45)) { s in
                    guard let current = s.currentHeight, current == Self.topHeight,
                          let last = s.switches.last, last.height == Self.topHeight else { return false }
                    return s.pageMs - last.at >= 4000 && s.frames >= 60
                }
                let top = try #require(playing.levels.first { $0.height == Self.topHeight }?.bitrate, "\(playing.raw)")
                let bottom = try #require(playing.levels.first { $0.height == Self.bottomHeight }?.bitrate, "\(playing.raw)")
                #expect(playing.levels.count == 2, "hls.js's levels: \(playing.raw)")
                try #require(top >= 2 * bottom, "the rungs must differ by 2x at least for an unambiguous switch: BANDWIDTH \(top) and \(bottom)")
                let throttle = Int((top * bottom).squareRoot())
                print("abr: levels BANDWIDTH top \(Int(top)) bottom \(Int(bottom)); throttle \(throttle) bps; top rung after \(Int(playing.pageMs)) ms")

                // Phase 2, throttled between the rungs: down to the bottom rung, still playing.
                let throttledAt = try await poll.summary().pageMs
                try await proxy.setRate(bitsPerSecond: throttle)
                let down = try await poll.until("hls.js switches down to the bottom rung", timeout: .seconds(45)) { s in
                    s.currentHeight == Self.bottomHeight && s.switches.contains { $0.at >= throttledAt && $0.height == Self.bottomHeight }
                }
                let downAt = try #require(down.switches.first { $0.at >= throttledAt && $0.height == Self.bottomHeight }).at
                print("abr: down switch \(Int(downAt - throttledAt)) ms after throttling to \(throttle) bps")
                #expect(downAt - throttledAt < 30_000, "switched down \(downAt - throttledAt) ms after throttling: \(down.raw)")
                let playingOn = try await poll.until("currentTime advances 6 s on the bottom rung", timeout: .seconds(30)) { s in
                    s.currentTime >= down.currentTime + 6
                }
                let throttled = try await poll.summary(sinceMs: throttledAt)
                let proxyLog = await proxy.log()
                #expect(throttled.fatalErrors == 0, "fatal errors: \(throttled.raw)")
                #expect(throttled.longestFreezeMs <= Self.acceptableFreeze,
                        "currentTime froze \(throttled.longestFreezeMs) ms while throttled: \(throttled.raw)\n\(proxyLog)")
                #expect(!playingOn.switches.contains { $0.at > downAt && $0.height == Self.topHeight },
                        "back to the top rung on a link that cannot carry it: \(playingOn.raw)")
                print("abr: throttled: longest freeze \(Int(throttled.longestFreezeMs)) ms, currentTime \(down.currentTime) → \(playingOn.currentTime)")

                // Phase 3, unthrottled again: back up to the top rung, still playing.
                let freedAt = try await poll.summary().pageMs
                try await proxy.setRate(bitsPerSecond: 0)
                let up = try await poll.until("hls.js climbs back to the top rung", timeout: .seconds(45)) { s in
                    s.currentHeight == Self.topHeight && s.switches.contains { $0.at >= freedAt && $0.height == Self.topHeight }
                }
                let upAt = try #require(up.switches.first { $0.at >= freedAt && $0.height == Self.topHeight }).at
                print("abr: up switch \(Int(upAt - freedAt)) ms after unthrottling")
                let after = try await poll.until("currentTime advances 2 s on the top rung", timeout: .seconds(20)) { s in
                    s.currentTime >= up.currentTime + 2
                }
                let freed = try await poll.summary(sinceMs: freedAt)
                #expect(after.phase == "playing" && freed.fatalErrors == 0, "\(freed.raw)")
                #expect(freed.longestFreezeMs <= Self.acceptableFreeze, "currentTime froze \(freed.longestFreezeMs) ms after unthrottling: \(freed.raw)")
                #expect(after.implausible == 0, "pictures whose capture time read as nonsense: \(after.raw)")
                print("abr: switches \(after.switches.map { "\($0.height)p@\(Int($0.at))ms" }.joined(separator: " ")); longest freeze after unthrottling \(Int(freed.longestFreezeMs)) ms")
            }
            live.send(SIGINT)
            let ended = await live.wait(timeout: .seconds(30))
            #expect(ended.status == 0 && !ended.timedOut, "reel live: \(ended.stderr)")
        }
        print("abr: test took \(ContinuousClock.now - began)")
    }

    /// Waits until `reel live` has published the multivariant playlist naming both rungs, and
    /// ``segmentsBeforeStart`` segments in each rung: the viewer joins a stream that is already
    /// running, so hls.js starts its usual three segments behind the live edge with that much
    /// buffer to come. (Joining at the first segment, hls.js plays at the live edge with under
    /// one segment of buffer, and any slower fragment freezes the picture, ABR or not.)
    static func waitForLadder(_ origin: ReelServeOrigin, live: BackgroundProcess) async throws {
        let deadline = ContinuousClock.now + .seconds(60)
        var seen = "nothing"
        while ContinuousClock.now < deadline {
            let answer = try await origin.get("streams/abr/playlist.m3u8")
            let multivariant = String(decoding: answer.body, as: UTF8.self)
            let rungs = multivariant.split(separator: "\n").filter { !$0.hasPrefix("#") && $0.hasSuffix(".m3u8") }
            if answer.status == 200 && rungs.count == 2 {
                var counts: [Int] = []
                for rung in rungs {
                    let playlist = try await origin.get("streams/abr/" + rung)
                    counts.append(String(decoding: playlist.body, as: UTF8.self).components(separatedBy: "#EXTINF:").count - 1)
                }
                seen = "\(rungs) with \(counts) segments"
                if counts.allSatisfy({ $0 >= Self.segmentsBeforeStart }) { return }
            }
            guard live.isRunning else { break }
            try await Task.sleep(for: .milliseconds(200))
        }
        let output = await live.wait(timeout: .seconds(1))
        throw HLSJSPlaybackTests.NoPlaylist(description: "no ladder with \(Self.segmentsBeforeStart) segments a rung on the origin (\(seen)); reel live said: \(output.stderr)")
    }
}

/// The page's summary, the parts this test reads.
private struct PageSummary: Sendable {
    struct Switch: Sendable { var height: Int; var at: Double }
    struct Level: Sendable { var height: Int; var bitrate: Double }

    var raw: WebDriver.JSON
    var phase: String? { raw["phase"]?.string }
    var pageMs: Double { raw["pageMs"]?.number ?? 0 }
    var frames: Double { raw["frames"]?.number ?? 0 }
    var implausible: Double { raw["implausible"]?.number ?? -1 }
    var currentTime: Double { raw["currentTime"]?.number ?? 0 }
    var longestFreezeMs: Double { raw["longestFreezeMs"]?.number ?? .infinity }
    var fatalErrors: Int { raw["fatalErrors"]?.array?.count ?? -1 }
    var levels: [Level] {
        (raw["levels"]?.array ?? []).map { Level(height: Int($0["height"]?.number ?? 0), bitrate: $0["bitrate"]?.number ?? 0) }
    }
    var switches: [Switch] {
        (raw["switches"]?.array ?? []).map { Switch(height: Int($0["height"]?.number ?? 0), at: $0["at"]?.number ?? 0) }
    }
    /// The height of the rung on show (hls.currentLevel).
    var currentHeight: Int? {
        guard let index = raw["currentLevel"]?.number, index >= 0 else { return nil }
        let all = levels
        return Int(index) < all.count ? all[Int(index)].height : nil
    }
}

/// Reads the page's summary until a condition holds; a failed page or a fatal error ends the
/// wait at once, and a timeout says what the page and the proxy saw.
private struct Poller {
    struct Timeout: Error, CustomStringConvertible { var description: String }

    let browser: WebDriver
    let proxy: ThrottleProxy

    func summary(sinceMs: Double = 0) async throws -> PageSummary {
        PageSummary(raw: try await HLSJSPage.summary(browser, sinceMs: sinceMs))
    }

    func until(_ what: String, timeout: Duration, _ condition: (PageSummary) -> Bool) async throws -> PageSummary {
        let deadline = ContinuousClock.now + timeout
        while true {
            let s = try await summary()
            if s.phase == "failed" || s.fatalErrors > 0 {
                throw Timeout(description: "\(what): the page failed: \(s.raw)\n\(await proxy.log())")
            }
            if condition(s) { return s }
            guard ContinuousClock.now < deadline else {
                throw Timeout(description: "\(what): not within \(timeout): \(s.raw)\n\(await proxy.log())")
            }
            try await Task.sleep(for: .milliseconds(250))
        }
    }
}
