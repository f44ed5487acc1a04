import CMicroHTTPD
import Foundation
import ReelCore
import ReelRuntime
import Synchronization

/// An HTTP server on libmicrohttpd that answers with an ``HTTPService``: the daemon, its
/// bounds (connections, memory, idle timeout, the header and upload-rate deadlines of
/// ``ConnectionWatchdog``), the access log and a graceful stop. Reel's origin and studio are
/// services on it.
///
/// libmicrohttpd calls back on its own threads (``HTTPServerSettings/Threading``: a pool of
/// poll loops, or a thread per connection). Poll, not epoll: libmicrohttpd 0.9.75's
/// edge-triggered epoll mode can miss a client's end of stream that arrives with the request,
/// leaving the connection open until a timeout; poll sees it every time. The C callbacks
/// receive the server as an unretained pointer; ``start(serving:)`` retains the server and the
/// service until ``stop()`` has stopped the daemon, so no callback can outlive either. Each
/// request carries an ``HTTPRequest`` (see there for its lifetime).
public final class HTTPServer: Sendable {
    /// The settings it was made with.
    public let settings: HTTPServerSettings

    let log: AccessLog
    let watchdog: ConnectionWatchdog
    private let daemon = Locked<OpaquePointer?>(nil)
    private let boundPort = Atomic<Int>(0)
    private let inFlight = InFlightCounter()
    /// The service while the daemon runs: set before the daemon starts (so before any of its
    /// threads exists) and cleared after it stopped (its threads joined).
    nonisolated(unsafe) private var service: (any HTTPService)?
    /// Streams being sent, closed when the server stops (their reads may be waiting).
    private let streams = Locked<[ObjectIdentifier: any HTTPStream]>([:])
    /// libmicrohttpd's messages come here (``libraryMessage(_:)``); freed with the server.
    nonisolated(unsafe) private let logger: UnsafeMutablePointer<reel_mhd_logger>
    private let starting = Atomic<Bool>(false)
    private let startMessages = Locked<[String]>([])
    /// Requests held by their service (``HTTPStart/hold(key:until:)``), connections suspended.
    let holds: HeldRequests
    /// The connection each thread serves, by thread (a thread per connection only; see
    /// ``answerLibraryRefusal(_:)``).
    let connectionThreads = Locked<[UInt: (connection: UInt, answered: Bool)]>([:])

    /// Checks the address and opens the access log. Nothing listens until ``start(serving:)``.
    public init(settings: HTTPServerSettings) throws(Error) {
        _ = try Self.socketAddress(host: settings.host, port: settings.port)
        self.settings = settings
        log = try AccessLog(settings.accessLog)
        watchdog = ConnectionWatchdog(deadlines: settings.deadlines, interval: settings.watchdogInterval,
                                      admission: ConnectionAdmission(maxPerAddress: settings.maxConnectionsPerAddress,
                                                                     exempt: settings.forwarding.trustedProxies),
                                      maxConnections: settings.maxConnections)
        logger = .allocate(capacity: 1)
        logger.initialize(to: reel_mhd_logger(log: httpLibraryMessage, context: nil))
        holds = HeldRequests(limit: settings.maxHeldRequests)
    }

    deinit { logger.deallocate() }

    /// The port it listens on (the real one when the settings asked for 0); 0 before starting.
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

    /// Connections shut as they opened: their address held its share, or (with eviction) the
    /// server was full of connections that had made requests.
    public var refusedConnections: Int { watchdog.refused }

    /// Seconds on the server's monotonic clock (the access log's durations).
    public var now: Double { watchdog.now }

    /// Binds and starts answering with `service`. Does nothing when already running.
    public func start(serving service: any HTTPService) throws(Error) {
        try daemon.withLock { (daemon: inout OpaquePointer?) throws(Error) in
            guard daemon == nil else { return }
            var flags = MHD_USE_INTERNAL_POLLING_THREAD.rawValue | MHD_USE_POLL.rawValue | MHD_USE_ITC.rawValue
                | MHD_USE_ERROR_LOG.rawValue
            var poolSize: UInt32 = 0
            switch settings.threading {
            case .pool(let threads):
                // Held requests (``HTTPStart/hold(key:until:)``) are suspended connections.
                poolSize = UInt32(max(1, threads))
                flags |= MHD_ALLOW_SUSPEND_RESUME.rawValue
            case .perConnection:
                flags |= MHD_USE_THREAD_PER_CONNECTION.rawValue
            }
            let address = try Self.socketAddress(host: settings.host, port: settings.port)
            if address.count == MemoryLayout<sockaddr_in6>.size { flags |= MHD_USE_IPv6.rawValue }
            self.service = service
            let context = Unmanaged.passRetained(self).toOpaque()
            logger.pointee.context = context
            starting.store(true, ordering: .relaxed)
            startMessages.withLock { $0.removeAll() }
            var code: Int32 = 0
            let started: OpaquePointer? = address.withUnsafeBytes { raw in
                var options = reel_mhd_settings(
                    flags: flags, address: raw.baseAddress!.assumingMemoryBound(to: sockaddr.self),
                    connection_limit: UInt32(settings.libraryConnectionLimit), memory_limit: settings.connectionMemoryBytes,
                    connection_timeout: UInt32(settings.idleTimeout), thread_pool_size: poolSize,
                    listen_backlog: 512,
                    access_handler: httpAccessHandler, access_context: context,
                    completed: httpRequestCompleted, completed_context: context,
                    notify_connection: httpConnectionNotified, notify_context: context, logger: logger,
                    request_line: httpRequestLine, request_line_context: context)
                let made = reel_mhd_start(&options)
                code = made == nil ? errno : 0
                return made
            }
            starting.store(false, ordering: .relaxed)
            guard let started else {
                let messages = startMessages.withLock { $0 }
                self.service = nil
                Unmanaged<HTTPServer>.fromOpaque(context).release()
                throw .cannotListen(host: settings.host, port: settings.port, code: code, detail: messages.last)
            }
            daemon = started
            holds.reopen()
            boundPort.store(Int(reel_mhd_bound_port(started)), ordering: .relaxed)
            watchdog.run { [weak self] now in self?.holds.expire(now: now) }
        }
    }

    /// A message of libmicrohttpd's own: kept for the error while starting (its bind failure
    /// names port 0, since the address is passed as a sockaddr; Reel words that itself), the
    /// service's once running.
    func libraryMessage(_ text: String) {
        let line = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if starting.load(ordering: .relaxed) {
            startMessages.withLock { $0.append(line) }
        } else if let service, !isAfterDirectAnswer(line) {
            service.libraryMessage(line)
            _ = answerLibraryRefusal(line)
        }
    }

    /// Stops gracefully: no new connections are accepted, streams are ended, requests in
    /// flight get up to ``HTTPServerSettings/shutdownGrace`` seconds to finish, then every
    /// connection is closed. Blocks until the daemon is gone. Idempotent.
    public func stop() {
        guard let running = daemon.withLock({ value -> OpaquePointer? in defer { value = nil }; return value }) else { return }
        let listening = MHD_quiesce_daemon(running)
        if listening >= 0 { close(listening) }
        for stream in streams.withLock({ Array($0.values) }) { stream.close() }
        holds.releaseAll()  // suspended connections must be resumed before the daemon stops
        inFlight.wait(untilZeroOr: settings.shutdownGrace)
        MHD_stop_daemon(running)
        watchdog.stop()
        service = nil
        Unmanaged.passUnretained(self).release()
    }

    // MARK: Callbacks (on libmicrohttpd's threads)

    func accessHandler(connection: OpaquePointer, url: String, method: String, version: String, hidden: String?, uploadData: UnsafePointer<CChar>?,
                       uploadSize: UnsafeMutablePointer<Int>, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let service else { return .NO }
        guard let raw = requestContext.pointee else {
            // First call: the headers are complete, no body byte has been read yet. A request
            // that declares a body is judged now, so a refused one (400, 401, 403, 411, 413,
            // 429) never has its body read. Everything else is answered on the next call, once
            // libmicrohttpd has the whole request: an answer queued during the first call
            // makes libmicrohttpd close the connection afterwards.
            let peer = Self.clientAddress(connection)
            let client = settings.forwarding.client(peer: peer, forwardedFor: Self.header("X-Forwarded-For", of: connection))
            let request = HTTPRequest(method: method, path: url, client: client, peer: peer, connection: connection,
                                      started: watchdog.now)
            requestContext.pointee = Unmanaged.passRetained(request).toOpaque()
            inFlight.enter()
            if let refusal = hidden.map(RequestFraming.Refusal.init) ?? RequestFraming.check(version: version, headers: Self.headers(of: connection)) {
                watchdog.requestStarted(request.connectionKey, uploading: false)
                return queue(.text(400, "\(refusal)", headers: [("Connection", "close")]), request: request, service: service)
            }
            let declaresBody = request.header("Transfer-Encoding") != nil
                || (request.header("Content-Length").map { $0.trimmingCharacters(in: .whitespaces) != "0" } ?? false)
            guard method == "PUT" || declaresBody else {
                watchdog.requestStarted(request.connectionKey, uploading: false)
                return .YES
            }
            switch service.begin(request) {
            case .respond(let response):
                watchdog.requestStarted(request.connectionKey, uploading: false)
                return queue(response, request: request, service: service)
            case .receive(let upload):
                request.upload = upload
                watchdog.requestStarted(request.connectionKey, uploading: true)
                return .YES
            case .hold:
                // A request with a body is never held.
                watchdog.requestStarted(request.connectionKey, uploading: false)
                return queue(.text(500, "unexpected hold"), request: request, service: service)
            }
        }
        let request = Unmanaged<HTTPRequest>.fromOpaque(raw).takeUnretainedValue()
        if request.responded {
            uploadSize.pointee = 0
            return .YES
        }
        guard let upload = request.upload else {
            // A request without a body: the whole request is in (or a held one was woken),
            // answer it.
            switch service.begin(request) {
            case .respond(let response):
                return queue(response, request: request, service: service)
            case .receive(let upload):
                // A service receives only what was judged in the first call.
                upload.discard()
                return queue(.text(500, "unexpected upload"), request: request, service: service)
            case .hold(let key, let until):
                return hold(request, key: key, until: until, service: service)
            }
        }
        if uploadSize.pointee > 0, let uploadData {
            upload.write(uploadData, count: uploadSize.pointee)
            watchdog.uploaded(request.connectionKey, total: upload.received)
            uploadSize.pointee = 0
            return .YES
        }
        // The whole body is in.
        watchdog.responding(request.connectionKey)
        return queue(service.finishUpload(upload, request: request), request: request, service: service)
    }

    func requestCompleted(connection: OpaquePointer?, requestContext: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
                          code: MHD_RequestTerminationCode) {
        if let connection { watchdog.requestEnded(UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))) }
        guard let requestContext, let raw = requestContext.pointee else { return }
        requestContext.pointee = nil
        let request = Unmanaged<HTTPRequest>.fromOpaque(raw).takeRetainedValue()
        request.upload?.discard()
        request.upload = nil
        inFlight.leave()
        let note: String? = switch code {
        case .REQUEST_TERMINATED_COMPLETED_OK: nil
        case .REQUEST_TERMINATED_TIMEOUT_REACHED: "timeout"
        case .REQUEST_TERMINATED_DAEMON_SHUTDOWN: "shutdown"
        case .REQUEST_TERMINATED_CLIENT_ABORT, .REQUEST_TERMINATED_READ_ERROR: "client-abort"
        default: "error"
        }
        log.record(AccessLogEntry(time: Date(), client: request.client, method: request.method, path: request.path,
                                  status: request.status, bytes: request.bytes, duration: watchdog.now - request.started, note: note))
    }

    func connectionNotified(connection: OpaquePointer?, code: MHD_ConnectionNotificationCode) {
        guard let connection else { return }
        let key = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        if code == .CONNECTION_NOTIFY_STARTED {
            watchdog.opened(key, fd: reel_mhd_connection_fd(connection), address: Self.clientAddress(connection))
        } else {
            watchdog.closed(key)
            forgetThread(of: key)
        }
    }

    /// Suspends a request's connection until it is woken or its deadline passes; over the
    /// limit of held requests, or while stopping, the service is asked again at once with the
    /// wait over.
    private func hold(_ request: HTTPRequest, key: String, until deadline: Double, service: any HTTPService) -> MHD_Result {
        if request.holdDeadline == nil { request.holdDeadline = deadline }
        let ends = request.holdDeadline ?? deadline
        // Only a pool of poll loops can suspend a connection (a thread per connection would wait).
        guard case .pool = settings.threading, ends > watchdog.now, holds.park(request, key: key, until: ends) else {
            request.holdExpired = true
            switch service.begin(request) {
            case .respond(let response): return queue(response, request: request, service: service)
            case .receive(let upload):
                upload.discard()
                return queue(.text(500, "unexpected upload"), request: request, service: service)
            case .hold: return queue(.text(503, "the wait is over", headers: [("Retry-After", "1")]), request: request, service: service)
            }
        }
        return .YES
    }

    /// Wakes every request held under `key`: each is asked again (and may be held again).
    public func wake(_ key: String) {
        holds.wake(key)
    }

    /// Requests held right now.
    public var heldRequests: Int { holds.count }

    /// Hands `response` to libmicrohttpd and records what was sent.
    func queue(_ response: HTTPResponse, request: HTTPRequest, service: any HTTPService) -> MHD_Result {
        request.status = response.status
        request.bytes = request.method == "HEAD" ? 0 : response.bodyCount
        let made: OpaquePointer?
        switch response.body {
        case .prepared(let ready):
            // libmicrohttpd takes its own reference: the response outlives the cache's.
            watchdog.sending(request.connectionKey)
            return MHD_queue_response(request.connection, UInt32(ready.status), ready.pointer)
        case .bytes(let bytes):
            made = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress),
                                                .RESPMEM_MUST_COPY)
            }
        case .file(let fd, let offset, let count):
            made = MHD_create_response_from_fd_at_offset64(UInt64(count), fd, UInt64(offset))
            if made == nil { close(fd) }
        case .stream(let stream):
            made = streamResponse(stream)
        }
        guard let made else { return .NO }
        defer { MHD_destroy_response(made) }
        if case .stream = response.body {} else { watchdog.sending(request.connectionKey) }
        let own = Set(response.headers.map { $0.0.lowercased() })
        for (name, value) in response.headers + settings.responseHeaders.filter({ !own.contains($0.0.lowercased()) }) {
            MHD_add_response_header(made, name, value)
        }
        // A server-side failure (disk full, I/O error; not 503, a bound reached): the service says why.
        if response.status >= 500 && response.status != 503, case .bytes(let bytes) = response.body {
            let reason = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            service.failed(request, reason: reason)
        }
        return MHD_queue_response(request.connection, UInt32(response.status), made)
    }

    /// A response read from `stream` until it ends; only a thread-per-connection server may
    /// wait in a read (in a pool the wait would hold every connection of the thread).
    private func streamResponse(_ stream: any HTTPStream) -> OpaquePointer? {
        guard settings.threading == .perConnection else {
            stream.close()
            return nil
        }
        let box = StreamBox(stream: stream, server: self)
        streams.withLock { $0[ObjectIdentifier(box)] = stream }
        let owner = Unmanaged.passRetained(box).toOpaque()  // released by the free callback
        guard let made = MHD_create_response_from_callback(UInt64.max, 4096, httpStreamRead, owner, httpStreamFree) else {
            Unmanaged<StreamBox>.fromOpaque(owner).release()
            streamEnded(box)
            return nil
        }
        return made
    }

    func streamEnded(_ box: StreamBox) {
        _ = streams.withLock { $0.removeValue(forKey: ObjectIdentifier(box)) }
        box.stream.close()
    }

    /// A stream being sent, with the server to tell when libmicrohttpd lets go of it.
    final class StreamBox: Sendable {
        let stream: any HTTPStream
        unowned let server: HTTPServer
        init(stream: any HTTPStream, server: HTTPServer) {
            self.stream = stream
            self.server = server
        }
    }
}

// MARK: C entry points: no captures, the server comes back through the context pointer.

private let httpAccessHandler: MHD_AccessHandlerCallback = { cls, connection, url, method, version, uploadData, uploadSize, conCls in
    guard let cls, let connection, let url, let method, let uploadSize, let conCls else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue()
    // Judged on the first call only, while the request head is libmicrohttpd's buffer as parsed.
    let hidden = conCls.pointee == nil && version != nil ? reel_mhd_hidden_bytes(connection, method, url, version).map { String(cString: $0) } : nil
    return server.accessHandler(connection: connection, url: String(cString: url), method: String(cString: method),
                                version: version.map { String(cString: $0) } ?? "", hidden: hidden, uploadData: uploadData,
                                uploadSize: uploadSize, requestContext: conCls)
}

private let httpRequestCompleted: MHD_RequestCompletedCallback = { cls, connection, conCls, code in
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().requestCompleted(connection: connection, requestContext: conCls, code: code)
}

private let httpLibraryMessage: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?) -> Void = { cls, message in
    guard let cls, let message else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().libraryMessage(String(cString: message))
}

/// The request line was read (MHD_OPTION_URI_LOG_CALLBACK): NULL, the request's first context.
private let httpRequestLine: @convention(c) (UnsafeMutableRawPointer?, UnsafePointer<CChar>?, OpaquePointer?) -> UnsafeMutableRawPointer? = { cls, _, connection in
    guard let cls, let connection else { return nil }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().requestLineRead(connection)
    return nil
}

private let httpConnectionNotified: MHD_NotifyConnectionCallback = { cls, connection, _, code in
    guard let cls else { return }
    Unmanaged<HTTPServer>.fromOpaque(cls).takeUnretainedValue().connectionNotified(connection: connection, code: code)
}

/// libmicrohttpd's content reader: the next bytes of the stream, or -1 (MHD_CONTENT_READER_END_OF_STREAM).
private let httpStreamRead: MHD_ContentReaderCallback = { cls, _, buffer, max in
    guard let cls, let buffer, max > 0 else { return -1 }
    let box = Unmanaged<HTTPServer.StreamBox>.fromOpaque(cls).takeUnretainedValue()
    guard let count = box.stream.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)), count > 0 else { return -1 }
    return count
}

private let httpStreamFree: MHD_ContentReaderFreeCallback = { cls in
    guard let cls else { return }
    let box = Unmanaged<HTTPServer.StreamBox>.fromOpaque(cls).takeRetainedValue()
    box.server.streamEnded(box)
}
