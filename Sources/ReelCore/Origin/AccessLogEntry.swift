import Foundation

/// One line of the origin's access log:
///
/// ```
/// 2026-11-30T03:40:00.123Z 127.0.0.1 PUT /streams/desk/seg/000001.m4s 201 412345 3.2ms
/// ```
///
/// Fields are separated by single spaces and never contain one: the method and path are
/// escaped (bytes outside printable ASCII, spaces and `%` as `%XX`) and cut at 512 bytes,
/// so a hostile request cannot forge or break lines.
public struct AccessLogEntry: Sendable, Hashable {
    /// When the request ended.
    public var time: Date
    /// The client's address.
    public var client: String
    /// The request method.
    public var method: String
    /// The raw request path.
    public var path: String
    /// The status sent (0 when none was).
    public var status: Int
    /// Body bytes sent.
    public var bytes: Int64
    /// Seconds from the request's headers to its end.
    public var duration: Double
    /// Why it ended early (`client-abort`, `timeout`, …), if it did.
    public var note: String?

    /// An entry; see the type's description for the line.
    public init(time: Date, client: String, method: String, path: String, status: Int, bytes: Int64, duration: Double, note: String? = nil) {
        self.time = time
        self.client = client
        self.method = method
        self.path = path
        self.status = status
        self.bytes = bytes
        self.duration = duration
        self.note = note
    }

    /// The line, without the newline.
    public var line: String {
        let milliseconds = (duration * 1000 * 10).rounded() / 10
        var text = "\(StreamSummary.timestamp(time)) \(Self.escaped(client)) \(Self.escaped(method)) \(Self.escaped(path)) \(status) \(bytes) \(milliseconds)ms"
        if let note { text += " \(Self.escaped(note))" }
        return text
    }

    /// Printable ASCII stays; everything else becomes `%XX`; at most 512 bytes of input.
    public static func escaped(_ text: String) -> String {
        var result = ""
        for byte in text.utf8.prefix(512) {
            if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") {
                result.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return result.isEmpty ? "-" : result
    }
}
