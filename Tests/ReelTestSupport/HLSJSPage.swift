import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The glass-to-glass page (`Tests/Fixtures/hlsjs-g2g`: hls.js plays a playlist and reads the
/// capture time the test source draws into each picture it shows) with hls.js beside it, served
/// from a private loopback HTTP server (Debian's python3 `http.server`), so the stream it plays
/// from `reel serve` comes cross-origin, as it does for a real viewer.
///
/// hls.js is not in Debian; `make setup` (scripts/fetch-hlsjs.sh) puts it in the XDG cache.
/// Without it, starting the page throws an error that says so: the test fails, never skips.
public final class HLSJSPage: @unchecked Sendable {
    /// hls.js is not where scripts/fetch-hlsjs.sh puts it.
    public struct Missing: Error, CustomStringConvertible {
        public var path: String
        public var description: String {
            "hls.js is missing (\(path)): run 'make setup' or 'bash scripts/fetch-hlsjs.sh' (or set REEL_HLSJS to hls.js 1.6.15 as an ES module)"
        }
    }

    /// The page's folder in the repository.
    public static let pageFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/hlsjs-g2g").path

    /// Where scripts/fetch-hlsjs.sh stores hls.js (REEL_HLSJS overrides it, as it does there).
    public static var hlsJSPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let explicit = environment["REEL_HLSJS"], !explicit.isEmpty { return explicit }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
            ?? (NSHomeDirectory() + "/.cache")
        return cache + "/reel/hlsjs/hls-1.6.15.mjs"
    }

    private let folder: TemporaryDirectory
    private let server: BackgroundProcess
    /// The server's port on 127.0.0.1.
    public let port: Int

    /// Copies the page and hls.js into a private folder and serves it; returns once the
    /// server accepts connections.
    public init() async throws {
        let hlsJS = Self.hlsJSPath
        guard FileManager.default.fileExists(atPath: hlsJS) else { throw Missing(path: hlsJS) }
        folder = try TemporaryDirectory()
        for name in ["index.html", "g2g.js"] {
            try FileManager.default.copyItem(atPath: Self.pageFolder + "/" + name, toPath: folder.path(name))
        }
        try FileManager.default.copyItem(atPath: hlsJS, toPath: folder.path("hls.js"))
        port = try Loopback.freePort()
        server = try BackgroundProcess("/usr/bin/python3", ["-m", "http.server", "--bind", "127.0.0.1", String(port),
                                                             "--directory", folder.url.path])
        try await waitUntilListening()
    }

    deinit { stop() }

    /// Stops the server and removes the folder. Idempotent.
    public func stop() {
        if server.isRunning { server.send(SIGKILL) }
        folder.cleanup()
    }

    /// The page's address for `playlist`; `lowLatency` sets hls.js's `lowLatencyMode`; `config`
    /// (a JSON object) is merged into hls.js's config.
    public func url(playlist: String, lowLatency: Bool, config: String? = nil) -> String {
        var components = URLComponents(string: "http://127.0.0.1:\(port)/index.html")!
        components.queryItems = [URLQueryItem(name: "src", value: playlist), URLQueryItem(name: "low", value: lowLatency ? "1" : "0")]
            + (config.map { [URLQueryItem(name: "config", value: $0)] } ?? [])
        return components.string!
    }

    /// ``summary(_:)`` with the longest freeze counted from `sinceMs` (page time).
    public static func summary(_ browser: WebDriver, sinceMs: Double) async throws -> WebDriver.JSON {
        try await browser.executeScript("return window.reelG2G ? window.reelG2G.summary(arguments[0]) : null", args: [.number(sinceMs)])
    }

    /// What the page measured so far (`window.reelG2G.summary()`), or null before the script ran.
    public static func summary(_ browser: WebDriver) async throws -> WebDriver.JSON {
        try await browser.executeScript("return window.reelG2G ? window.reelG2G.summary() : null")
    }

    private func waitUntilListening() async throws {
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            let connected = fd >= 0 && Loopback.connect(fd, port: port) == 0
            if fd >= 0 { close(fd) }
            if connected { return }
            guard server.isRunning else { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let output = await server.wait(timeout: .seconds(1))
        throw Loopback.Failure(description: "python3 -m http.server did not listen on \(port): \(output.stderr)")
    }
}
