import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A slow link between a player and an origin, for ABR tests: `Tests/Fixtures/throttle-proxy/
/// throttle_proxy.py` (Python 3 standard library) on a loopback port, forwarding every request
/// to `upstreamPort` unchanged and pacing the answers' bytes to a rate the test changes while
/// the player runs (``setRate(bitsPerSecond:)``; 0 = unthrottled). One link shared by all
/// connections; see the script's header for framing and bounds.
///
/// The proxy picks its own port and says which on standard output, so there is no race for a
/// port; it exits by itself after `maxSeconds` even if a crashed test run leaves it behind.
public final class ThrottleProxy: @unchecked Sendable {
    /// The proxy did not start, or refused a rate.
    public struct Failure: Error, CustomStringConvertible {
        public var description: String
    }

    /// The script in the repository.
    public static let scriptPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/throttle-proxy/throttle_proxy.py").path

    private let process: LineWatchedProcess
    private let client = TestHTTPClient(timeout: 5)
    private let stopped = Mutex(false)
    /// The proxy's port on 127.0.0.1.
    public let port: Int
    /// `http://127.0.0.1:PORT/`.
    public var baseURL: URL { URL(string: "http://127.0.0.1:\(port)/")! }

    /// Starts the proxy in front of 127.0.0.1:`upstreamPort` at `bitsPerSecond` (0 = unthrottled)
    /// and returns once it accepts connections.
    public init(upstreamPort: Int, bitsPerSecond: Int = 0, maxSeconds: Int = 900) async throws {
        process = try LineWatchedProcess("/usr/bin/python3", [
            Self.scriptPath, "--upstream-port", String(upstreamPort), "--port", "0", "--bps", String(bitsPerSecond),
            "--max-seconds", String(maxSeconds)])
        let prefix = "listening on 127.0.0.1:"
        guard let line = await process.waitForLine(timeout: .seconds(15), where: { $0.hasPrefix(prefix) }),
              let port = Int(line.dropFirst(prefix.count)) else {
            process.send(SIGKILL)
            let output = await process.wait(timeout: .seconds(2))
            throw Failure(description: "throttle_proxy.py did not start: \(output.stdout) \(output.stderr)")
        }
        self.port = port
    }

    deinit { stop() }

    /// Kills the proxy. Idempotent.
    public func stop() {
        guard stopped.withLock({ value in defer { value = true }; return !value }) else { return }
        process.send(SIGKILL)
    }

    /// From now on the link carries `bitsPerSecond` (0 = unthrottled), transfers under way included.
    public func setRate(bitsPerSecond: Int) async throws {
        let answer = try await client.send("POST", URL(string: "__rate?bps=\(bitsPerSecond)", relativeTo: baseURL)!.absoluteURL)
        guard answer.status == 200 else {
            throw Failure(description: "POST /__rate?bps=\(bitsPerSecond): \(answer.status) \(String(decoding: answer.body, as: UTF8.self))")
        }
    }

    /// The last 500 requests it forwarded, one a line: "T_MS METHOD TARGET STATUS BYTES DURATION_MS BPS".
    public func log() async -> String {
        guard let answer = try? await client.send("GET", URL(string: "__log", relativeTo: baseURL)!.absoluteURL) else { return "(no log)" }
        return String(decoding: answer.body, as: UTF8.self)
    }
}
