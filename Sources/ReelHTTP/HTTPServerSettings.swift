import Foundation
import ReelCore

/// Where an ``HTTPServer`` listens and its bounds: the part of a server's settings that is
/// libmicrohttpd's, shared by the origin (`reel serve`) and the studio (`reel studio`).
public struct HTTPServerSettings: Sendable {
    /// Address to listen on: an IPv4 or IPv6 literal, or `localhost`.
    public var host: String
    /// Port to listen on; 0 picks a free one (read it back from ``HTTPServer/port``).
    public var port: Int
    /// Where the access log goes.
    public var accessLog: AccessLogDestination
    /// How connections get threads.
    public var threading: Threading
    /// Simultaneous connections served at most; more wait in the listen queue (libmicrohttpd
    /// stops accepting at the limit) until one closes. With
    /// ``ConnectionDeadlines/evictWhenFull`` the watchdog holds this bound itself (pushing out
    /// or refusing a newcomer) and libmicrohttpd's limit is larger: ``libraryConnectionLimit``.
    public var maxConnections: Int
    /// Simultaneous connections one address may hold (trusted proxies excepted); 0 leaves
    /// addresses uncapped.
    public var maxConnectionsPerAddress: Int = 0
    /// The proxies whose `X-Forwarded-For` names the client (``ReelCore/ForwardedClient``).
    public var forwarding = ForwardedClient()
    /// Memory per connection, which bounds the request line plus headers (MHD answers a
    /// larger header block with 431) and sizes the upload buffer.
    public var connectionMemoryBytes: Int = 64 * 1024
    /// Seconds without any traffic after which a connection is closed.
    public var idleTimeout: Int = 30
    /// Header and upload-rate deadlines, checked by a watchdog once every ``watchdogInterval``.
    public var deadlines = ConnectionDeadlines()
    /// Seconds between watchdog passes.
    public var watchdogInterval: Double = 0.5
    /// Requests held at once at most (``HTTPStart/hold(key:until:)``); beyond, a request's wait
    /// is over at once.
    public var maxHeldRequests: Int = 8192
    /// Seconds a shutdown waits for requests in flight before closing their connections.
    public var shutdownGrace: Double = 10
    /// Headers every answer carries (those it does not set itself), the refusals the server
    /// makes without the service included (the studio's security headers).
    public var responseHeaders: [(String, String)] = []
    /// The program's name in messages on standard error (`reel serve`).
    public var messagePrefix: String

    /// How libmicrohttpd gives connections threads.
    public enum Threading: Sendable, Hashable {
        /// A pool of threads, each with its own poll loop over its share of the connections:
        /// many clients, short answers (the origin).
        case pool(threads: Int)
        /// A thread for each connection: few clients, and answers that may wait (server-sent
        /// events, whose stream blocks between events; the studio).
        case perConnection
    }

    /// libmicrohttpd's own connection limit. With ``ConnectionDeadlines/evictWhenFull`` a
    /// connection pushed out is only shut down by the watchdog, and counts against
    /// libmicrohttpd's limit until its thread has closed it: half again (at least 8) more than
    /// ``maxConnections`` lets a burst of that many newcomers in while the pushed-out ones are
    /// still closing, however slowly their threads run. Otherwise ``maxConnections``.
    public var libraryConnectionLimit: Int {
        deadlines.evictWhenFull ? maxConnections + max(8, maxConnections / 2) : maxConnections
    }

    public init(host: String, port: Int, accessLog: AccessLogDestination, threading: Threading, maxConnections: Int,
                messagePrefix: String) {
        self.host = host
        self.port = port
        self.accessLog = accessLog
        self.threading = threading
        self.maxConnections = maxConnections
        self.messagePrefix = messagePrefix
    }
}
