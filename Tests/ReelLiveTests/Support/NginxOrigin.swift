import ReelRuntime
import Foundation
import ReelTestSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Debian's nginx as a real WebDAV PUT origin on a free loopback port, for tests.
///
/// Everything lives in a per-origin temporary folder: `nginx.conf`, the document root
/// (`root/`, where PUTs land), logs (`logs/access.log` with request times), the pid file and
/// nginx's temp folders. nginx runs in the foreground (`daemon off;`) as a child process,
/// under `timeout 300` so that even a crashed test run cannot leave it behind for long.
///
/// The config: `dav_methods PUT DELETE; create_full_put_path on; client_max_body_size 64m;`,
/// MIME types for m3u8/m4s/mp4, the Cache-Control headers of `reel serve` (docs/cdn.md, The
/// origin's Cache-Control), and — when a token is given — `401` for any PUT/DELETE whose
/// `Authorization` is not `Bearer TOKEN` (GETs stay open).
///
/// Use ``withNginxOrigin(token:_:)``, which always stops nginx and removes the folder; `deinit`
/// kills a still-running nginx as a last resort. ``stop()`` and ``restart()`` simulate an
/// outage on the same port.
final class NginxOrigin: Sendable {
    /// The origin's private folder.
    let directory: URL
    /// Document root: `root/streams/{id}/…` after publishing.
    let root: URL
    /// The loopback port nginx listens on (kept across restarts).
    let port: Int
    /// The bearer token PUTs must carry, if any.
    let token: String?
    /// `dav_methods`: `PUT DELETE` unless a test wants an origin that refuses DELETE (`PUT`).
    let davMethods: String

    private let launcher = Locked<Process?>(nil)
    private let session: URLSession

    /// `http://127.0.0.1:PORT/`.
    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    enum Failure: Error, CustomStringConvertible {
        case nginxMissing
        case didNotStart(String)

        var description: String {
            switch self {
            case .nginxMissing: "nginx is not installed (apt-get install nginx-light or nginx)."
            case .didNotStart(let log): "nginx did not start: \(log)"
            }
        }
    }

    private init(directory: URL, port: Int, token: String?, davMethods: String) {
        self.directory = directory
        root = directory.appendingPathComponent("root", isDirectory: true)
        self.port = port
        self.token = token
        self.davMethods = davMethods
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 5
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
    }

    /// Writes the config and starts nginx on a free port; retries with another port if the
    /// one found is taken in between.
    static func start(token: String? = nil, davMethods: String = "PUT DELETE") async throws -> NginxOrigin {
        var lastError: Error = Failure.didNotStart("no attempt")
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory
                .appendingPathComponent("reel-nginx-\(UUID().uuidString)", isDirectory: true)
            let origin = NginxOrigin(directory: directory, port: try Loopback.freePort(), token: token, davMethods: davMethods)
            do {
                try origin.writeConfiguration()
                try await origin.launch()
                return origin
            } catch {
                lastError = error
                await origin.stop()
                origin.removeFiles()
            }
        }
        throw lastError
    }

    /// Stops nginx (SIGTERM, then SIGKILL after 5 s) and waits until it is gone. Idempotent.
    func stop() async {
        guard let process = launcher.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        if process.isRunning { process.terminate() }
        let deadline = ContinuousClock.now + .seconds(5)
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        if process.isRunning { Self.killHard(process, pidFile: pidFile) }
    }

    /// Starts nginx again on the same port, with the same root (files PUT before survive).
    func restart() async throws {
        await stop()
        var lastError: Error = Failure.didNotStart("no attempt")
        // The port was ours a moment ago; give a racing process a few chances to let go.
        for _ in 0..<20 {
            do {
                try await launch()
                return
            } catch {
                lastError = error
                await stop()
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        throw lastError
    }

    /// A GET of `path` (relative to the base URL), with no cache anywhere.
    func get(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        var request = URLRequest(url: URL(string: path, relativeTo: baseURL)!.absoluteURL)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        let (data, response) = try await session.data(for: request)
        let http = response as! HTTPURLResponse
        var headers: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { headers[key.lowercased()] = value }
        }
        return (http.statusCode, data, headers)
    }

    /// One line of the access log.
    struct LoggedRequest: Sendable, Hashable {
        var method: String
        var uri: String
        var status: Int
        /// The request's Content-Length header, `nil` when absent.
        var contentLength: Int?
        var contentType: String
        var transferEncoding: String
        /// Seconds nginx spent on the request.
        var requestTime: Double
    }

    /// The access log so far, parsed.
    func requests() throws -> [LoggedRequest] {
        let url = directory.appendingPathComponent("logs/access.log")
        guard FileManager.default.fileExists(atPath: url.path) else { return [] }
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 7, let status = Int(fields[2]), let time = Double(fields[6]) else { return nil }
            func value(_ field: String) -> String { field == "-" ? "" : field }
            return LoggedRequest(
                method: fields[0], uri: fields[1], status: status, contentLength: Int(fields[3]),
                contentType: value(fields[4]), transferEncoding: value(fields[5]), requestTime: time
            )
        }
    }

    /// The error log, for failure messages.
    func errorLog() -> String {
        (try? String(contentsOf: directory.appendingPathComponent("logs/error.log"), encoding: .utf8)) ?? ""
    }

    /// Deletes the origin's folder (after ``stop()``).
    func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if let process = launcher.withLock({ $0 }), process.isRunning {
            process.terminate()
            for _ in 0..<100 where process.isRunning { usleep(20_000) }
            if process.isRunning { Self.killHard(process, pidFile: pidFile) }
        }
        session.invalidateAndCancel()
    }

    // MARK: Process

    private var pidFile: URL { directory.appendingPathComponent("nginx.pid") }

    private static func nginxExecutable() throws -> URL {
        let candidates = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin"]
        for folder in candidates where FileManager.default.isExecutableFile(atPath: "\(folder)/nginx") {
            return URL(fileURLWithPath: "\(folder)/nginx")
        }
        throw Failure.nginxMissing
    }

    private func launch() async throws {
        let nginx = try Self.nginxExecutable()
        let process = Process()
        // Threads of the Swift runtime block most signals and a spawned child inherits that
        // mask; `env --default-signal` unblocks them so `timeout` can forward SIGTERM.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "--default-signal=TERM,INT,HUP,QUIT,ALRM,CHLD", "timeout", "--kill-after=5", "300", nginx.path,
            "-p", directory.path + "/", "-c", directory.appendingPathComponent("nginx.conf").path,
            "-e", directory.appendingPathComponent("logs/error.log").path,
            "-g", "daemon off;",
        ]
        let output = FileHandle(forWritingAtPath: directory.appendingPathComponent("logs/stderr.log").path)
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        launcher.withLock { $0 = process }

        // Ready when /health answers; fail fast when nginx exits (e.g. the port is taken).
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                throw Failure.didNotStart(errorLog().split(separator: "\n").suffix(3).joined(separator: " | "))
            }
            if let (status, _, _) = try? await get("health"), status == 200 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw Failure.didNotStart("no answer on port \(port) within 10 s. \(errorLog())")
    }

    private static func killHard(_ process: Process, pidFile: URL) {
        if let text = try? String(contentsOf: pidFile, encoding: .utf8), let master = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
            for child in childProcesses(of: master) { kill(child, SIGKILL) }
            kill(master, SIGKILL)
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    private static func childProcesses(of parent: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { pid in
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[1]) == parent
        }
    }

    // MARK: Configuration

    private func writeConfiguration() throws {
        let fileManager = FileManager.default
        for folder in ["root", "logs", "tmp"] {
            try fileManager.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let d = directory.path
        // As root, nginx would switch its worker to "nobody", which cannot write our folder.
        let user = geteuid() == 0 ? "user root root;" : ""
        let tokenCheck: String
        if let token {
            tokenCheck = """
                map "$request_method:$http_authorization" $reel_denied {
                    default 1;
                    "~^(GET|HEAD|OPTIONS):" 0;
                    "PUT:Bearer \(token)" 0;
                    "DELETE:Bearer \(token)" 0;
                }
            """
        } else {
            tokenCheck = "map $request_method $reel_denied { default 0; }"
        }
        let configuration = """
        \(user)
        worker_processes 1;
        pid \(d)/nginx.pid;
        error_log \(d)/logs/error.log notice;
        events { worker_connections 512; }
        http {
            types {
                application/vnd.apple.mpegurl m3u8;
                video/iso.segment m4s;
                video/mp4 mp4;
                text/plain txt;
            }
            default_type application/octet-stream;
            log_format reel "$request_method\\t$uri\\t$status\\t$content_length\\t$content_type\\t$http_transfer_encoding\\t$request_time";
            access_log \(d)/logs/access.log reel;
            client_body_temp_path \(d)/tmp/body;
            proxy_temp_path \(d)/tmp/proxy;
            fastcgi_temp_path \(d)/tmp/fastcgi;
            uwsgi_temp_path \(d)/tmp/uwsgi;
            scgi_temp_path \(d)/tmp/scgi;
            sendfile on;
            keepalive_timeout 30;
        \(tokenCheck)
            server {
                listen 127.0.0.1:\(port);
                root \(d)/root;
                dav_methods \(davMethods);
                create_full_put_path on;
                dav_access user:rw group:r all:r;
                client_max_body_size 64m;
                if ($reel_denied) { return 401; }
                location = /health { return 200 "ok\\n"; }
                location ~ \\.m3u8$ { add_header Cache-Control "public, max-age=1" always; }
                location ~ \\.(m4s|mp4)$ { add_header Cache-Control "public, max-age=31536000, immutable"; }
            }
        }

        """
        try Data(configuration.utf8).write(to: directory.appendingPathComponent("nginx.conf"))
    }
}

/// Runs `body` with a fresh origin; nginx is always stopped and its folder removed afterwards.
func withNginxOrigin<T>(token: String? = nil, davMethods: String = "PUT DELETE", _ body: (NginxOrigin) async throws -> T) async throws -> T {
    try await withStartedOrigin({ try await NginxOrigin.start(token: token, davMethods: davMethods) }, body)
}

extension NginxOrigin: HTTPTestOrigin {
    var kind: OriginKind { .nginx }
    var uploadToken: String? { token }
}
