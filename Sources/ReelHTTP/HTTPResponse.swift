import Foundation
import ReelCore

/// An answer before it is handed to libmicrohttpd: status, headers and a body that is either
/// bytes, a range of an open file (sent with sendfile; libmicrohttpd closes the descriptor),
/// a response made earlier (``PreparedResponse``; its headers are in it, `headers` is
/// unused), or a stream of unknown length (``HTTPStream``: server-sent events; only on a
/// server with a thread per connection).
public struct HTTPResponse {
    public enum Body {
        case bytes([UInt8])
        case file(fd: Int32, offset: Int64, count: Int64)
        case prepared(PreparedResponse)
        case stream(any HTTPStream)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text answer: the status line's words and what to do.
    public static func text(_ status: Int, _ message: String, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: headers + [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
                       body: .bytes(Array("\(status) \(reasonPhrase(status)): \(message)\n".utf8)))
    }

    /// Body bytes the answer carries (a HEAD answer sends none, whatever this says; a stream
    /// counts what it has sent when the request ends).
    public var bodyCount: Int64 {
        switch body {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, _, let count): count
        case .prepared(let response): response.bodyCount
        case .stream: 0
        }
    }

    public static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 303: "See Other"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 411: "Length Required"
        case 412: "Precondition Failed"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 416: "Range Not Satisfiable"
        case 422: "Unprocessable Content"
        case 428: "Precondition Required"
        case 429: "Too Many Requests"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        case 507: "Insufficient Storage"
        default: "Status"
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
    public static func httpDate(_ date: Date) -> String { TimestampFormat.httpDate(date) }
}

/// A response body of unknown length, read on the connection's own thread until it ends:
/// ``read(into:)`` may block (a thread-per-connection server gives every connection its own
/// thread), but for a bounded time, so the server can stop.
public protocol HTTPStream: AnyObject, Sendable {
    /// Fills the start of `buffer` and says how many bytes (at least 1), or nil at the end.
    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int?
    /// The request ended (the client went away, or the server stops): wake any read and end.
    func close()
}
