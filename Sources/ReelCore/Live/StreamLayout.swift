/// Where a live stream's files live, relative to an origin base URL or a local output folder.
///
/// ```
/// streams/{id}/init.mp4
/// streams/{id}/playlist.m3u8
/// streams/{id}/seg/000001.m4s
/// ```
///
/// An ABR ladder (`reel live --ladder`) puts each rung's files one folder lower, and the
/// stream's own `playlist.m3u8` is then the multivariant playlist naming the rungs':
///
/// ```
/// streams/{id}/playlist.m3u8           multivariant
/// streams/{id}/{rung}/init.mp4
/// streams/{id}/{rung}/playlist.m3u8    the rung's media playlist
/// streams/{id}/{rung}/seg/000001.m4s
/// ```
///
/// A layout with a ``rung`` is that rung's: its ``directory`` and paths are the rung's folder.
/// The playlist refers to the init segment and the media segments by paths relative to
/// itself (``initURI``, ``segmentURI(sequence:)``), so the same files work under any base.
public struct StreamLayout: Sendable, Hashable {
    /// The stream's id: 1 to 128 ASCII letters, digits, `-` and `_` (`[A-Za-z0-9_-]{1,128}`), so it
    /// is one path component that never needs escaping and can never be `.` or `..`.
    public let streamID: String
    /// The ladder rung whose files this layout names (``isValidRungName(_:)``); nil for the
    /// stream's own folder.
    public let rung: String?

    /// The init segment's name, relative to the playlist.
    public static let initURI = "init.mp4"
    /// The media playlist's name, relative to the stream folder.
    public static let playlistName = "playlist.m3u8"

    /// A layout for `streamID`; throws when the id could escape its folder or needs escaping.
    public init(streamID: String, rung: String? = nil) throws(Error) {
        let allowed = streamID.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
            default: false
            }
        }
        guard !streamID.isEmpty, streamID.unicodeScalars.count <= 128, allowed else {
            throw .invalidStreamID(streamID)
        }
        if let rung, !Self.isValidRungName(rung) { throw .invalidRungName(rung) }
        self.streamID = streamID
        self.rung = rung
    }

    /// Whether `name` can be a rung's folder: 1 to 32 of `a-z`, `0-9` and `-`, starting with a
    /// letter or digit, and not `seg` or `part` (the folders of a stream's own files). It never
    /// needs escaping, never holds a dot (so it is never a file name of the layout, `.` or `..`).
    public static func isValidRungName(_ name: String) -> Bool {
        guard (1...32).contains(name.utf8.count), name != "seg", name != "part", name.utf8.first != UInt8(ascii: "-") else { return false }
        return name.utf8.allSatisfy { c in (c >= 0x61 && c <= 0x7A) || (c >= 0x30 && c <= 0x39) || c == 0x2D }
    }

    /// The layout of rung `name` of this stream.
    public func rung(_ name: String) throws(Error) -> StreamLayout {
        try StreamLayout(streamID: streamID, rung: name)
    }

    /// The stream as a whole (no rung): its folder holds every rung.
    public var stream: StreamLayout {
        rung == nil ? self : try! StreamLayout(streamID: streamID)
    }

    /// The stream's folder, `streams/{id}`, whatever the rung: what deleting a stream removes.
    public var streamDirectory: String { "streams/\(streamID)" }
    /// The folder of this layout's files: `streams/{id}`, or `streams/{id}/{rung}` for a rung.
    public var directory: String { rung.map { "\(streamDirectory)/\($0)" } ?? streamDirectory }
    /// The folder's path components: `["streams", id]` and the rung, if any.
    public var directoryComponents: [String] { ["streams", streamID] + (rung.map { [$0] } ?? []) }
    /// `streams/{id}/init.mp4`.
    public var initPath: String { "\(directory)/\(Self.initURI)" }
    /// `streams/{id}/playlist.m3u8`.
    public var playlistPath: String { "\(directory)/\(Self.playlistName)" }
    /// The rung's media playlist relative to the stream's multivariant playlist:
    /// `{rung}/playlist.m3u8` (just `playlist.m3u8` without a rung).
    public var playlistURIFromStream: String { rung.map { "\($0)/\(Self.playlistName)" } ?? Self.playlistName }
    /// `streams/{id}/seg/NNNNNN.m4s`.
    public func segmentPath(sequence: Int) -> String { "\(directory)/\(Self.segmentURI(sequence: sequence))" }
    /// `streams/{id}/part/NNNNNN.P.m4s` (LL-HLS).
    public func partPath(sequence: Int, index: Int) -> String { "\(directory)/\(Self.partURI(sequence: sequence, index: index))" }

    /// A media segment's path relative to the playlist: `seg/` and the sequence number with
    /// at least six digits (`seg/000001.m4s`).
    public static func segmentURI(sequence: Int) -> String {
        precondition(sequence >= 0, "segment sequence numbers are never negative")
        let digits = String(sequence)
        return "seg/\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).m4s"
    }

    /// A part's path relative to the playlist (LL-HLS): `part/`, its segment's sequence number
    /// as in ``segmentURI(sequence:)``, a dot and the part's index in the segment
    /// (`part/000001.0.m4s`).
    public static func partURI(sequence: Int, index: Int) -> String {
        precondition(sequence >= 0 && index >= 0, "sequence numbers and part indexes are never negative")
        let digits = String(sequence)
        return "part/\(String(repeating: "0", count: max(0, 6 - digits.count)))\(digits).\(index).m4s"
    }

    /// The MIME type an origin should serve (and a publisher should send) for a path in this
    /// layout, by its extension.
    public static func contentType(forPath path: String) -> String {
        if path.hasSuffix(".m3u8") { return "application/vnd.apple.mpegurl" }
        if path.hasSuffix(".m4s") { return "video/iso.segment" }
        if path.hasSuffix(".mp4") { return "video/mp4" }
        return "application/octet-stream"
    }

    /// Why a layout could not be made.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The id is empty, longer than 128, or has characters other than ASCII letters, digits, `-`, `_`.
        case invalidStreamID(String)
        /// The rung name breaks ``StreamLayout/isValidRungName(_:)``.
        case invalidRungName(String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidStreamID(let id):
                "The stream id \"\(id)\" cannot be used in a URL path: use 1 to 128 ASCII letters, digits, '-' or '_'."
            case .invalidRungName(let name):
                "The rung name \"\(name)\" cannot be a folder of the stream: use 1 to 32 of a-z, 0-9 and '-' (not starting with '-'), other than seg and part."
            }
        }
    }
}
