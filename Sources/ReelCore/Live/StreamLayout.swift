/// Where a live stream's files live, relative to an origin base URL or a local output folder.
///
/// ```
/// streams/{id}/init.mp4
/// streams/{id}/playlist.m3u8
/// streams/{id}/seg/000001.m4s
/// ```
///
/// The playlist refers to the init segment and the media segments by paths relative to
/// itself (``initURI``, ``segmentURI(sequence:)``), so the same files work under any base.
public struct StreamLayout: Sendable, Hashable {
    /// The stream's id: 1 to 128 ASCII letters, digits, `-` and `_` (`[A-Za-z0-9_-]{1,128}`), so it
    /// is one path component that never needs escaping and can never be `.` or `..`.
    public let streamID: String

    /// The init segment's name, relative to the playlist.
    public static let initURI = "init.mp4"
    /// The media playlist's name, relative to the stream folder.
    public static let playlistName = "playlist.m3u8"

    /// A layout for `streamID`; throws when the id could escape its folder or needs escaping.
    public init(streamID: String) throws(Error) {
        let allowed = streamID.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_": true
            default: false
            }
        }
        guard !streamID.isEmpty, streamID.unicodeScalars.count <= 128, allowed else {
            throw .invalidStreamID(streamID)
        }
        self.streamID = streamID
    }

    /// The stream's folder: `streams/{id}`.
    public var directory: String { "streams/\(streamID)" }
    /// `streams/{id}/init.mp4`.
    public var initPath: String { "\(directory)/\(Self.initURI)" }
    /// `streams/{id}/playlist.m3u8`.
    public var playlistPath: String { "\(directory)/\(Self.playlistName)" }
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

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .invalidStreamID(let id):
                "The stream id \"\(id)\" cannot be used in a URL path: use 1 to 128 ASCII letters, digits, '-' or '_'."
            }
        }
    }
}
