import Foundation
import ReelCore
import ReelHTTP

/// How `reel serve` runs: where it listens, where it stores, and its bounds.
public struct OriginSettings: Sendable {
    /// Address to listen on: an IPv4 or IPv6 literal, or `localhost`.
    public var host: String
    /// Port to listen on; 0 picks a free one (read it back from ``OriginServer/port``).
    public var port: Int
    /// The data folder: `streams/{id}/…` and, by default, the token file live here.
    public var dataDirectory: URL
    /// The token file; `nil` means `token` in the data folder. Created (mode 0600) when missing.
    public var tokenFile: URL?
    /// Where the access log goes.
    public var accessLog: AccessLogDestination
    /// Where the viewer page loads hls.js from, for browsers without HLS of their own;
    /// `nil`: such browsers are told to use another browser or player.
    public var hlsJS: URL?

    /// Simultaneous connections at most; more wait in the listen queue (libmicrohttpd stops
    /// accepting at the limit) until one closes.
    public var maxConnections: Int = 512
    /// Simultaneous connections one address may hold (``trustedProxies`` are not capped);
    /// 0 leaves addresses uncapped.
    public var maxConnectionsPerAddress: Int = 32
    /// Proxies in front (a caching nginx, a CDN's edge) whose `X-Forwarded-For` names the
    /// client: the failed-login cap then counts the client, not the proxy.
    public var trustedProxies: Set<String> = []
    /// Memory per connection, which bounds the request line plus headers (MHD answers a
    /// larger header block with 431) and sizes the upload buffer.
    public var connectionMemoryBytes: Int = 64 * 1024
    /// Seconds without any traffic after which a connection is closed.
    public var idleTimeout: Int = 30
    /// Threads serving connections (each runs its own poll loop over its share of them).
    public var threadCount: Int = max(4, ProcessInfo.processInfo.activeProcessorCount * 2)
    /// Header and upload-rate deadlines, checked by a watchdog once every ``watchdogInterval``.
    public var deadlines = ConnectionDeadlines()
    /// Seconds between watchdog passes.
    public var watchdogInterval: Double = 0.5
    /// Body limit and Content-Length rule of PUT.
    public var uploads = UploadPolicy()
    /// Failed authentications allowed per client address within ``authFailureWindow`` seconds.
    public var maxAuthFailures: Int = 10
    /// Seconds a failed authentication counts.
    public var authFailureWindow: Double = 60
    /// Bytes of ready responses kept in memory (``ResponseCache``: playlists, init and media
    /// segments up to ``responseCacheFileBytes``); 0 keeps none. Bodies still being sent after
    /// they were dropped count too, up to twice this in all.
    public var responseCacheBytes: Int = 32 << 20
    /// Most responses kept.
    public var responseCacheEntries: Int = 1024
    /// Largest file whose responses are kept; larger ones, and ranges, are sent from the file
    /// (sendfile).
    public var responseCacheFileBytes: Int = 2 << 20
    /// Largest playlist compressed for a client; larger ones are sent as they are. Each
    /// version is compressed by one request at a time (at most two at once), and its gzip
    /// answer is kept when the compressed bytes fit ``responseCacheFileBytes``.
    public var maxCompressedFileBytes: Int = 64 << 20
    /// Seconds a shutdown waits for requests in flight before closing their connections.
    public var shutdownGrace: Double = 10

    /// Where the access log lines go.
    public typealias AccessLogDestination = ReelHTTP.AccessLogDestination

    /// Settings with the defaults above.
    public init(host: String = "127.0.0.1", port: Int = 8080, dataDirectory: URL = OriginSettings.defaultDataDirectory(),
                tokenFile: URL? = nil, accessLog: AccessLogDestination = .standardOutput) {
        self.host = host
        self.port = port
        self.dataDirectory = dataDirectory
        self.tokenFile = tokenFile
        self.accessLog = accessLog
    }

    /// The HTTP server's part: a pool of ``threadCount`` poll loops.
    var http: HTTPServerSettings {
        var http = HTTPServerSettings(host: host, port: port, accessLog: accessLog, threading: .pool(threads: threadCount),
                                      maxConnections: maxConnections, messagePrefix: "reel serve")
        http.maxConnectionsPerAddress = maxConnectionsPerAddress
        http.forwarding = ForwardedClient(trustedProxies: trustedProxies)
        http.connectionMemoryBytes = connectionMemoryBytes
        http.idleTimeout = idleTimeout
        http.deadlines = deadlines
        http.watchdogInterval = watchdogInterval
        http.shutdownGrace = shutdownGrace
        return http
    }

    /// The token file actually used.
    public var resolvedTokenFile: URL { tokenFile ?? dataDirectory.appendingPathComponent("token") }

    /// `$XDG_DATA_HOME/reel/origin`, default `~/.local/share/reel/origin`.
    public static func defaultDataDirectory() -> URL {
        let folders = XDGDirectories(environment: ProcessInfo.processInfo.environment, accountHome: NSHomeDirectory())
        return URL(fileURLWithPath: folders.data).appendingPathComponent("reel/origin")
    }
}
