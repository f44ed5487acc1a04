import Foundation

/// One request's state from its headers to its completion, handed to libmicrohttpd as the
/// request's `con_cls` (retained by `Unmanaged` in the first handler call, released in the
/// completion callback, which libmicrohttpd always calls once the handler has been).
final class RequestContext: @unchecked Sendable {
    // libmicrohttpd calls one request's handler and completion callback serially, on the
    // thread that owns its connection; nothing else touches a context.
    let method: String
    let path: String
    let client: String
    let connection: UInt
    let started: Double
    /// The body being stored, for an accepted PUT.
    var upload: PendingFile?
    /// The status queued, 0 until one is.
    var status = 0
    /// Body bytes of the queued answer (0 for HEAD).
    var bytes: Int64 = 0

    init(method: String, path: String, client: String, connection: UInt, started: Double) {
        self.method = method
        self.path = path
        self.client = client
        self.connection = connection
        self.started = started
    }

    var responded: Bool { status != 0 }
}
