import Foundation
import ReelCore

/// An answer before it is handed to libmicrohttpd: status, headers and a body that is either
/// bytes, a range of an open file (sent with sendfile; libmicrohttpd closes the descriptor),
/// or a response made earlier (``ResponseCache``; its headers are in it, `headers` is unused).
struct OriginResponse {
    enum Body {
        case bytes([UInt8])
        case file(fd: Int32, offset: Int64, count: Int64)
        case prepared(PreparedResponse)
    }

    var status: Int
    var headers: [(String, String)]
    var body: Body

    init(status: Int, headers: [(String, String)] = [], body: Body = .bytes([])) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A short plain-text answer: the status line's words and what to do.
    static func text(_ status: Int, _ message: String, headers: [(String, String)] = []) -> OriginResponse {
        OriginResponse(status: status, headers: headers + [("Content-Type", "text/plain; charset=utf-8"), ("Cache-Control", "no-store")],
                       body: .bytes(Array("\(status) \(reasonPhrase(status)): \(message)\n".utf8)))
    }

    /// Body bytes the answer carries (a HEAD answer sends none, whatever this says).
    var bodyCount: Int64 {
        switch body {
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, _, let count): count
        case .prepared(let response): response.bodyCount
        }
    }

    static func reasonPhrase(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 206: "Partial Content"
        case 304: "Not Modified"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 416: "Range Not Satisfiable"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 503: "Service Unavailable"
        case 507: "Insufficient Storage"
        default: "Status"
        }
    }

    /// `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110 §5.6.7).
    static func httpDate(_ date: Date) -> String { TimestampFormat.httpDate(date) }
}
