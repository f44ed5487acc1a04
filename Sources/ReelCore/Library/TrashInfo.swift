import Foundation

/// The freedesktop.org Trash specification's `.trashinfo` file (version 1.0): where a trashed
/// file came from and when it was trashed, so file managers (and `reel sessions untrash`) can
/// put it back. Pure text in and out.
///
/// ```
/// [Trash Info]
/// Path=/home/kai/.local/share/reel/recordings/reel-20261201-090000-full.mp4
/// DeletionDate=2026-12-01T09:30:00
/// ```
/// `Path` is the absolute original path, percent-encoded as a URI path (RFC 2396: unreserved
/// characters and `/` as they are, every other byte of its UTF-8 as `%XX`); `DeletionDate` is
/// local time without a zone, as the specification says.
public struct TrashInfo: Sendable, Equatable {
    /// The absolute path the file had.
    public var originalPath: String
    /// When it was trashed (to the second).
    public var deletedAt: Date

    /// A record.
    public init(originalPath: String, deletedAt: Date) {
        self.originalPath = originalPath
        self.deletedAt = deletedAt
    }

    /// The file's text, with the date in `timeZone`.
    public func text(in timeZone: TimeZone) -> String {
        "[Trash Info]\nPath=\(Self.encode(originalPath))\nDeletionDate=\(Self.formatter(timeZone).string(from: deletedAt))\n"
    }

    /// Reads a `.trashinfo` text; nil when it is not one (no header, no absolute `Path`, or a
    /// date that cannot be read).
    public init?(text: String, timeZone: TimeZone) {
        let lines = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
        guard lines.first == "[Trash Info]" else { return nil }
        var path: String?, date: Date?
        for line in lines.dropFirst() {
            if line.hasPrefix("Path=") { path = Self.decode(String(line.dropFirst(5))) }
            if line.hasPrefix("DeletionDate=") { date = Self.formatter(timeZone).date(from: String(line.dropFirst(13))) }
        }
        guard let path, path.hasPrefix("/"), let date else { return nil }
        self.init(originalPath: path, deletedAt: date)
    }

    /// `path` percent-encoded as a URI path.
    public static func encode(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            if unreserved.contains(byte) {
                out.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                out += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
            }
        }
        return out
    }

    /// Bytes a URI path keeps as they are: letters, digits, `/` and RFC 2396's marks.
    private static let unreserved = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789/-_.!~*'()".utf8)

    /// A percent-encoded path decoded; nil when an escape is malformed or the bytes are not UTF-8.
    public static func decode(_ text: String) -> String? {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%") {
                guard utf8.count >= 2, let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else {
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func formatter(_ timeZone: TimeZone) -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = timeZone
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        return formatter
    }
}
