import Foundation
import ReelCore

/// One line of an HTTP server's access log:
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
        var bytes: [UInt8] = []
        appendLine(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the line's bytes (without the newline) to `buffer`: what ``line`` is, built
    /// without intermediate strings (the server writes one per request).
    public func appendLine(to buffer: inout [UInt8]) {
        buffer.reserveCapacity(buffer.count + 96 + min(path.utf8.count, 512))
        TimestampFormat.appendISO8601Milliseconds(time, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        Self.appendEscaped(client, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        Self.appendEscaped(method, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        Self.appendEscaped(path, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        TimestampFormat.appendDecimal(status, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        TimestampFormat.appendDecimal(bytes, to: &buffer)
        buffer.append(UInt8(ascii: " "))
        Self.appendMilliseconds(duration, to: &buffer)
        if let note {
            buffer.append(UInt8(ascii: " "))
            Self.appendEscaped(note, to: &buffer)
        }
    }

    /// `3.2ms`: the duration in milliseconds rounded to a tenth, as Swift prints that `Double`.
    static func appendMilliseconds(_ duration: Double, to bytes: inout [UInt8]) {
        let tenths = (duration * 1000 * 10).rounded()
        if tenths.sign == .plus && tenths < 1e12 {
            // Below 10^11 ms a tenth-rounded value prints as "INTEGER.DIGIT", exactly as
            // Double's description would (checked against it in the tests).
            let whole = Int64(tenths)
            TimestampFormat.appendDecimal(whole / 10, to: &bytes)
            bytes.append(UInt8(ascii: "."))
            bytes.append(UInt8(ascii: "0") + UInt8(whole % 10))
        } else {
            bytes.append(contentsOf: "\(tenths / 10)".utf8)
        }
        bytes.append(contentsOf: [UInt8(ascii: "m"), UInt8(ascii: "s")])
    }

    /// Printable ASCII stays; everything else becomes `%XX`; at most 512 bytes of input.
    public static func escaped(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendEscaped(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``escaped(_:)``'s bytes.
    public static func appendEscaped(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { utf8 in
            let input = UnsafeBufferPointer(rebasing: utf8.prefix(512))
            if input.isEmpty {
                bytes.append(UInt8(ascii: "-"))
            } else if input.allSatisfy(isKeptAsIs) {
                bytes.append(contentsOf: input)  // the usual case: nothing to escape
            } else {
                for byte in input {
                    if isKeptAsIs(byte) {
                        bytes.append(byte)
                    } else {
                        bytes.append(UInt8(ascii: "%"))
                        bytes.append(hexDigit(byte >> 4))
                        bytes.append(hexDigit(byte & 0xF))
                    }
                }
            }
        }
    }

    private static func isKeptAsIs(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%")
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }
}
