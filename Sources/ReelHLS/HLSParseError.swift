import Foundation

/// Why a playlist could not be read: what was wrong and, when one line is to blame, its number
/// (1 is the first line). Reading a playlist never traps on bad input; it throws this.
public struct HLSParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public enum Reason: Sendable, Hashable {
        /// The first line is not `#EXTM3U`.
        case missingHeader
        /// A tag's attribute list breaks RFC 8216 §4.2 (`problem` says how).
        case malformedAttributeList(tag: String, problem: String)
        /// A tag lacks an attribute it must have.
        case missingAttribute(tag: String, attribute: String)
        /// A tag's value, or one of its attributes' (`attribute`), is not of the type it must be.
        case invalidValue(tag: String, attribute: String?, value: String)
        /// A URI line that no `#EXTINF` (or `#EXT-X-STREAM-INF`) announced.
        case uriWithoutTag(String)
        /// An `#EXTINF` (or `#EXT-X-STREAM-INF`) with no URI line after it.
        case tagWithoutURI(tag: String)
        /// A media playlist without `#EXT-X-TARGETDURATION`.
        case missingTargetDuration
        /// A tag of the other kind of playlist: a multivariant tag in a media playlist, or a
        /// media tag in a multivariant one.
        case wrongKind(tag: String)
    }

    /// The line to blame, nil when it is the playlist as a whole.
    public var line: Int?
    /// What was wrong.
    public var reason: Reason

    /// An error about line `line` (nil: the whole playlist).
    public init(_ reason: Reason, line: Int? = nil) {
        self.reason = reason
        self.line = line
    }

    public var description: String {
        let what: String
        switch reason {
        case .missingHeader: what = "the playlist does not start with #EXTM3U"
        case let .malformedAttributeList(tag, problem): what = "#\(tag) has a malformed attribute list: \(problem)"
        case let .missingAttribute(tag, attribute): what = "#\(tag) lacks \(attribute)"
        case let .invalidValue(tag, attribute?, value): what = "#\(tag) has \(attribute)=\(value), which is not valid"
        case let .invalidValue(tag, nil, value): what = "#\(tag):\(value) is not valid"
        case let .uriWithoutTag(uri): what = "the URI \(uri) follows no #EXTINF or #EXT-X-STREAM-INF"
        case let .tagWithoutURI(tag): what = "#\(tag) is not followed by a URI"
        case .missingTargetDuration: what = "the media playlist has no #EXT-X-TARGETDURATION"
        case let .wrongKind(tag): what = "#\(tag) does not belong in this kind of playlist"
        }
        return line.map { "line \($0): \(what)" } ?? what
    }
}
