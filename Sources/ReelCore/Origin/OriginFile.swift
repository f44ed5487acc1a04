/// One file of a stream on the origin, and how it is served: MIME type, caching, compression.
public enum OriginFile: Sendable, Hashable {
    /// `init.mp4`.
    case initSegment
    /// `playlist.m3u8`.
    case playlist
    /// `seg/NNNNNN.m4s`.
    case segment(sequence: Int)
    /// `part/NNNNNN.P.m4s`: part P of segment NNNNNN (LL-HLS).
    case part(sequence: Int, index: Int)

    /// Most parts a segment may have (a 10 s segment of 100 ms parts).
    public static let maximumParts = 100

    /// Part names: a segment's name without `.m4s` (see ``segmentSequence(fileName:)``), a dot,
    /// the part's index in decimal without a leading zero, and `.m4s`, exactly as
    /// ``StreamLayout/partURI(sequence:index:)`` writes them.
    public static func partName(fileName: String) -> (sequence: Int, index: Int)? {
        guard fileName.hasSuffix(".m4s") else { return nil }
        let stem = fileName.dropLast(4)
        guard let dot = stem.lastIndex(of: "."), let sequence = segmentSequence(fileName: String(stem[..<dot]) + ".m4s") else {
            return nil
        }
        let digits = stem[stem.index(after: dot)...]
        guard (1...2).contains(digits.utf8.count), digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.utf8.count == 1 || digits.first != "0", let index = Int(digits), index < maximumParts else { return nil }
        return (sequence, index)
    }

    /// Media segment names: 6 to 10 digits and `.m4s`, exactly as
    /// ``StreamLayout/segmentURI(sequence:)`` writes them (zero-padded to 6 digits, no other
    /// leading zero), so one segment has one name: `0000001.m4s` names nothing.
    public static func segmentSequence(fileName: String) -> Int? {
        guard fileName.hasSuffix(".m4s") else { return nil }
        let digits = fileName.utf8.dropLast(4)
        guard (6...10).contains(digits.count), digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              digits.count == 6 || digits.first != UInt8(ascii: "0") else {
            return nil
        }
        return Int(Substring(fileName.dropLast(4)))
    }

    /// The file a stream path names (`streams/{id}/playlist.m3u8`, `…/init.mp4`,
    /// `…/seg/000001.m4s`), by its last one or two parts; nil for any other path.
    public init?(streamPath path: String) {
        let parts = path.split(separator: "/")
        guard let last = parts.last else { return nil }
        if last == StreamLayout.playlistName {
            self = .playlist
        } else if last == StreamLayout.initURI {
            self = .initSegment
        } else if parts.count >= 2, parts[parts.count - 2] == "seg", let sequence = Self.segmentSequence(fileName: String(last)) {
            self = .segment(sequence: sequence)
        } else if parts.count >= 2, parts[parts.count - 2] == "part", let part = Self.partName(fileName: String(last)) {
            self = .part(sequence: part.sequence, index: part.index)
        } else {
            return nil
        }
    }

    /// The folders below the stream folder (`["seg"]` for segments) and the file name.
    public var location: (folders: [String], name: String) {
        switch self {
        case .initSegment: ([], StreamLayout.initURI)
        case .playlist: ([], StreamLayout.playlistName)
        case .segment(let sequence):
            (["seg"], String(StreamLayout.segmentURI(sequence: sequence).dropFirst("seg/".count)))
        case .part(let sequence, let index):
            (["part"], String(StreamLayout.partURI(sequence: sequence, index: index).dropFirst("part/".count)))
        }
    }

    /// `application/vnd.apple.mpegurl`, `video/mp4` or `video/iso.segment`.
    public var contentType: String {
        switch self {
        case .initSegment: "video/mp4"
        case .playlist: "application/vnd.apple.mpegurl"
        case .segment, .part: "video/iso.segment"
        }
    }

    /// How long a cache may keep the file (``playlistMaxAge`` for the playlist); init, segments
    /// and parts never change once written, so any cache may keep them for a year.
    public var cacheControl: String {
        switch self {
        case .playlist: "public, max-age=\(Self.playlistMaxAge)"
        case .initSegment, .segment, .part: "public, max-age=31536000, immutable"
        }
    }

    /// Seconds a shared cache (a CDN edge) may serve a copy of the playlist: 1.
    ///
    /// The playlist changes once per segment (about every 2 s, the target duration T). A
    /// player that reloads and finds the playlist unchanged tries again after T/2 (RFC 8216
    /// §6.3.4), so a copy kept for at most T/2 costs such a player at most that one extra
    /// reload, and the newest segment reaches it at most one segment interval plus the max-age
    /// after it was published, far inside the 3 × T after which players call a live playlist
    /// stale. max-age counts whole seconds and 0 would forbid sharing, so 1 s is both the
    /// smallest useful value and ≤ T/2 for any target of 2 s or more. An edge in front of
    /// the origin then asks for the playlist about once a second however many players poll
    /// it (docs/cdn.md measures it). A browser's own cache may keep it as long, no longer.
    public static let playlistMaxAge = 1

    /// Whether gzip is worth it: playlists are text; fMP4 media does not compress.
    public var isCompressible: Bool { self == .playlist }
}
