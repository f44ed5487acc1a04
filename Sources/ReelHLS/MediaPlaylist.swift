import Foundation

/// A media playlist (RFC 8216 §4.3.3, with the low-latency tags of its second edition) as a
/// value: what Reel writes (``rendered()``) and reads (``init(parsing:)``) from any writer,
/// e.g. FFmpeg's hls muxer. Tags outside the model are skipped when reading.
///
/// Durations are seconds; the writer prints every decimal with three decimals (millisecond
/// precision), so a playlist whose durations are whole milliseconds reads back equal.
public struct MediaPlaylist: Sendable, Hashable {
    /// `EXT-X-PLAYLIST-TYPE`.
    public enum PlaylistType: String, Sendable, Hashable {
        case event = "EVENT"
        case vod = "VOD"
    }

    /// One media segment: its URI line and the tags before it.
    public struct Segment: Sendable, Hashable {
        public var uri: String
        /// `EXTINF`'s duration, seconds.
        public var duration: Double
        /// `EXTINF`'s title (after the comma; usually empty).
        public var title: String
        /// `EXT-X-PROGRAM-DATE-TIME` before it.
        public var programDateTime: Date?
        /// Whether `EXT-X-DISCONTINUITY` precedes it.
        public var followsDiscontinuity: Bool
        /// Whether `EXT-X-GAP` marks it missing.
        public var isGap: Bool
        /// Its low-latency parts (`EXT-X-PART`), listed before its `EXTINF`.
        public var parts: [Part]

        public init(uri: String, duration: Double, title: String = "", programDateTime: Date? = nil,
                    followsDiscontinuity: Bool = false, isGap: Bool = false, parts: [Part] = []) {
            self.uri = uri
            self.duration = duration
            self.title = title
            self.programDateTime = programDateTime
            self.followsDiscontinuity = followsDiscontinuity
            self.isGap = isGap
            self.parts = parts
        }
    }

    /// The segment in progress at the end of a low-latency playlist: its parts so far (at least one).
    public struct PartialSegment: Sendable, Hashable {
        public var programDateTime: Date?
        public var followsDiscontinuity: Bool
        public var parts: [Part]

        public init(programDateTime: Date? = nil, followsDiscontinuity: Bool = false, parts: [Part]) {
            self.programDateTime = programDateTime
            self.followsDiscontinuity = followsDiscontinuity
            self.parts = parts
        }
    }

    /// `EXT-X-PART`.
    public struct Part: Sendable, Hashable {
        public var uri: String
        /// `DURATION`, seconds.
        public var duration: Double
        /// `INDEPENDENT=YES`: it starts with a key frame.
        public var isIndependent: Bool
        /// `GAP=YES`.
        public var isGap: Bool

        public init(uri: String, duration: Double, isIndependent: Bool = false, isGap: Bool = false) {
            self.uri = uri
            self.duration = duration
            self.isIndependent = isIndependent
            self.isGap = isGap
        }

        init(_ list: HLSAttributeList) throws(HLSParseError) {
            self.init(uri: try list.required("URI", list.quotedString), duration: try list.required("DURATION", list.decimalFloat),
                      isIndependent: try list.boolean("INDEPENDENT") ?? false, isGap: try list.boolean("GAP") ?? false)
        }
    }

    /// `EXT-X-SERVER-CONTROL`.
    public struct ServerControl: Sendable, Hashable {
        /// `CAN-BLOCK-RELOAD=YES`: the server holds `_HLS_msn`/`_HLS_part` requests.
        public var canBlockReload: Bool
        /// `CAN-SKIP-UNTIL`: seconds from the end within which delta updates keep segments.
        public var canSkipUntil: Double?
        /// `CAN-SKIP-DATERANGES=YES`.
        public var canSkipDateRanges: Bool
        /// `HOLD-BACK`, seconds.
        public var holdBack: Double?
        /// `PART-HOLD-BACK`, seconds.
        public var partHoldBack: Double?

        public init(canBlockReload: Bool = false, canSkipUntil: Double? = nil, canSkipDateRanges: Bool = false,
                    holdBack: Double? = nil, partHoldBack: Double? = nil) {
            self.canBlockReload = canBlockReload
            self.canSkipUntil = canSkipUntil
            self.canSkipDateRanges = canSkipDateRanges
            self.holdBack = holdBack
            self.partHoldBack = partHoldBack
        }

        init(_ list: HLSAttributeList) throws(HLSParseError) {
            self.init(canBlockReload: try list.boolean("CAN-BLOCK-RELOAD") ?? false, canSkipUntil: try list.decimalFloat("CAN-SKIP-UNTIL"),
                      canSkipDateRanges: try list.boolean("CAN-SKIP-DATERANGES") ?? false, holdBack: try list.decimalFloat("HOLD-BACK"),
                      partHoldBack: try list.decimalFloat("PART-HOLD-BACK"))
        }
    }

    /// `EXT-X-PRELOAD-HINT`: a resource the server will publish next.
    public struct PreloadHint: Sendable, Hashable {
        /// `TYPE`: `PART` or `MAP`.
        public var type: String
        public var uri: String

        public init(type: String = "PART", uri: String) {
            self.type = type
            self.uri = uri
        }

        init(_ list: HLSAttributeList) throws(HLSParseError) {
            self.init(type: try list.required("TYPE", list.enumeratedString), uri: try list.required("URI", list.quotedString))
        }
    }

    /// `EXT-X-RENDITION-REPORT`: another rendition's last segment and part.
    public struct RenditionReport: Sendable, Hashable {
        public var uri: String
        /// `LAST-MSN`.
        public var lastMediaSequence: Int?
        /// `LAST-PART`.
        public var lastPart: Int?

        public init(uri: String, lastMediaSequence: Int?, lastPart: Int? = nil) {
            self.uri = uri
            self.lastMediaSequence = lastMediaSequence
            self.lastPart = lastPart
        }

        init(_ list: HLSAttributeList) throws(HLSParseError) {
            self.init(uri: try list.required("URI", list.quotedString), lastMediaSequence: try list.decimalInteger("LAST-MSN"),
                      lastPart: try list.decimalInteger("LAST-PART"))
        }
    }

    /// `EXT-X-VERSION` (nil: not written).
    public var version: Int?
    /// `EXT-X-TARGETDURATION`, whole seconds.
    public var targetDuration: Int
    public var serverControl: ServerControl?
    /// `EXT-X-PART-INF:PART-TARGET`, seconds.
    public var partTarget: Double?
    public var playlistType: PlaylistType?
    /// `EXT-X-INDEPENDENT-SEGMENTS`.
    public var hasIndependentSegments: Bool
    /// `EXT-X-MEDIA-SEQUENCE` (nil when absent, which RFC 8216 reads as 0).
    public var mediaSequence: Int?
    /// `EXT-X-DISCONTINUITY-SEQUENCE`.
    public var discontinuitySequence: Int?
    /// `EXT-X-MAP`'s URI (the first one when a playlist has several).
    public var mapURI: String?
    /// `EXT-X-SKIP:SKIPPED-SEGMENTS` of a delta update.
    public var skippedSegments: Int?
    public var segments: [Segment]
    /// Low-latency: the segment in progress after the listed ones.
    public var partialSegment: PartialSegment?
    public var preloadHints: [PreloadHint]
    public var renditionReports: [RenditionReport]
    /// `EXT-X-ENDLIST`.
    public var hasEndList: Bool

    public init(version: Int? = nil, targetDuration: Int, serverControl: ServerControl? = nil, partTarget: Double? = nil,
                playlistType: PlaylistType? = nil, hasIndependentSegments: Bool = false, mediaSequence: Int? = nil,
                discontinuitySequence: Int? = nil, mapURI: String? = nil, skippedSegments: Int? = nil, segments: [Segment] = [],
                partialSegment: PartialSegment? = nil, preloadHints: [PreloadHint] = [], renditionReports: [RenditionReport] = [],
                hasEndList: Bool = false) {
        self.version = version
        self.targetDuration = targetDuration
        self.serverControl = serverControl
        self.partTarget = partTarget
        self.playlistType = playlistType
        self.hasIndependentSegments = hasIndependentSegments
        self.mediaSequence = mediaSequence
        self.discontinuitySequence = discontinuitySequence
        self.mapURI = mapURI
        self.skippedSegments = skippedSegments
        self.segments = segments
        self.partialSegment = partialSegment
        self.preloadHints = preloadHints
        self.renditionReports = renditionReports
        self.hasEndList = hasEndList
    }
}
