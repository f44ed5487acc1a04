import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// The real `reel serve` binary (``ReelBinary``) as an origin on a free loopback port, for tests.
///
/// Everything lives in a private temporary folder: `data/` (the data folder), `token` (kept
/// outside the data folder, so a tmpfs mounted over `data/` cannot hide it and a restart reads
/// the same token), `access.log`, and the server's `stdout.log` and `stderr.log` (appended
/// across restarts; 5xx answers are explained on standard error). The server runs under
/// `timeout 300`, so even a crashed test run cannot leave it behind for long.
///
/// With ``DataFolder/tmpfs(bytes:inodes:)`` the data folder is a small tmpfs mounted in a
/// private mount namespace made for the server alone (`unshare --mount`): the disk can be
/// filled, or remounted read-only, without touching the machine, and the mount disappears with
/// the server however the test ends. Only the server (and ``shell(_:)``, which enters its
/// namespace with `nsenter`) sees the files then. Mounting needs root (or CAP_SYS_ADMIN) and
/// util-linux's `unshare` and `nsenter`; without them ``start(token:dataFolder:)`` fails with a
/// message saying so — never a skipped test.
public final class ReelServeOrigin: HTTPTestOrigin {
    /// What the data folder is.
    public enum DataFolder: Sendable, Hashable {
        /// A folder on the machine's disk (survives ``restart()``).
        case disk
        /// A tmpfs of `bytes` (and at most `inodes` files and folders, when given) in the
        /// server's own mount namespace. Gone when the server stops, so no ``restart()``.
        case tmpfs(bytes: Int, inodes: Int? = nil)
    }

    public enum Failure: Error, CustomStringConvertible {
        case didNotStart(String)
        case cannotMount(String)
        case notRunning(String)

        public var description: String {
            switch self {
            case .didNotStart(let log): "reel serve did not start: \(log)"
            case .cannotMount(let reason):
                "could not mount a tmpfs data folder for reel serve in a private mount namespace (\(reason)). "
                    + "These tests need root (or CAP_SYS_ADMIN) and util-linux's unshare and nsenter "
                    + "(Debian: util-linux, mount); CI runs them as root."
            case .notRunning(let what): "reel serve is not running: \(what)"
            }
        }
    }

    public var kind: OriginKind { .reelServe }
    /// The origin's private folder.
    public let directory: URL
    /// The data folder, `directory/data`.
    public let data: URL
    /// The token file, `directory/token`.
    public let tokenFile: URL
    /// The access log, `directory/access.log`.
    public let accessLogFile: URL
    /// The loopback port (kept across restarts).
    public let port: Int
    /// The bearer token.
    public let token: String
    /// Disk or tmpfs.
    public let dataFolder: DataFolder
    /// More `reel serve` options (e.g. `--trusted-proxy 127.0.0.1`), kept across restarts.
    public let extraArguments: [String]

    public var uploadToken: String? { token }
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    private let launcher = Mutex<Process?>(nil)
    private let client = TestHTTPClient()

    private init(directory: URL, port: Int, token: String, dataFolder: DataFolder, extraArguments: [String]) {
        self.directory = directory
        data = directory.appendingPathComponent("data", isDirectory: true)
        tokenFile = directory.appendingPathComponent("token")
        accessLogFile = directory.appendingPathComponent("access.log")
        self.port = port
        self.token = token
        self.dataFolder = dataFolder
        self.extraArguments = extraArguments
    }

    /// Starts `reel serve` on a free port with a new private folder. `token` is written to the
    /// token file first (16 to 512 printable characters); without one the server makes its own.
    /// Retries with another port if the one found is taken in between. `arguments` go after the
    /// ones the test server always gets (host, port, data, token file, access log).
    public static func start(token: String? = nil, dataFolder: DataFolder = .disk, arguments: [String] = []) async throws -> ReelServeOrigin {
        if case .tmpfs = dataFolder {
            for tool in ["/usr/bin/unshare", "/usr/bin/nsenter", "/bin/mount"] where !FileManager.default.isExecutableFile(atPath: tool) {
                throw Failure.cannotMount("\(tool) is missing")
            }
        }
        var lastError: Error = Failure.didNotStart("no attempt")
        for _ in 0..<5 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-serve-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory.appendingPathComponent("data"), withIntermediateDirectories: true)
            let tokenFile = directory.appendingPathComponent("token")
            if let token {
                guard FileManager.default.createFile(atPath: tokenFile.path, contents: Data((token + "\n").utf8),
                                                     attributes: [.posixPermissions: 0o600]) else {
                    try? FileManager.default.removeItem(at: directory)
                    throw Failure.didNotStart("cannot write the token file \(tokenFile.path)")
                }
            }
            let port = try Loopback.freePort()
            do {
                let process = try await launch(directory: directory, port: port, dataFolder: dataFolder, extra: arguments)
                let text = (try? String(contentsOf: tokenFile, encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                let origin = ReelServeOrigin(directory: directory, port: port, token: text, dataFolder: dataFolder, extraArguments: arguments)
                origin.launcher.withLock { $0 = process }
                return origin
            } catch {
                try? FileManager.default.removeItem(at: directory)
                guard case Failure.didNotStart = error else { throw error }
                lastError = error
            }
        }
        throw lastError
    }

    /// SIGTERM (the server finishes requests in flight), then SIGKILL after 15 s; waits until
    /// it is gone. Idempotent.
    public func stop() async {
        guard let process = launcher.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGTERM) }
        let deadline = ContinuousClock.now + .seconds(15)
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(20))
        }
        Self.kill(process)
    }

    /// Starts the server again on the same port with the same data folder and token.
    public func restart() async throws {
        guard dataFolder == .disk else { throw Failure.didNotStart("a tmpfs data folder is gone once the server stopped; restart needs .disk") }
        await stop()
        var lastError: Error = Failure.didNotStart("no attempt")
        // The port was ours a moment ago; give a racing process a few chances to let go.
        for _ in 0..<20 {
            do {
                let process = try await Self.launch(directory: directory, port: port, dataFolder: dataFolder, extra: extraArguments)
                launcher.withLock { $0 = process }
                return
            } catch {
                lastError = error
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        throw lastError
    }

    /// Whether the server process is running.
    public var isRunning: Bool { launcher.withLock { $0?.isRunning ?? false } }

    // MARK: Requests

    public func get(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await client.send("GET", url(path))
    }

    /// A PUT of `body` with the token.
    public func put(_ path: String, _ body: Data) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await client.send("PUT", url(path), body: body, headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/octet-stream"])
    }

    /// A DELETE with the token.
    public func delete(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await client.send("DELETE", url(path), headers: ["Authorization": "Bearer \(token)"])
    }

    private func url(_ path: String) -> URL {
        URL(string: path.hasPrefix("/") ? String(path.dropFirst()) : path, relativeTo: baseURL)!.absoluteURL
    }

    // MARK: What the server wrote

    /// Its standard error so far (why each 5xx answer was given, start and stop lines).
    public var standardError: String { (try? String(contentsOf: directory.appendingPathComponent("stderr.log"), encoding: .utf8)) ?? "" }

    /// The access log so far.
    public var accessLog: String { (try? String(contentsOf: accessLogFile, encoding: .utf8)) ?? "" }

    /// Runs `script` with `sh -c` where the server's files are: in its mount namespace for a
    /// tmpfs data folder (through `nsenter`), on the machine otherwise. `$DATA` is the data folder.
    public func shell(_ script: String) throws -> Subprocess {
        let command = "DATA=\(Self.quoted(data.path)); \(script)"
        switch dataFolder {
        case .disk:
            return try Subprocess.run("/bin/sh", ["-c", command])
        case .tmpfs:
            guard let pid = launcher.withLock({ $0?.isRunning == true ? $0?.processIdentifier : nil }) else {
                throw Failure.notRunning("its mount namespace is gone")
            }
            return try Subprocess.run("/usr/bin/nsenter", ["-t", String(pid), "-m", "--", "/bin/sh", "-c", command])
        }
    }

    /// Every file and folder below the data folder as the server sees it (paths relative to
    /// it, sorted; folders end with `/`).
    public func dataFiles() throws -> [String] {
        let listing = try shell(#"cd "$DATA" && find . -mindepth 1 \( -type d -printf '%P/\n' \) -o -printf '%P\n'"#)
        guard listing.status == 0 else { throw Failure.notRunning("listing the data folder failed: \(listing.stderr)") }
        return listing.stdout.split(separator: "\n").map(String.init).sorted()
    }

    /// Remounts the tmpfs data folder read-only (`true`) or writable again, in the server's
    /// namespace: from then on every write fails with EROFS, an I/O error for the server.
    public func remountData(readOnly: Bool) throws {
        let result = try shell(#"mount -o remount,\#(readOnly ? "ro" : "rw") "$DATA""#)
        guard result.status == 0 else { throw Failure.cannotMount("remount \(readOnly ? "ro" : "rw") failed: \(result.stderr)") }
    }

    /// Deletes the origin's folder (after ``stop()``).
    public func removeFiles() {
        try? FileManager.default.removeItem(at: directory)
    }

    deinit {
        if let process = launcher.withLock({ $0 }), process.isRunning {
            Glibc.kill(process.processIdentifier, SIGTERM)
            for _ in 0..<100 where process.isRunning { usleep(20_000) }
            Self.kill(process)
        }
    }

    // MARK: Process

    /// Starts the server and waits until it answers; on any failure the process is gone.
    private static func launch(directory: URL, port: Int, dataFolder: DataFolder, extra: [String]) async throws -> Process {
        let data = directory.appendingPathComponent("data").path
        let serve = [try ReelBinary.path(), "serve", "--host", "127.0.0.1", "--port", String(port), "--data", data,
                     "--token-file", directory.appendingPathComponent("token").path,
                     "--access-log", directory.appendingPathComponent("access.log").path] + extra
        // Threads of the Swift runtime block most signals and a spawned child inherits that
        // mask; `env --default-signal` unblocks them so `timeout` can forward SIGTERM.
        var arguments = ["--default-signal=TERM,INT,HUP,QUIT,ALRM,CHLD"]
        let guarded = ["timeout", "--kill-after=5", "300"]
        switch dataFolder {
        case .disk:
            arguments += guarded + serve
        case .tmpfs(let bytes, let inodes):
            // unshare execs timeout in the new namespace (same pid, which nsenter then targets);
            // timeout's child mounts the tmpfs over the data folder and becomes the server.
            let options = "size=\(bytes)" + (inodes.map { ",nr_inodes=\($0)" } ?? "")
            arguments += ["unshare", "--mount", "--propagation", "private"] + guarded
                + ["/bin/sh", "-c", #"mount -t tmpfs -o "$0" reel-test-data "$1" || exit 97; shift; exec "$@""#, options, data] + serve
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = try appending(directory.appendingPathComponent("stdout.log"))
        let errors = directory.appendingPathComponent("stderr.log")
        process.standardError = try appending(errors)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        do {
            try await waitUntilReady(process, port: port, errors: errors, dataFolder: dataFolder)
            return process
        } catch {
            kill(process)
            throw error
        }
    }

    private static func waitUntilReady(_ process: Process, port: Int, errors: URL, dataFolder: DataFolder) async throws {
        // Ready when /health answers; fail fast when the server exits (a taken port, no mount).
        let client = TestHTTPClient(timeout: 2)
        let health = URL(string: "http://127.0.0.1:\(port)/health")!
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if !process.isRunning {
                process.waitUntilExit()
                let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
                if process.terminationStatus == 97 { throw Failure.cannotMount(log.trimmingCharacters(in: .whitespacesAndNewlines)) }
                if case .tmpfs = dataFolder, log.contains("unshare:") { throw Failure.cannotMount(log.trimmingCharacters(in: .whitespacesAndNewlines)) }
                throw Failure.didNotStart("exit \(process.terminationStatus): \(log.split(separator: "\n").suffix(3).joined(separator: " | "))")
            }
            if let (status, _, _) = try? await client.send("GET", health), status == 200 { return }
            try await Task.sleep(for: .milliseconds(25))
        }
        throw Failure.didNotStart("no answer on port \(port) within 10 s")
    }

    private static func appending(_ url: URL) throws -> FileHandle {
        let fd = open(url.path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw Failure.didNotStart("cannot open \(url.path): \(String(cString: strerror(errno)))") }
        return FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// SIGKILL to the whole process group `timeout` leads (timeout and the server), then reaps.
    /// Shared with ``MotoS3Server``.
    static func kill(_ process: Process) {
        if process.isRunning {
            let pid = process.processIdentifier
            if getpgid(pid) == pid { Glibc.kill(-pid, SIGKILL) }
            Glibc.kill(pid, SIGKILL)
        }
        process.waitUntilExit()
    }

    private static func quoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}

/// Runs `body` with a fresh `reel serve`; it is always stopped and its folder removed afterwards.
public func withReelServeOrigin<T>(token: String? = nil, dataFolder: ReelServeOrigin.DataFolder = .disk, arguments: [String] = [],
                                   _ body: (ReelServeOrigin) async throws -> T) async throws -> T {
    try await withStartedOrigin({ try await ReelServeOrigin.start(token: token, dataFolder: dataFolder, arguments: arguments) }, body)
}
