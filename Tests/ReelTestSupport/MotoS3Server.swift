import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// An S3 server for tests: moto (PyPI `moto[server]`, pinned by `scripts/setup-moto.sh`) started
/// by `scripts/moto-s3.py` on a free loopback port, with SigV4 checks on, an access key and one
/// bucket. GETs without a signature are signed by the script for the reader (moto would answer
/// them with 500), so ``get(_:)`` and ffmpeg read objects as from a public bucket. As S3 does
/// (and moto does not), the script refuses a signed PUT or POST whose body does not match its
/// `x-amz-content-sha256`, `Content-MD5` or `x-amz-checksum-sha256`.
///
/// It runs under `timeout 300` like the other test servers. ``pause()`` stops it with SIGSTOP
/// (connections hang, as with a stalled server) and ``resume()`` continues it: moto keeps its
/// objects in memory, so a restart would lose them. When the venv is missing, ``start(bucket:prefix:)``
/// runs `scripts/setup-moto.sh` first (one-time, needs PyPI); a failure says so, never a skip.
public final class MotoS3Server: HTTPReadableOrigin {
    public enum Failure: Error, CustomStringConvertible {
        case setup(String)
        case didNotStart(String)

        public var description: String {
            switch self {
            case .setup(let why): "moto is not installed and scripts/setup-moto.sh failed: \(why)"
            case .didNotStart(let why): "moto (scripts/moto-s3.py) did not start: \(why)"
            }
        }
    }

    /// `http://127.0.0.1:PORT` (what `--s3-endpoint` takes).
    public let endpoint: String
    /// The bucket made at start.
    public let bucket: String
    /// The key prefix streams are published under (what `s3://BUCKET/PREFIX` names).
    public let prefix: String
    /// The access key id moto issued.
    public let accessKeyID: String
    /// Its secret.
    public let secretAccessKey: String
    /// The loopback port.
    public let port: Int
    /// The server's private folder (its standard output and error).
    public let directory: URL

    private let process: Mutex<Process?>
    private let client = TestHTTPClient()

    /// `http://127.0.0.1:PORT/BUCKET/PREFIX/`: stream paths resolve to their objects.
    public var baseURL: URL { URL(string: "\(endpoint)/\(bucket)/\(prefix.isEmpty ? "" : prefix + "/")")! }
    /// `s3://BUCKET/PREFIX`.
    public var location: String { "s3://\(bucket)/\(prefix)" }

    /// `reel live`'s arguments for this bucket: `--origin s3://… --s3-endpoint …`.
    public var liveArguments: [String] { ["--origin", location, "--s3-endpoint", endpoint] }
    /// The environment with this server's key (`secret` replaces the real secret, for a wrong one).
    public func environment(secret: String? = nil) -> [String: String] {
        ["AWS_ACCESS_KEY_ID": accessKeyID, "AWS_SECRET_ACCESS_KEY": secret ?? secretAccessKey, "AWS_SESSION_TOKEN": "",
         "AWS_PROFILE": "", "AWS_SHARED_CREDENTIALS_FILE": "/nonexistent", "AWS_REGION": "us-east-1"]
    }

    private init(endpoint: String, bucket: String, prefix: String, key: (String, String), port: Int, directory: URL, process: Process) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.prefix = prefix
        (accessKeyID, secretAccessKey) = key
        self.port = port
        self.directory = directory
        self.process = Mutex(process)
    }

    /// The package's folder (for `scripts/`).
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// The venv's python, as `scripts/setup-moto.sh` places it.
    static var python: String {
        let environment = ProcessInfo.processInfo.environment
        if let venv = environment["REEL_MOTO_VENV"], !venv.isEmpty { return venv + "/bin/python" }
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? NSHomeDirectory() + "/.cache"
        return cache + "/reel/moto-venv/bin/python"
    }

    /// Starts moto with `bucket` on a free port (another port if that one is taken in between).
    public static func start(bucket: String = "reel-test", prefix: String = "live") async throws -> MotoS3Server {
        if !FileManager.default.isExecutableFile(atPath: python) {
            let setup = try Subprocess.run("/bin/bash", [packageRoot.appendingPathComponent("scripts/setup-moto.sh").path])
            guard setup.status == 0 else { throw Failure.setup(setup.stderr.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        var lastError: Error = Failure.didNotStart("no attempt")
        for _ in 0..<3 {
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("reel-moto-\(UUID().uuidString)", isDirectory: true)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            let port = try Loopback.freePort()
            do {
                let (process, key) = try await launch(directory: directory, port: port, bucket: bucket)
                return MotoS3Server(endpoint: "http://127.0.0.1:\(port)", bucket: bucket, prefix: prefix, key: key, port: port,
                                    directory: directory, process: process)
            } catch {
                try? FileManager.default.removeItem(at: directory)
                lastError = error
            }
        }
        throw lastError
    }

    /// Starts the script and waits for its JSON line; on failure the process is gone.
    private static func launch(directory: URL, port: Int, bucket: String) async throws -> (Process, (String, String)) {
        let out = directory.appendingPathComponent("stdout.log"), err = directory.appendingPathComponent("stderr.log")
        FileManager.default.createFile(atPath: out.path, contents: nil)
        FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // As for reel serve: unblock the signals the Swift runtime's threads block, so timeout forwards SIGTERM.
        process.arguments = ["--default-signal=TERM,INT,HUP,QUIT,ALRM,CHLD", "timeout", "--kill-after=5", "300", python,
                             packageRoot.appendingPathComponent("scripts/moto-s3.py").path, String(port), bucket]
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            if let line = (try? String(contentsOf: out, encoding: .utf8))?.split(separator: "\n").first,
               let json = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
               let id = json["accessKeyId"] as? String, let secret = json["secretAccessKey"] as? String {
                return (process, (id, secret))
            }
            if !process.isRunning {
                let log = (try? String(contentsOf: err, encoding: .utf8)) ?? ""
                throw Failure.didNotStart("exit \(process.terminationStatus): \(log.split(separator: "\n").suffix(4).joined(separator: " | "))")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        ReelServeOrigin.kill(process)
        throw Failure.didNotStart("no key printed within 30 s")
    }

    /// A GET of `path` below ``baseURL`` without a signature (as a player).
    public func get(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await client.send("GET", URL(string: path.hasPrefix("/") ? String(path.dropFirst()) : path, relativeTo: baseURL)!.absoluteURL)
    }

    /// A HEAD of `path` below ``baseURL`` without a signature.
    public func head(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String]) {
        try await client.send("HEAD", URL(string: path, relativeTo: baseURL)!.absoluteURL)
    }

    /// SIGSTOP to the server (and its `timeout`): it accepts nothing and answers nothing until ``resume()``.
    public func pause() { signalGroup(SIGSTOP) }
    /// SIGCONT: the server goes on with everything it held.
    public func resume() { signalGroup(SIGCONT) }

    private func signalGroup(_ signal: Int32) {
        guard let pid = process.withLock({ $0?.isRunning == true ? $0?.processIdentifier : nil }) else { return }
        if getpgid(pid) == pid { Glibc.kill(-pid, signal) } else { Glibc.kill(pid, signal) }
    }

    /// Stops the server (resumed first, then killed) and removes its folder. Idempotent.
    public func stop() {
        resume()
        guard let running = process.withLock({ value -> Process? in defer { value = nil }; return value }) else { return }
        ReelServeOrigin.kill(running)
        try? FileManager.default.removeItem(at: directory)
    }

    deinit { stop() }
}

/// Runs `body` with a fresh moto; it is always stopped afterwards.
public func withMotoS3<T>(bucket: String = "reel-test", prefix: String = "live", _ body: (MotoS3Server) async throws -> T) async throws -> T {
    let server = try await MotoS3Server.start(bucket: bucket, prefix: prefix)
    defer { server.stop() }
    return try await body(server)
}
