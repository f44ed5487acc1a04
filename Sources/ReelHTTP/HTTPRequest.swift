import CMicroHTTPD
import Foundation

/// One request's state from its headers to its completion, handed to libmicrohttpd as the
/// request's `con_cls` (retained by `Unmanaged` in the first handler call, released in the
/// completion callback, which libmicrohttpd always calls once the handler has been).
///
/// A service reads the request's headers with ``header(_:)`` while it is being called for the
/// request (``HTTPService/begin(_:)``, ``HTTPService/finishUpload(_:request:)``): the
/// connection they come from is libmicrohttpd's, alive for the request's whole life.
public final class HTTPRequest: @unchecked Sendable {
    // libmicrohttpd calls one request's handler and completion callback serially, on the
    // thread that owns its connection; nothing else touches a request.
    /// `GET`, `PUT`, … as received.
    public let method: String
    /// The path as received, still percent-encoded (each service decodes and checks it).
    public let path: String
    /// The client's address (`127.0.0.1`, `::1`), or `-`: the socket's peer, or behind a
    /// trusted proxy the address it forwarded for (``ReelCore/ForwardedClient``).
    public let client: String
    /// The socket's peer (a trusted proxy's own address when ``client`` was forwarded).
    public let peer: String
    let connection: OpaquePointer
    let connectionKey: UInt
    let started: Double
    /// The body being received, for an accepted upload.
    var upload: (any HTTPUpload)?
    /// The status queued, 0 until one is.
    var status = 0
    /// Body bytes of the queued answer (0 for HEAD).
    var bytes: Int64 = 0
    /// When a held request stops waiting (``HTTPStart/hold(key:until:)``'s first deadline), on
    /// the server's clock; nil until it is first held.
    public internal(set) var holdDeadline: Double?
    /// Whether the request was held and its wait is over without a wake-up that satisfied it
    /// (its deadline passed, or the server is stopping): the service must answer now.
    public internal(set) var holdExpired = false

    init(method: String, path: String, client: String, peer: String, connection: OpaquePointer, started: Double) {
        self.method = method
        self.path = path
        self.client = client
        self.peer = peer
        self.connection = connection
        connectionKey = UInt(bitPattern: Int(bitPattern: UnsafeRawPointer(connection)))
        self.started = started
    }

    var responded: Bool { status != 0 }

    /// The request header `name` (case-insensitive), or nil.
    public func header(_ name: String) -> String? {
        HTTPServer.header(name, of: connection)
    }

    /// The query argument `name` of the URL, or nil. libmicrohttpd splits the query off the
    /// path and keeps its arguments percent-encoded as received (Reel's unescape callback).
    public func query(_ name: String) -> String? {
        MHD_lookup_connection_value(connection, .GET_ARGUMENT_KIND, name).map { String(cString: $0) }
    }

    /// The query argument `name` decoded as a form sends it (`+` a space, `%XX` a byte of
    /// UTF-8), or nil when absent or not UTF-8 once decoded.
    public func decodedQuery(_ name: String) -> String? {
        query(name).flatMap { $0.replacingOccurrences(of: "+", with: " ").removingPercentEncoding }
    }
}

/// A request body on its way in (an accepted upload): written to as the bytes arrive, then
/// handed back to the service whole (``HTTPService/finishUpload(_:request:)``), or discarded
/// when the request ends any other way.
public protocol HTTPUpload: AnyObject, Sendable {
    /// Takes the next `count` bytes of the body.
    func write(_ bytes: UnsafeRawPointer, count: Int)
    /// Bytes received so far (what the upload-rate deadline measures).
    var received: Int { get }
    /// Gives the body up (the request failed or was answered early).
    func discard()
}

/// What a service does with a request whose headers are in: answer now, read its body, or
/// hold it (a request without a body only).
public enum HTTPStart {
    case respond(HTTPResponse)
    case receive(any HTTPUpload)
    /// Park the request without a thread: its connection is suspended until
    /// ``HTTPServer/wake(_:)`` names `key`, or the server's clock reaches `until` (only the
    /// first hold's deadline counts), or the server stops. Then ``HTTPService/begin(_:)`` is
    /// called again for it (``HTTPRequest/holdExpired`` says whether the wait ran out).
    case hold(key: String, until: Double)
}

/// What a server built on ``HTTPServer`` answers: its routes, called on libmicrohttpd's
/// threads.
public protocol HTTPService: AnyObject, Sendable {
    /// The first look at a request, headers complete. For a request that declares a body
    /// (`PUT`, or a `Content-Length`/`Transfer-Encoding`), no body byte has been read yet: a
    /// refusal now never reads it. For any other request the whole request is in.
    func begin(_ request: HTTPRequest) -> HTTPStart
    /// The answer once an upload's whole body is in.
    func finishUpload(_ upload: any HTTPUpload, request: HTTPRequest) -> HTTPResponse
    /// A message of libmicrohttpd's own while serving (its start-up messages are in the
    /// start error instead).
    func libraryMessage(_ line: String)
    /// A server-side failure was answered (status 500 and up, but 503): `reason` is its body's text.
    func failed(_ request: HTTPRequest, reason: String)
}
