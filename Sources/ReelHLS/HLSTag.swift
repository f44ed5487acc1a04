import Foundation

/// The tags Reel writes and reads, typed (RFC 8216 and its second edition's low-latency
/// tags); any other tag is ``other(name:value:)``, which readers ignore as RFC 8216 says.
public enum HLSTag: Sendable, Hashable {
    // Basic
    case extM3U
    case version(Int)
    // Media playlist
    case targetDuration(Int)
    case mediaSequence(Int)
    case discontinuitySequence(Int)
    case playlistType(MediaPlaylist.PlaylistType)
    case independentSegments
    case endList
    case serverControl(MediaPlaylist.ServerControl)
    case partInf(partTarget: Double)
    case skip(skippedSegments: Int)
    case preloadHint(MediaPlaylist.PreloadHint)
    case renditionReport(MediaPlaylist.RenditionReport)
    // Media segment
    case inf(duration: Double, title: String)
    case programDateTime(Date)
    case discontinuity
    case gap
    case map(uri: String)
    case part(MediaPlaylist.Part)
    // Multivariant playlist
    case streamInf(MultivariantPlaylist.StreamInf)
    /// A tag not listed above.
    case other(name: String, value: String?)

    /// Reads tag `name` with `value` (the text after the `:`, nil when there was none).
    public init(name: String, value: String?) throws(HLSParseError) {
        switch name {
        case "EXTM3U": self = .extM3U
        case "EXT-X-VERSION": self = .version(try Self.integer(name, value))
        case "EXT-X-TARGETDURATION": self = .targetDuration(try Self.integer(name, value))
        case "EXT-X-MEDIA-SEQUENCE": self = .mediaSequence(try Self.integer(name, value))
        case "EXT-X-DISCONTINUITY-SEQUENCE": self = .discontinuitySequence(try Self.integer(name, value))
        case "EXT-X-PLAYLIST-TYPE":
            guard let type = value.flatMap(MediaPlaylist.PlaylistType.init(rawValue:)) else { throw Self.invalid(name, value) }
            self = .playlistType(type)
        case "EXT-X-INDEPENDENT-SEGMENTS": self = .independentSegments
        case "EXT-X-ENDLIST": self = .endList
        case "EXT-X-DISCONTINUITY": self = .discontinuity
        case "EXT-X-GAP": self = .gap
        case "EXTINF":
            let text = value ?? ""
            let comma = text.firstIndex(of: ",") ?? text.endIndex
            guard let duration = HLSNumber.decimal(text[..<comma]) else { throw Self.invalid(name, value) }
            self = .inf(duration: duration, title: comma < text.endIndex ? String(text[text.index(after: comma)...]) : "")
        case "EXT-X-PROGRAM-DATE-TIME":
            guard let date = value.flatMap(HLSDateTime.date(from:)) else { throw Self.invalid(name, value) }
            self = .programDateTime(date)
        default:
            self = try Self.withAttributes(name, value)
        }
    }

    /// The tags whose value is an attribute list.
    private static func withAttributes(_ name: String, _ value: String?) throws(HLSParseError) -> HLSTag {
        let attributeTags: Set<String> = ["EXT-X-MAP", "EXT-X-PART", "EXT-X-PART-INF", "EXT-X-SERVER-CONTROL", "EXT-X-SKIP",
                                          "EXT-X-PRELOAD-HINT", "EXT-X-RENDITION-REPORT", "EXT-X-STREAM-INF"]
        guard attributeTags.contains(name) else { return .other(name: name, value: value) }
        let list = try HLSAttributeList(parsing: (value ?? "")[...], tag: name)
        switch name {
        case "EXT-X-MAP": return .map(uri: try list.required("URI", list.quotedString))
        case "EXT-X-PART": return .part(try MediaPlaylist.Part(list))
        case "EXT-X-PART-INF": return .partInf(partTarget: try list.required("PART-TARGET", list.decimalFloat))
        case "EXT-X-SERVER-CONTROL": return .serverControl(try MediaPlaylist.ServerControl(list))
        case "EXT-X-SKIP": return .skip(skippedSegments: try list.required("SKIPPED-SEGMENTS", list.decimalInteger))
        case "EXT-X-PRELOAD-HINT": return .preloadHint(try MediaPlaylist.PreloadHint(list))
        case "EXT-X-RENDITION-REPORT": return .renditionReport(try MediaPlaylist.RenditionReport(list))
        default: return .streamInf(try MultivariantPlaylist.StreamInf(list))
        }
    }

    /// The typed tag of `line`; nil for a line that is not a tag.
    public init?(_ line: HLSLine) throws(HLSParseError) {
        guard case let .tag(name, value) = line else { return nil }
        try self.init(name: name, value: value)
    }

    private static func integer(_ name: String, _ value: String?) throws(HLSParseError) -> Int {
        guard let number = value.flatMap({ HLSNumber.integer($0) }) else { throw invalid(name, value) }
        return number
    }

    private static func invalid(_ name: String, _ value: String?) -> HLSParseError {
        HLSParseError(.invalidValue(tag: name, attribute: nil, value: value ?? ""))
    }

    /// The names of the tags that belong to the media segment after them (they go with its
    /// URI line): `EXTINF`, `EXT-X-PROGRAM-DATE-TIME`, `EXT-X-DISCONTINUITY`, `EXT-X-GAP`,
    /// `EXT-X-PART`, `EXT-X-BYTERANGE`, `EXT-X-BITRATE`.
    public static let mediaSegmentTagNames: Set<String> = [
        "EXTINF", "EXT-X-PROGRAM-DATE-TIME", "EXT-X-DISCONTINUITY", "EXT-X-GAP", "EXT-X-PART", "EXT-X-BYTERANGE", "EXT-X-BITRATE",
    ]
}
