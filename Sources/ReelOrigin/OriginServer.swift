import Foundation
import ReelCore
import ReelHTTP
import ReelRuntime

/// Reel's origin: stores the publisher's PUTs and serves HLS to players, an ``HTTPService``
/// on ReelHTTP's libmicrohttpd server (a pool of poll loops, ``OriginSettings/threadCount``).
///
/// ```swift
/// let server = try OriginServer(settings: OriginSettings(port: 0, dataDirectory: folder))
/// try server.start()
/// print(server.baseURL)          // http://127.0.0.1:41234/
/// …
/// server.stop()                  // in-flight requests finish first
/// ```
public final class OriginServer: HTTPService {
    /// Why the server could not start.
    public typealias Error = HTTPServer.Error

    /// The settings it was made with.
    public let settings: OriginSettings
    /// The token PUT and DELETE must carry.
    public let token: OriginToken
    /// What loading the token file found (created now or read, a permissions warning).
    public let tokenFile: OriginTokenFile.Loaded
    /// The data folder.
    public let store: OriginStore

    let http: HTTPServer
    let cache: ResponseCache
    let limiter: Locked<AuthFailureLimiter>
    private let startedAt = Date()

    /// Opens the data folder, loads or creates the token and opens the access log. Nothing
    /// listens until ``start()``.
    public init(settings: OriginSettings) throws {
        _ = try HTTPServer.socketAddress(host: settings.host, port: settings.port)  // refuse a bad address before creating files
        self.settings = settings
        store = try OriginStore(directory: settings.dataDirectory)
        tokenFile = try OriginTokenFile.loadOrCreate(at: settings.resolvedTokenFile)
        token = tokenFile.token
        http = try HTTPServer(settings: settings.http)
        cache = ResponseCache(maxBytes: settings.responseCacheBytes, maxEntries: settings.responseCacheEntries,
                              maxFileBytes: settings.responseCacheFileBytes)
        limiter = Locked(AuthFailureLimiter(maxFailures: settings.maxAuthFailures, window: settings.authFailureWindow))
    }

    /// The port it listens on (the real one when the settings asked for 0); 0 before ``start()``.
    public var port: Int { http.port }

    /// `http://HOST:PORT/`.
    public var baseURL: URL { http.baseURL }

    /// Requests between their headers and their completion right now.
    public var requestsInFlight: Int { http.requestsInFlight }

    /// Connections the watchdog dropped for missing a deadline.
    public var droppedConnections: Int { http.droppedConnections }

    /// Connections shut as they opened because their address held its share.
    public var refusedConnections: Int { http.refusedConnections }

    /// Seconds since the server was made.
    var uptime: Double { Date().timeIntervalSince(startedAt) }

    /// Binds and starts serving.
    public func start() throws(Error) {
        try http.start(serving: self)
    }

    /// Stops gracefully: no new connections are accepted, requests in flight get up to
    /// ``OriginSettings/shutdownGrace`` seconds to finish, then every connection is closed.
    /// Blocks until the daemon is gone. Idempotent.
    public func stop() {
        http.stop()
    }

    // MARK: HTTPService (on libmicrohttpd's threads)

    public func libraryMessage(_ line: String) {
        FileHandle.standardError.write(Data("reel serve: libmicrohttpd: \(line)\n".utf8))
    }

    /// A server-side failure (disk full, I/O error): say why on standard error too.
    public func failed(_ request: HTTPRequest, reason: String) {
        FileHandle.standardError.write(Data("reel serve: \(request.method) \(AccessLogEntry.escaped(request.path)) failed: \(reason)\n".utf8))
    }
}
