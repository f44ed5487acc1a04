import Foundation
import ReelOrigin
import ReelTestSupport
import Testing

/// The viewer and the origin's media in a real browser: Debian's chromium, headless, reads
/// what `reel live` publishes to `reel serve`. Pages report what they see on the console
/// (see ``HeadlessChromium``).
@Suite("viewer in chromium", .serialized)
struct ViewerBrowserTests {
    /// A page on another origin (a file) that plays the playlist in a muted `<video
    /// crossorigin>` and draws each frame it shows to a canvas; reading the canvas back
    /// throws when CORS did not allow the capture.
    static func probePage(playlist: String) -> String {
        """
        <!doctype html><html><body>
        <video id="v" muted autoplay playsinline crossorigin="anonymous"></video>
        <canvas id="c" width="64" height="36"></canvas>
        <script>
        const video = document.getElementById("v"), canvas = document.getElementById("c");
        const context = canvas.getContext("2d", { willReadFrequently: true });
        video.src = \(String(reflecting: playlist));
        video.play().catch((e) => console.info("reel-probe " + JSON.stringify({ error: "play: " + e.message })));
        video.addEventListener("error", () => console.info("reel-probe " + JSON.stringify({ error: "media: " + (video.error && video.error.message) })));
        setInterval(() => {
          const report = { currentTime: video.currentTime, readyState: video.readyState, luma: -1, brightest: -1 };
          if (video.readyState >= 2) {
            try {
              context.drawImage(video, 0, 0, canvas.width, canvas.height);
              const pixels = context.getImageData(0, 0, canvas.width, canvas.height).data;
              let sum = 0, brightest = 0;
              for (let i = 0; i < pixels.length; i += 4) {
                const y = 0.299 * pixels[i] + 0.587 * pixels[i + 1] + 0.114 * pixels[i + 2];
                sum += y; brightest = Math.max(brightest, y);
              }
              report.luma = sum / (pixels.length / 4);
              report.brightest = brightest;
            } catch (e) { report.error = "canvas: " + e.message; }
          }
          console.info("reel-probe " + JSON.stringify(report));
        }, 500);
        </script></body></html>
        """
    }

    /// A stand-in for hls.js with the part of its API the viewer uses; it hands the playlist
    /// to the browser's own HLS, so the page plays for real once the viewer has loaded it
    /// from the operator's URL (which the page's content security policy must allow).
    static let hlsJSStandIn = """
        window.Hls = class {
          static isSupported() { return true; }
          static get Events() { return { ERROR: "hlsError" }; }
          on() {}
          loadSource(url) { this.url = url; }
          attachMedia(video) { console.info("reel-standin " + JSON.stringify({ url: this.url })); video.src = this.url; }
          destroy() {}
        };
        """

    @Test func viewerFollowsAStreamFromWaitingToLiveToEndedAndNoticesTheServerGoing() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // The operator's hls.js, on another origin (a plain file server on loopback).
        try FileManager.default.createDirectory(atPath: dir.path("cdn"), withIntermediateDirectories: true)
        try Self.hlsJSStandIn.write(toFile: dir.path("cdn/hls.min.js"), atomically: true, encoding: .utf8)
        let cdnPort = try Loopback.freePort()
        let cdn = try BackgroundProcess("/usr/bin/python3", ["-m", "http.server", "--bind", "127.0.0.1", String(cdnPort),
                                                             "--directory", dir.path("cdn")])
        defer { cdn.send(SIGKILL) }
        let hlsJS = "http://127.0.0.1:\(cdnPort)/hls.min.js"
        let data = dir.path("origin")
        let (server, base) = try await ServeEndToEndTests.serve(data: data, extra: ["--access-log", "none", "--hls-js", hlsJS])
        let token = try String(contentsOfFile: data + "/token", encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)

        let viewer = try HeadlessChromium(url: base + "?debug=1")
        defer { viewer.stop() }
        let waiting = await viewer.waitFor("reel-viewer", timeout: .seconds(30)) { $0.string("state") == "WAITING" }
        #expect(waiting != nil, "the viewer says WAITING on an empty origin; chromium said:\n\(viewer.log())")

        let live = try BackgroundProcess(ReelBinary.path(), [
            "live", "--source", "test", "--duration", "24", "--quality", "low", "--origin", base, "--token", token,
            "--no-archive", "--stream-id", "browser", "--quiet"], environment: ["XDG_STATE_HOME": dir.path("state")])
        let isLive = await viewer.waitFor("reel-viewer", timeout: .seconds(30)) {
            $0.string("state") == "LIVE" && $0.string("stream") == "browser"
        }
        #expect(isLive != nil, "the viewer finds the stream and says LIVE:\n\(viewer.log())")

        // The viewer's own player advances and knows how far behind live it is.
        let first = await viewer.waitFor("reel-viewer-playback", timeout: .seconds(20)) { ($0.number("currentTime") ?? 0) > 0 }
        let start = first?.number("currentTime") ?? 0
        let later = await viewer.waitFor("reel-viewer-playback", timeout: .seconds(20)) { ($0.number("currentTime") ?? 0) >= start + 2 }
        #expect(first != nil && later != nil, "currentTime advances in the viewer:\n\(viewer.log())")
        if let behind = later?.number("behind") { #expect(behind >= 0 && behind < 12, "behind live: \(behind) s") }
        else { Issue.record("the viewer reports no distance behind live while LIVE: \(later?.text ?? "nothing")") }

        // A page on another origin plays the same stream and draws real (non-black) frames.
        let probeFile = dir.path("probe.html")
        try Self.probePage(playlist: base + "streams/browser/playlist.m3u8").write(toFile: probeFile, atomically: true, encoding: .utf8)
        let probe = try HeadlessChromium(url: URL(fileURLWithPath: probeFile).absoluteString,
                                         extraFlags: ["--allow-file-access-from-files"])
        defer { probe.stop() }
        let drawn = await probe.waitFor("reel-probe", timeout: .seconds(30)) { ($0.number("luma") ?? -1) > 20 && ($0.number("brightest") ?? 0) > 100 }
        let drawnAt = drawn?.number("currentTime") ?? 0
        let advanced = await probe.waitFor("reel-probe", timeout: .seconds(15)) { ($0.number("currentTime") ?? 0) >= drawnAt + 1.5 }
        let errors = probe.messages("reel-probe").compactMap { $0.string("error") }
        #expect(drawn != nil && advanced != nil && errors.isEmpty,
                "a cross-origin page draws non-black frames to a canvas while currentTime advances; errors: \(errors)\n\(probe.log())")
        probe.stop()

        // A viewer told to use hls.js loads it from the operator's URL and plays through it.
        let viaHlsJS = try HeadlessChromium(url: base + "watch/browser?player=hlsjs&debug=1")
        defer { viaHlsJS.stop() }
        let loaded = await viaHlsJS.waitFor("reel-viewer-player", timeout: .seconds(20)) { $0.string("player") == "hls.js" }
        let handed = await viaHlsJS.waitFor("reel-standin", timeout: .seconds(5)) { $0.string("url") == "/streams/browser/playlist.m3u8" }
        let playing = await viaHlsJS.waitFor("reel-viewer-playback", timeout: .seconds(20)) { ($0.number("currentTime") ?? 0) > 0.5 }
        #expect(loaded?.string("source") == hlsJS && handed != nil && playing != nil,
                "the viewer plays through the operator's hls.js:\n\(viaHlsJS.log())")
        viaHlsJS.stop()

        let published = await live.wait(timeout: .seconds(60))
        #expect(published.status == 0, "reel live: \(published.stderr)")
        let ended = await viewer.waitFor("reel-viewer", timeout: .seconds(15)) { $0.string("state") == "ENDED" && $0.string("stream") == "browser" }
        #expect(ended != nil, "the viewer says ENDED once the playlist has ENDLIST:\n\(viewer.log())")

        server.send(SIGTERM)
        _ = await server.wait(timeout: .seconds(15))
        let failed = await viewer.waitFor("reel-viewer", timeout: .seconds(15)) { $0.string("state") == "SERVER ERROR" }
        #expect(failed != nil, "the viewer says SERVER ERROR when the origin is gone:\n\(viewer.log())")
    }

    /// An ABR ladder is one stream in the viewer, live while its rungs are and ended only once
    /// every rung's playlist ended, its counts said with its renditions. (The media here is
    /// not real: this is about what the viewer says; OriginLadderTests and
    /// HLSJSPlaybackTests play a ladder.)
    @Test func viewerShowsALadderAsOneStreamEndedOnlyWhenEveryRungIs() async throws {
        try await withOrigin { origin in
            func put(_ path: String, _ body: Data) throws {
                #expect(try OriginServerTests.put(origin, path, body, token: origin.token).status < 300, "\(path)")
            }
            try put("/streams/ladder/playlist.m3u8", Data(OriginLadderTests.multivariant.utf8))
            for rung in ["low", "high"] {
                try put("/streams/ladder/\(rung)/init.mp4", Data("init".utf8))
                try put("/streams/ladder/\(rung)/playlist.m3u8", OriginLadderTests.media(rung, segments: rung == "low" ? 3 : 2))
            }
            let viewer = try HeadlessChromium(url: origin.base + "/watch/ladder?debug=1")
            defer { viewer.stop() }
            let live = await viewer.waitFor("reel-viewer", timeout: .seconds(30)) { $0.string("state") == "LIVE" }
            #expect(live?.string("stream") == "ladder" && live?.string("detail")?.hasPrefix("2 segments in 2 renditions") == true,
                    "the fewest segments of any rung, and the rungs:\n\(viewer.log())")
            func streamListReads() -> Int {
                ((try? String(contentsOf: origin.accessLog, encoding: .utf8)) ?? "").components(separatedBy: "/api/streams").count - 1
            }
            try put("/streams/ladder/low/playlist.m3u8", OriginLadderTests.media("low", segments: 3, ended: true))
            // The viewer has read the stream list since low ended: it polls one request at a
            // time, so the second read logged after the put was sent after it, and once a third
            // came, the second's answer had been shown.
            let readsAfterPut = streamListReads()
            try await eventually("the viewer reading the stream list after low ended") { streamListReads() >= readsAfterPut + 3 ? true : nil }
            #expect(!viewer.messages("reel-viewer").contains { $0.string("state") == "ENDED" }, "high goes on:\n\(viewer.log())")
            try put("/streams/ladder/high/playlist.m3u8", OriginLadderTests.media("high", segments: 3, ended: true))
            let ended = await viewer.waitFor("reel-viewer", timeout: .seconds(15)) { $0.string("state") == "ENDED" }
            #expect(ended?.string("detail")?.contains("(3 segments in 2 renditions)") == true, "every rung ended:\n\(viewer.log())")
        }
    }
}
