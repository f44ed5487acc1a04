import ReelCore

/// The header rules every request must meet before a service sees it: the ambiguities a
/// lenient proxy in front could read differently from the server (request smuggling), and
/// what HTTP/1.1 requires. libmicrohttpd parses the request; this judges what it parsed.
///
/// Refused with 400:
/// - a header name that is not an RFC 9110 token (`Content-Length : 5` keeps the space in the
///   name), or a value holding a CR, LF or NUL (a bare CR, or an obs-fold kept as is);
/// - more than one `Content-Length`, or one that is not a plain decimal number;
/// - any `Transfer-Encoding` but a lone `chunked`, an empty one included, and a
///   `Transfer-Encoding` together with a `Content-Length`;
/// - HTTP/1.1 without exactly one `Host` (HTTP/1.0 may omit it).
///
/// (What the parser may have hidden, a NUL inside the target or a value and folded lines, is
/// checked on the parser's own buffer by ReelHTTP.)
public enum RequestFraming {
    /// Why a request is refused; the text is the 400 answer's body.
    public struct Refusal: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        public init(_ text: String) { description = text }
    }

    /// The verdict for a request's version (`HTTP/1.1`) and its headers in the order
    /// received; `nil` when it may be served.
    public static func check(version: String, headers: [(name: String, value: String)]) -> Refusal? {
        var contentLengths = 0
        var transferEncodings: [String] = []
        var hosts = 0
        for (name, value) in headers {
            guard isToken(name) else {
                return Refusal("the header name \(printable(name)) is not a token (no spaces or separators before the colon)")
            }
            guard !value.utf8.contains(where: { $0 == 13 || $0 == 10 || $0 == 0 }) else {
                return Refusal("the header \(name) holds a CR, LF or NUL (folded headers and bare CRs are not accepted)")
            }
            switch name.lowercased() {
            case "content-length":
                contentLengths += 1
                let digits = value.trimmingASCIISpaces()
                guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                    return Refusal("Content-Length must be a decimal number of bytes")
                }
            case "transfer-encoding": transferEncodings.append(value.trimmingASCIISpaces().lowercased())
            case "host": hosts += 1
            default: break
            }
        }
        if contentLengths > 1 { return Refusal("the request has \(contentLengths) Content-Length headers; send one") }
        if !transferEncodings.isEmpty {
            guard transferEncodings == ["chunked"] else {
                return Refusal("Transfer-Encoding must be a single 'chunked' (an empty one is refused too)")
            }
            if contentLengths > 0 { return Refusal("a request may not have both Transfer-Encoding and Content-Length") }
        }
        if version == "HTTP/1.1" && hosts != 1 {
            return Refusal(hosts == 0 ? "HTTP/1.1 requests need a Host header" : "the request has \(hosts) Host headers; send one")
        }
        return nil
    }

    /// RFC 9110 `token`: one or more of ALPHA, DIGIT and ``!#$%&'*+-.^_`|~``.
    public static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    private static func printable(_ name: String) -> String {
        "'" + String(name.unicodeScalars.map { $0.value >= 32 && $0.value < 127 ? Character($0) : "?" }.prefix(64)) + "'"
    }
}
