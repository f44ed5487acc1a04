import Foundation

/// One line of a playlist, told apart without reading any value (RFC 8216 §4.1): blank, a
/// tag (`#EXT…`: its name is everything up to the first `:`, matched whole, never by
/// prefix, so `EXT-X-DISCONTINUITY-SEQUENCE` is never `EXT-X-DISCONTINUITY`), a comment (any
/// other `#` line) or a URI. ``HLSTag/init(name:value:)`` reads a tag's value.
public enum HLSLine: Sendable, Hashable {
    case blank
    /// A tag: `name` without the `#`, `value` after the `:` (nil when the line has no `:`).
    case tag(name: String, value: String?)
    /// A comment, `#` included.
    case comment(String)
    /// A URI.
    case uri(String)

    /// The line `text` (spaces and tabs around it are ignored).
    public init<Text: StringProtocol>(_ text: Text) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty {
            self = .blank
        } else if trimmed.hasPrefix("#EXT") {
            let body = trimmed.dropFirst()
            if let colon = body.firstIndex(of: ":") {
                self = .tag(name: String(body[..<colon]), value: String(body[body.index(after: colon)...]))
            } else {
                self = .tag(name: String(body), value: nil)
            }
        } else if trimmed.hasPrefix("#") {
            self = .comment(trimmed)
        } else {
            self = .uri(trimmed)
        }
    }

    /// The lines of `text`, split at `\n`, `\r\n` or `\r`.
    public static func lines(of text: String) -> [HLSLine] {
        text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(HLSLine.init)
    }

    /// The tag's name when the line is a tag.
    public var tagName: String? {
        if case let .tag(name, _) = self { return name }
        return nil
    }
}
