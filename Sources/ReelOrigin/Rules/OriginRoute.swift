import ReelCore

/// What a request path names on Reel's origin, decided from the raw (still percent-encoded)
/// path alone. Anything that is not exactly one of these is `nil`, which the server answers
/// with 404.
///
/// ```
/// /                                    viewer page (the newest stream)
/// /watch/{id}                          viewer page for one stream
/// /viewer.js, /viewer.css              the viewer's script and style
/// /health                              health check
/// /api/streams                         the stream list (JSON)
/// /streams/{id}                        a whole stream (DELETE)
/// /streams/{id}/init.mp4               init segment           (GET, HEAD, PUT, DELETE)
/// /streams/{id}/playlist.m3u8          media playlist         (GET, HEAD, PUT, DELETE)
/// /streams/{id}/seg/NNNNNN.m4s         media segment (6 to 10 digits; GET, HEAD, PUT, DELETE)
/// /streams/{id}/part/NNNNNN.P.m4s      part P of a segment, LL-HLS (GET, HEAD, PUT, DELETE)
/// /streams/{id}/{rung}/init.mp4        the same four files of one rung of an ABR ladder,
/// /streams/{id}/{rung}/playlist.m3u8   whose /streams/{id}/playlist.m3u8 is then the
/// /streams/{id}/{rung}/seg/NNNNNN.m4s  multivariant playlist (same methods)
/// /streams/{id}/{rung}/part/NNNNNN.P.m4s
/// ```
///
/// Rung names follow ``StreamLayout/isValidRungName(_:)`` (`[a-z0-9-]{1,32}`, not starting
/// with `-`, never `seg` or `part`), so `/streams/{id}/seg/…` is never read as a rung and a
/// rung's path is never a stream file's. A rung alone (`/streams/{id}/{rung}`) names
/// nothing: a ladder is deleted as a whole, with `DELETE /streams/{id}`.
///
/// Each component is matched against an allow-list grammar (ids are `[A-Za-z0-9_-]{1,128}`,
/// see ``StreamLayout``). No name Reel serves needs a percent-escape, so a path holding one
/// names nothing: every file has exactly one path (a cache in front keys it once), and `..`,
/// `%2e%2e`, an encoded `/` (`%2f`), a NUL (`%00`), empty components (`//etc`), a trailing
/// slash and absolute-form targets (`http://…`) can never name anything.
public enum OriginRoute: Sendable, Hashable {
    /// `/`: the viewer, following the newest stream.
    case index
    /// `/watch/{id}`: the viewer, showing one stream.
    case watch(StreamLayout)
    /// `/viewer.js` or `/viewer.css`.
    case viewerAsset(ViewerAsset)
    /// `/health`.
    case health
    /// `/api/streams`.
    case streamList
    /// `/streams/{id}`: the stream as a whole (only DELETE).
    case stream(StreamLayout)
    /// One file of a stream.
    case streamFile(StreamLayout, OriginFile)

    /// Longest path accepted; longer paths name nothing.
    public static let maximumPathLength = 1024

    /// The route for the raw request path (without the query), or `nil` for anything else.
    public init?(path: String) {
        var path = path
        guard let components = path.withUTF8(Self.components) else { return nil }
        switch components.count {
        case 1:
            switch components[0] {
            case "": self = .index
            case "health": self = .health
            default:
                guard let asset = ViewerAsset(rawValue: components[0]) else { return nil }
                self = .viewerAsset(asset)
            }
        case 2:
            if components == ["api", "streams"] { self = .streamList; return }
            guard components[0] == "streams" || components[0] == "watch",
                  let layout = try? StreamLayout(streamID: components[1]) else { return nil }
            self = components[0] == "watch" ? .watch(layout) : .stream(layout)
        case 3, 4, 5:
            guard components[0] == "streams", let layout = try? StreamLayout(streamID: components[1]) else { return nil }
            if let file = Self.file(components[2...]) {
                self = .streamFile(layout, file)
            } else if components.count > 3, let rung = try? layout.rung(components[2]), let file = Self.file(components[3...]) {
                self = .streamFile(rung, file)
            } else {
                return nil
            }
        default:
            return nil
        }
    }

    /// The file the components below a stream's (or a rung's) folder name: `init.mp4`,
    /// `playlist.m3u8`, `seg/NNNNNN.m4s` or `part/NNNNNN.P.m4s`.
    static func file(_ components: ArraySlice<String>) -> OriginFile? {
        switch (components.count, components.first ?? "") {
        case (1, StreamLayout.initURI): .initSegment
        case (1, StreamLayout.playlistName): .playlist
        case (2, "seg"): OriginFile.segmentSequence(fileName: components.last!).map { .segment(sequence: $0) }
        case (2, "part"): OriginFile.partName(fileName: components.last!).map { .part(sequence: $0.sequence, index: $0.index) }
        default: nil
        }
    }

    /// The path's components after the leading `/`; `nil` for a path that is too long, not
    /// absolute, has more than five components (no route has) or a percent-escape.
    static func components(_ path: UnsafeBufferPointer<UInt8>) -> [String]? {
        guard path.count <= maximumPathLength, path.first == UInt8(ascii: "/") else { return nil }
        var components: [String] = []
        components.reserveCapacity(5)
        var start = 1
        while true {
            guard components.count < 5 else { return nil }
            var end = start
            while end < path.count && path[end] != UInt8(ascii: "/") {
                if path[end] == UInt8(ascii: "%") { return nil }
                end += 1
            }
            // The bytes are a String's, so valid UTF-8.
            components.append(String(decoding: UnsafeBufferPointer(rebasing: path[start..<end]), as: UTF8.self))
            guard end < path.count else { return components }
            start = end + 1
        }
    }

    /// The viewer's static files, served from the binary.
    public enum ViewerAsset: String, Sendable, Hashable, CaseIterable {
        case script = "viewer.js"
        case style = "viewer.css"

        /// Its `Content-Type`.
        public var contentType: String {
            switch self {
            case .script: "text/javascript; charset=utf-8"
            case .style: "text/css; charset=utf-8"
            }
        }
    }
}
