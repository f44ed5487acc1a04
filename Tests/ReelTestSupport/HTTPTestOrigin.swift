import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The origins `reel live` is tested against: Debian's nginx as a WebDAV PUT origin, and
/// Reel's own `reel serve`. Tests that are about publishing take one as an argument
/// (`@Test(arguments: OriginKind.allCases)`), so each runs against both real servers.
public enum OriginKind: String, CaseIterable, Sendable, CustomStringConvertible {
    case nginx
    case reelServe

    public var description: String {
        switch self {
        case .nginx: "nginx"
        case .reelServe: "reel serve"
        }
    }
}

/// A server players read a stream from over plain HTTP: an origin, or a bucket (``MotoS3Server``).
public protocol HTTPReadableOrigin: AnyObject, Sendable {
    /// Where stream paths are resolved: `http://127.0.0.1:PORT/` (a bucket: `…/BUCKET/PREFIX/`).
    var baseURL: URL { get }
    /// A GET of `path` (relative to ``baseURL``), with no cache anywhere.
    func get(_ path: String) async throws -> (status: Int, body: Data, headers: [String: String])
}

/// A real HTTP origin running on loopback for a test: it stores PUTs and serves GETs, and can
/// be stopped and started again on the same port with the same files (an outage).
public protocol HTTPTestOrigin: HTTPReadableOrigin {
    /// Which server this is.
    var kind: OriginKind { get }
    /// The bearer token PUTs must carry; `nil` when the origin takes PUTs from anyone.
    var uploadToken: String? { get }
    /// Stops the server and waits until it is gone. Idempotent.
    func stop() async
    /// Starts the server again on the same port, with the same files (and token).
    func restart() async throws
    /// Removes the origin's files (after ``stop()``).
    func removeFiles()
}

/// Runs `body` with an origin `start` made; the origin is always stopped and its files
/// removed afterwards, whether `body` returned or threw.
public func withStartedOrigin<Origin: HTTPTestOrigin, T>(_ start: () async throws -> Origin,
                                                         _ body: (Origin) async throws -> T) async throws -> T {
    let origin = try await start()
    do {
        let result = try await body(origin)
        await origin.stop()
        origin.removeFiles()
        return result
    } catch {
        await origin.stop()
        origin.removeFiles()
        throw error
    }
}

extension HTTPTestOrigin {
    /// `--origin URL`, and `--token TOKEN` when the origin wants one: what `reel live` needs.
    public var liveArguments: [String] {
        ["--origin", baseURL.absoluteString] + (uploadToken.map { ["--token", $0] } ?? [])
    }
}

/// A URLSession for tests' own requests to a loopback server: no cache, short timeouts.
public final class TestHTTPClient: Sendable {
    private let session: URLSession
    private let deadline: TimeInterval

    /// The whole exchange took longer than the client's deadline (URLSession's own timeouts
    /// did not end it).
    public struct NoAnswer: Error, CustomStringConvertible {
        public let url: URL
        public let seconds: TimeInterval
        public var description: String { "no answer from \(url.absoluteString) within \(Int(seconds)) s" }
    }

    /// A client whose requests fail after `timeout` seconds without progress, and after
    /// `deadline` (default 12 × `timeout`, at least a minute) in all whatever happens: a test
    /// never waits for ever on a server.
    public init(timeout: TimeInterval = 5, deadline: TimeInterval? = nil) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        session = URLSession(configuration: configuration)
        self.deadline = deadline ?? max(60, timeout * 12)
    }

    /// Sends `method` to `url` with `body` and `headers`; returns the status, the body and the
    /// headers (names lowercased).
    public func send(_ method: String, _ url: URL, body: Data? = nil, headers: [String: String] = [:]) async throws
        -> (status: Int, body: Data, headers: [String: String]) {
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if let body { request.setValue(String(body.count), forHTTPHeaderField: "Content-Length") }
        let (data, response) = try await exchange(request, body: body)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        var names: [String: String] = [:]
        for (key, value) in http.allHeaderFields {
            if let key = key as? String, let value = value as? String { names[key.lowercased()] = value }
        }
        return (http.statusCode, data, names)
    }

    /// One exchange through a completion-handler task, answered exactly once: by URLSession,
    /// or by the deadline (which cancels the task). Cancelling the caller cancels the task.
    private func exchange(_ request: URLRequest, body: Data?) async throws -> (Data, URLResponse) {
        let once = Once<Result<(Data, URLResponse), any Error>>()
        let completion: @Sendable (Data?, URLResponse?, (any Error)?) -> Void = { data, response, error in
            if let response { once.answer(.success((data ?? Data(), response))) } else {
                once.answer(.failure(error ?? URLError(.badServerResponse)))
            }
        }
        let task = body.map { session.uploadTask(with: request, from: $0, completionHandler: completion) }
            ?? session.dataTask(with: request, completionHandler: completion)
        let url = request.url!, seconds = deadline
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                once.onAnswer { continuation.resume(with: $0) }
                task.resume()
                DispatchQueue.global().asyncAfter(deadline: .now() + seconds) {
                    // The answer first: cancelling may call the completion handler at once, on
                    // another thread, with "cancelled", which must not win the race.
                    once.answer(.failure(NoAnswer(url: url, seconds: seconds)))
                    task.cancel()
                }
            }
        } onCancel: {
            task.cancel()
        }
    }

    /// The first answer wins; later ones are dropped.
    private final class Once<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var handler: ((Value) -> Void)?
        private var answered = false
        func onAnswer(_ body: @escaping (Value) -> Void) { lock.withLock { handler = body } }
        func answer(_ value: Value) {
            let handler: ((Value) -> Void)? = lock.withLock {
                guard !answered else { return nil }
                answered = true
                return self.handler
            }
            handler?(value)
        }
    }

    deinit { session.invalidateAndCancel() }
}
