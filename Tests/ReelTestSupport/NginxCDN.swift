import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Debian's nginx as a CDN edge on a free loopback port, with exactly the config
/// `scripts/nginx-cdn.sh config` writes (a caching reverse proxy in front of `reel serve` or a
/// bucket), for tests.
///
/// Everything lives in a private temporary folder (config, cache, logs). nginx runs in the
/// foreground (`-g "daemon off;"`) as a child process under `timeout 300`, so even a crashed
/// test run cannot leave it behind for long.
public final class NginxCDN: Sendable {
    public enum Failure: Error, CustomStringConvertible {
        case nginxMissing
        case didNotStart(String)

        public var description: String {
            switch self {
            case .nginxMissing: "nginx is not installed (scripts/setup.sh installs it)"
            case .didNotStart(let why): "the nginx CDN edge did not start: \(why)"
            }
        }
    }

    /// One line of the edge's access log (see scripts/nginx-cdn.sh).
    public struct LoggedRequest: Sendable, Hashable {
        /// Unix time in seconds when the request ended.
        public var time: Double
        public var method: String
        /// The request target as sent (path and query).
        public var uri: String
        public var status: Int
        /// nginx's `$upstream_cache_status` (`MISS`, `HIT`, `EXPIRED`, `UPDATING`, …; `-` when the cache was not asked).
        public var cacheStatus: String
    }

    /// The edge's private folder.
    public let directory: URL
    /// The loopback port it listens on.
    public let port: Int
    /// What it proxies: `http://HOST:PORT[/BUCKET/PREFIX]`.
    public let upstream: String

    private let process: Mutex<Process?>

    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    private init(directory: URL, port: Int, upstream: String, process: Process) {
        self.directory = directory
        self.port = port
        self.upstream = upstream
        self.process = Mutex(process)
    }

    /// The path of `scripts/NAME` in the package.
    public static func packageScript(_ name: String) -> String {
        MotoS3Server.packageRoot.appendingPathComponent("scripts/\(name)").path
    }

    /// Writes the script's config for `upstream` and starts nginx on a free port (another one
    /// if that is taken in between).
    public static func start(upstream: String) async throws -> NginxCDN {
        let nginx = try ["/usr/sbin/nginx", "/usr/bin/nginx"].first(where: FileManager.default.isExecutableFile(atPath:))
            ?? { throw Failure.nginxMissing }()
        var lastError: Error = Failure.didNotStart("no attempt")
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-cdn-\(UUID().uuidString)", isDirectory: true)
            let port = try Loopback.freePort()
            do {
                let config = try Subprocess.run("/bin/bash", [packageScript("nginx-cdn.sh"), "config", directory.path, upstream, String(port)])
                guard config.status == 0 else { throw Failure.didNotStart("nginx-cdn.sh config: \(config.stderr)") }
                let process = try await launch(nginx, directory: directory, port: port)
                return NginxCDN(directory: directory, port: port, upstream: upstream, process: process)
            } catch {
                try? FileManager.default.removeItem(at: directory)
                lastError = error
            }
        }
        throw lastError
    }

    private static func launch(_ nginx: String, directory: URL, port: Int) async throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // As for reel serve: unblock the signals the Swift runtime's threads block, so timeout forwards SIGTERM.
        process.arguments = ["--default-signal=TERM,INT,HUP,QUIT,ALRM,CHLD", "timeout", "--kill-after=5", "300", nginx,
                             "-p", directory.path + "/", "-c", directory.appendingPathComponent("nginx.conf").path,
                             "-e", directory.appendingPathComponent("logs/error.log").path, "-g", "daemon off;"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Ready when it answers anything (the upstream's answer or a 502); fail fast when it exits.
        let client = TestHTTPClient(timeout: 2)
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                process.waitUntilExit()
                throw Failure.didNotStart("exit \(process.terminationStatus): " + errorLog(directory).suffix(400))
            }
            if (try? await client.send("GET", URL(string: "http://127.0.0.1:\(port)/")!)) != nil { return process }
            try await Task.sleep(for: .milliseconds(25))
        }
        ReelServeOrigin.kill(process)
        throw Failure.didNotStart("no answer on port \(port) within 10 s: " + errorLog(directory).suffix(400))
    }

    private static func errorLog(_ directory: URL) -> String {
        (try? String(contentsOf: directory.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
    }

    /// The error log so far, for failure messages.
    public var errorLog: String { Self.errorLog(directory) }

    /// The access log so far, parsed.
    public func requests() -> [LoggedRequest] {
        let text = (try? String(contentsOf: directory.appendingPathComponent("logs/access.log"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 5, let time = Double(fields[0]), let status = Int(fields[3]) else { return nil }
            return LoggedRequest(time: time, method: fields[1], uri: fields[2], status: status, cacheStatus: fields[4])
        }
    }

    /// Stops nginx (SIGTERM through `timeout`, SIGKILL to the group after 5 s) and removes its folder. Idempotent.
    public func stop() async {
        guard let running = process.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        if running.isRunning { Glibc.kill(running.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(5)
        while running.isRunning && ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
        ReelServeOrigin.kill(running)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if let running = process.withLock({ $0 }) { ReelServeOrigin.kill(running) }
    }
}

/// Runs `body` with a fresh edge in front of `upstream`; it is always stopped and removed afterwards.
public func withNginxCDN<T>(upstream: String, _ body: (NginxCDN) async throws -> T) async throws -> T {
    let cdn = try await NginxCDN.start(upstream: upstream)
    do {
        let result = try await body(cdn)
        await cdn.stop()
        return result
    } catch {
        await cdn.stop()
        throw error
    }
}
