import CMicroHTTPD
import Foundation
import ReelCore
import ReelRuntime
import Synchronization

/// Reel's origin: stores the publisher's PUTs and serves HLS to players, on libmicrohttpd.
///
/// libmicrohttpd runs a pool of threads (``OriginSettings/threadCount``), each with its own
/// poll loop, and calls this server back for every request. (Poll, not epoll: libmicrohttpd
/// 0.9.75's edge-triggered epoll mode can miss a client's end of stream that arrives with the
/// request, leaving the connection open until a timeout; poll sees it every time.) The C callbacks receive the
/// server as an unretained pointer; ``start()`` retains the server until ``stop()`` has
/// stopped the daemon, so no callback can outlive it. Each request carries a
/// ``RequestContext`` (see there for its lifetime).
///
/// ```swift
/// let server = try OriginServer(settings: OriginSettings(port: 0, dataDirectory: folder))
/// try server.start()
/// print(server.baseURL)          // http://127.0.0.1:41234/
/// …
/// server.stop()                  // in-flight requests finish first
/// ```
public final class OriginServer: Sendable {
    /// The settings it was made with.
    public let settings: OriginSettings
    /// The token PUT and DELETE must carry.
    public let token: OriginToken
    /// What loading the token file found (created now or read, a permissions warning).
    public let tokenFile: OriginTokenFile.Loaded
    /// The data folder.
    public let store: OriginStore

    let log: AccessLog
    let cache: ResponseCache
    let watchdog: ConnectionWatchdog
    let limiter: Locked<AuthFailureLimiter>
    private let daemon = Locked<OpaquePointer?>(nil)
    private let boundPort = Atomic<Int>(0)
    private let inFlight = InFlightCounter()
    private let startedAt = Date()
    /// libmicrohttpd's messages come here (``libraryMessage(_:)``); freed with the server.
    nonisolated(unsafe) private let logger: UnsafeMutablePointer<reel_mhd_logger>
    private let starting = Atomic<Bool>(false)
    private let startMessages = Locked<[String]>([])

    /// Opens the data folder, loads or creates the token and opens the access log. Nothing
    /// listens until ``start()``.
    public init(settings: OriginSettings) throws {
        _ = try Self.socketAddress(host: settings.host, port: settings.port)  // refuse a bad address before creating files
        self.settings = settings
        store = try OriginStore(directory: settings.dataDirectory)
        tokenFile = try OriginTokenFile.loadOrCreate(at: settings.resolvedTokenFile)
        token = tokenFile.token
        log = try AccessLog(settings.accessLog)
        cache = ResponseCache(maxBytes: settings.responseCacheBytes, maxEntries: settings.responseCacheEntries,
                              maxFileBytes: settings.responseCacheFileBytes)
        watchdog = ConnectionWatchdog(deadlines: settings.deadlines, interval: settings.watchdogInterval)
        limiter = Locked(AuthFailureLimiter(maxFailures: settings.maxAuthFailures, window: settings.authFailureWindow))
        logger = .allocate(capacity: 1)
        logger.initialize(to: reel_mhd_logger(log: originLibraryMessage, context: nil))
    }

    deinit { logger.deallocate() }

    /// The port it listens on (the real one when the settings asked for 0); 0 before ``start()``.
    public var port: Int { boundPort.load(ordering: .relaxed) }

    /// `http://HOST:PORT/`.
    public var baseURL: URL {
        let host = settings.host.contains(":") ? "[\(settings.host)]" : settings.host
        return URL(string: "http://\(host):\(port)/")!
    }

    /// Requests between their headers and their completion right now.
    public var requestsInFlight: Int { inFlight.value }

    /// Connections the watchdog dropped for missing a deadline.
    public var droppedConnections: Int { watchdog.dropped }

    /// Seconds since the server was made.
    var uptime: Double { Date().timeIntervalSince(startedAt) }

    /// Binds and starts serving.
    public func start() throws(Error) {
        try daemon.withLock { (daemon: inout OpaquePointer?) throws(Error) in
            guard daemon == nil else { return }
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_USE_ERROR_LOG.rawValue
            let address = try Self.socketAddress(host: settings.host, port: settings.port)
            if address.count == MemoryLayout<sockaddr_in6>.size { flags |= MHD_USE_IPv6.rawValue }
            let context = Unmanaged.passRetained(self).toOpaque()
            logger.pointee.context = context
            starting.store(true, ordering: .relaxed)
            startMessages.withLock { $0.removeAll() }
            var code: Int32 = 0
            let started: OpaquePointer? = address.withUnsafeBytes { raw in
                var options = reel_mhd_settings(
                    flags: flags, address: raw.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    connection_limit: UInt32(settings.maxConnections), memory_limit: settings.connectionMemoryBytes,
                    connection_timeout: UInt32(settings.idleTimeout), thread_pool_size: UInt32(settings.threadCount),
                    listen_backlog: 512,
                    access_handler: originAccessHandler, access_context: context,
                    completed: originRequestCompleted, completed_context: context,
                    notify_connection: originConnectionNotified, notify_context: context, logger: logger)
                let made = reel_mhd_start(&options)
                code = made == nil ? errno : 0
                return made
            }
            starting.store(false, ordering: .relaxed)
            guard let started else {
                let messages = startMessages.withLock { $0 }
                Unmanaged<OriginServer>.fromOpaque(context).release()
                throw .cannotListen(host: settings.host, port: settings.port, code: code, detail: messages.last)
            }
            daemon = started
            boundPort.store(Int(reel_mhd_bound_port(started)), ordering: .relaxed)
            watchdog.run()
        }
    }

    /// A message of libmicrohttpd's own: kept for the error while starting (its bind failure
    /// names port 0, since the address is passed as a sockaddr; Reel words that itself), on
    /// standard error once running.
    func libraryMessage(_ text: String) {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if starting.load(ordering: .relaxed) {
            startMessages.withLock { $0.append(line) }
        } else {
            FileHandle.standardError.write(Data("reel serve: libmicrohttpd: \(line)\n".utf8))
        }
    }

    /// Stops gracefully: no new connections are accepted, requests in flight get up to
    /// ``OriginSettings/shutdownGrace`` seconds to finish, then every connection is closed.
    /// Blocks until the daemon is gone. Idempotent.
    public func stop() {
        guard let running = daemon.withLock({ value -> OpaquePointer? in defer { value = nil }; return value }) else { return }
        let listening = MHD_quiesce_daemon(running)
        if listening >= 0 { close(listening) }
        inFlight.wait(untilZeroOr: settings.shutdownGrace)
        MHD_stop_daemon(running)
        watchdog.stop()
        Unmanaged.passUnretained(self).release()
    }

    // MARK: Callbacks (on libmicrohttpd's threads)

    func accessHandler(connection: OpaquePointer, url: String, method: String, uploadData: UnsafePointer<CChar>?,
                       uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        guard let raw = requestContext.pointee else {
            // First call: the headers are complete, no body byte has been read yet. A PUT is
            // judged now, so a refused one (401, 403, 411, 413, 429) never has its body read;
            // so is any other request that declares a body. Everything else is answered on
            // the next call, once libmicrohttpd has the whole request: an answer queued
            // during the first call makes libmicrohttpd close the connection afterwards.
            let context = RequestContext(method: method, path: url, client: Self.clientAddress(connection), connection: key,
                                         started: watchdog.now)
            requestContext.pointee = Unmanaged.passRetained(context).toOpaque()
            inFlight.enter()
            let declaresBody = header(connection, "Transfer-Encoding") != nil
                || (header(connection, "Content-Length").map { $0.trimmingCharacters(in: .whitespaces) != "0" } ?? false)
            guard method == "PUT" || declaresBody else {
                watchdog.requestStarted(key, uploading: false)
                return .YES
            }
            switch begin(context, connection: connection) {
            case .respond(let response):
                watchdog.requestStarted(key, uploading: false)
                return queue(response, context: context, connection: connection)
            case .receive(let upload):
                context.upload = upload
                watchdog.requestStarted(key, uploading: true)
                return .YES
            }
        }
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeUnretainedValue()
        if context.responded {
            uploadSize.pointee = 0
            return .YES
        }
        guard let upload = context.upload else {
            // A request without a body: the whole request is in, answer it.
            switch begin(context, connection: connection) {
            case .respond(let response):
                return queue(response, context: context, connection: connection)
            case .receive(let upload):
                // Cannot happen (only PUT receives, and PUT was judged in the first call).
                upload.discard()
                return queue(.text(500, "unexpected upload"), context: context, connection: connection)
            }
        }
        if uploadSize.pointee > 0, let uploadData {
            upload.write(uploadData, count: uploadSize.pointee)
            watchdog.uploaded(key, total: upload.received)
            uploadSize.pointee = 0
            return .YES
        }
        // The whole body is in.
        watchdog.responding(key)
        return queue(finishUpload(upload, context: context), context: context, connection: connection)
    }

    func requestCompleted(connection: OpaquePointer?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                          code: MHD_RequestTerminationCode) {
        if let connection { watchdog.requestEnded(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))) }
        guard let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        let context = Unmanaged<RequestContext>.fromOpaque(raw).takeRetainedValue()
        context.upload?.discard()
        context.upload = nil
        inFlight.leave()
        let note: String? = switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK: nil
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "shutdown"
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: "client-abort"
        default: "error"
        }
        log.record(AccessLogEntry(time: Date(), client: context.client, method: context.method, path: context.path,
                                  status: context.status, bytes: context.bytes, duration: watchdog.now - context.started, note: note))
    }

    func connectionNotified(connection: OpaquePointer?, code: MHD_ConnectionNotificationCode) {
        guard let connection else { return }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        if code == .CONNECTION_NOTIFY_STARTED {
            watchdog.opened(key, fd: reel_mhd_connection_fd(connection))
        } else {
            watchdog.closed(key)
        }
    }

    /// Hands `response` to libmicrohttpd and records what was sent.
    func queue(_ response: OriginResponse, context: RequestContext, connection: OpaquePointer) -> MHD_Result {
        context.status = response.status
        context.bytes = context.method == "HEAD" ? 0 : response.bodyCount
        let made: OpaquePointer?
        switch response.body {
        case .prepared(let ready):
            // libmicrohttpd takes its own reference: the response outlives the cache's.
            return MHD_queue_response(connection, UInt32(ready.status), ready.pointer)
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        case .file(let fd, let offset, let count):
            made = MHD_create_response_from_fd_at_offset64(UInt64(count), fd, UInt64(offset))
            if made == nil { close(fd) }
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        for (name, value) in response.headers {
            MHD_add_response_header(made, name, value)
        }
        if response.status >= 500, case .bytes(let bytes) = response.body {
            // A server-side failure (disk full, I/O error): say why on standard error too.
            let reason = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            FileHandle.standardError.write(Data("reel serve: \(context.method) \(AccessLogEntry.escaped(context.path)) failed: \(reason)\n".utf8))
        }
        return MHD_queue_response(connection, UInt32(response.status), made)
    }

    func header(_ connection: OpaquePointer, _ name: String) -> String? {
        MHD_lookup_connection_value(connection, .HEADER_KIND, name).map { String(cString: $0) }
    }

    // MARK: Addresses

    static func socketAddress(host: String, port: Int) throws(Error) -> [UInt8] {
        guard (0...65535).contains(port) else { throw .invalidPort(port) }
        let literal = host == "localhost" ? "127.0.0.1" : host
        var v4 = sockaddr_in()
        if inet_pton(AF_INET, literal, &v4.sin_addr) == 1 {
            v4.sin_family = sa_family_t(AF_INET)
            v4.sin_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafeBytes(of: v4) { Array($0) }
        }
        var v6 = sockaddr_in6()
        let unbracketed = literal.hasPrefix("[") && literal.hasSuffix("]") ? String(literal.dropFirst().dropLast()) : literal
        if inet_pton(AF_INET6, unbracketed, &v6.sin6_addr) == 1 {
            v6.sin6_family = sa_family_t(AF_INET6)
            v6.sin6_port = in_port_t(UInt16(port).bigEndian)
            return withUnsafeBytes(of: v6) { Array($0) }
        }
        throw .invalidHost(host)
    }

    static func clientAddress(_ connection: OpaquePointer) -> String {
        guard let address = reel_mhd_client_address(connection) else { return "-" }
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            // Dotted quad by hand: this runs for every request.
            let value = UInt32(bigEndian: UnsafeRawPointer(address).load(as: sockaddr_in.self).sin_addr.s_addr)
            var text: [UInt8] = []
            text.reserveCapacity(15)
            for shift in stride(from: 24, through: 0, by: -8) {
                if shift != 24 { text.append(UInt8(ascii: ".")) }
                TimestampFormat.appendDecimal(UInt64(value >> UInt32(shift) & 0xFF), to: &text)
            }
            return String(decoding: text, as: UTF8.self)
        case AF_INET6:
            var value = UnsafeRawPointer(address).load(as: sockaddr_in6.self).sin6_addr
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN) + 1) { text in
                guard inet_ntop(AF_INET6, &value, text.baseAddress, socklen_t(text.count)) != nil else { return "-" }
                return String(cString: text.baseAddress!)
            }
        default:
            return "-"
        }
    }

    /// Why the server could not start.
    public enum Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The host is not an IP address (or `localhost`).
        case invalidHost(String)
        /// The port is not from 0 to 65535.
        case invalidPort(Int)
        /// Binding or starting the daemon failed: `code` is the errno (the port is taken, the
        /// address is not this machine's, no permission, …), `detail` libmicrohttpd's last word.
        case cannotListen(host: String, port: Int, code: Int32, detail: String?)
        /// The access log file cannot be opened.
        case accessLog(String, String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidHost(let host):
                "cannot listen on '\(host)': --host must be an IP address of this machine (127.0.0.1 or ::1 for this machine "
                    + "only, 0.0.0.0 or :: for every interface) or localhost; host names are not looked up"
            case .invalidPort(let port):
                "cannot listen on port \(port): give --port from 0 to 65535 (0 picks a free one)"
            case .cannotListen(let host, let port, let code, let detail):
                Self.listenFailure(host: host, port: port, code: code, detail: detail)
            case .accessLog(let path, let reason):
                "cannot open the access log \(path): \(reason); give --access-log a file in a folder you can write, '-' or 'none'"
            }
        }

        static func listenFailure(host: String, port: Int, code: Int32, detail: String?) -> String {
            let address = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
            switch code {
            case EADDRINUSE:
                return "cannot listen on \(address): port \(port) is already in use by another program; stop it, "
                    + "or pick another port with --port (0 picks a free one)"
            case EADDRNOTAVAIL:
                return "cannot listen on \(address): \(host) is not an address of this machine; give --host as one of its "
                    + "addresses ('ip -brief address' lists them), 127.0.0.1 for this machine only, or 0.0.0.0 for every interface"
            case EACCES where port < 1024, EPERM where port < 1024:
                return "cannot listen on \(address): ports below 1024 need root or CAP_NET_BIND_SERVICE; "
                    + "pick a port from 1024 with --port"
            case EAFNOSUPPORT:
                return "cannot listen on \(address): this machine has no IPv6; give an IPv4 --host such as 127.0.0.1 or 0.0.0.0"
            default:
                let reason = code != 0 ? ErrorSentence.posix(code) : (detail ?? "libmicrohttpd could not start")
                return "cannot listen on \(address): \(reason); check --host and --port"
            }
        }
    }
}

// MARK: C entry points: no captures, the server comes back through the context pointer.

private let originAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, _, uploadData, uploadSize, conCls in
    guard let cls, let connection, let url, let method, let uploadSize, let conCls else { return .NO }
    let server = Unmanaged<OriginServer>.fromOpaque(cls).takeUnretainedValue()
    return server.accessHandler(connection: connection, url: String(cString: url), method: String(cString: method),
                                uploadData: uploadData, uploadSize: uploadSize, requestContext: conCls)
}

private let originRequestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, code in
    guard let cls else { return }
    Unmanaged<OriginServer>.fromOpaque(cls).takeUnretainedValue().requestCompleted(connection: connection, requestContext: conCls, code: code)
}

private let originLibraryMessage: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, message in
    guard let cls, let message else { return }
    Unmanaged<OriginServer>.fromOpaque(cls).takeUnretainedValue().libraryMessage(String(cString: message))
}

private let originConnectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls else { return }
    Unmanaged<OriginServer>.fromOpaque(cls).takeUnretainedValue().connectionNotified(connection: connection, code: code)
}
