import Foundation
import ReelHLS

/// A live fMP4 media playlist (RFC 8216, version 7) of a Reel stream, as plain data: segments
/// by sequence number, durations as ``MediaTime``, the LL-HLS settings Reel uses. It becomes
/// ReelHLS's ``MediaPlaylist`` (``mediaPlaylist``), which writes the text.
///
/// It knows nothing of HTTP or files: the publisher decides which segments it lists. The
/// rendering is fixed (docs/behaviour.md §2, Playlist):
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:7
/// #EXT-X-TARGETDURATION:2
/// #EXT-X-PLAYLIST-TYPE:EVENT
/// #EXT-X-INDEPENDENT-SEGMENTS
/// #EXT-X-MEDIA-SEQUENCE:1
/// #EXT-X-MAP:URI="init.mp4"
/// #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:11.123Z
/// #EXTINF:2.000,
/// seg/000001.m4s
/// #EXT-X-DISCONTINUITY                          (only before a segment after a gap)
/// #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:31.500Z
/// #EXTINF:2.000,
/// seg/000002.m4s
/// #EXT-X-ENDLIST
/// ```
///
/// No EXT-X-DISCONTINUITY-SEQUENCE is needed: an EVENT playlist never drops a segment.
///
/// A sliding-window playlist (``isSlidingWindow``, `reel live --window`) lists only the most
/// recent segments: it has no `EXT-X-PLAYLIST-TYPE` (an EVENT playlist may not drop any),
/// its `EXT-X-MEDIA-SEQUENCE` is its first segment's number, and
/// `EXT-X-DISCONTINUITY-SEQUENCE` counts the discontinuities of the segments it dropped.
///
/// With ``lowLatency`` set it is an LL-HLS playlist (RFC 8216bis, see ``LowLatency``): the
/// header gains `EXT-X-SERVER-CONTROL` and `EXT-X-PART-INF`, the recent segments list their
/// parts (`EXT-X-PART`) before their `EXTINF`, the segment in progress follows as
/// ``partial`` parts, and `EXT-X-PRELOAD-HINT` names the next part. A player without LL-HLS
/// ignores those tags and reads the same segments.
public struct HLSPlaylist: Sendable, Hashable {
    /// One listed media segment.
    public struct Segment: Sendable, Hashable {
        /// The segment's sequence number (the first segment of a stream is 1).
        public var sequence: Int
        /// The segment's real duration (EXTINF, printed with millisecond precision).
        public var duration: MediaTime
        /// Wall-clock time of the segment's first frame (EXT-X-PROGRAM-DATE-TIME).
        public var programDateTime: Date
        /// Whether a gap in the media timeline precedes this segment (the source stalled for
        /// longer than the cut policy bridges): rendered as EXT-X-DISCONTINUITY before it.
        public var followsDiscontinuity: Bool
        /// Its LL-HLS parts, listed before its EXTINF (empty: none listed).
        public var parts: [Part]

        /// A segment listing.
        public init(sequence: Int, duration: MediaTime, programDateTime: Date, followsDiscontinuity: Bool = false,
                    parts: [Part] = []) {
            self.sequence = sequence
            self.duration = duration
            self.programDateTime = programDateTime
            self.followsDiscontinuity = followsDiscontinuity
            self.parts = parts
        }

        /// The segment's URI relative to the playlist, e.g. `seg/000001.m4s`.
        public var uri: String { StreamLayout.segmentURI(sequence: sequence) }
    }

    /// Where a part is: its segment's sequence number and its index in that segment (0, 1, …).
    public struct PartAddress: Sendable, Hashable {
        /// The sequence number of the segment the part belongs to.
        public var sequence: Int
        /// The part's index in its segment; part 0 starts with the segment's key frame.
        public var index: Int

        /// A part's address.
        public init(sequence: Int, index: Int) {
            self.sequence = sequence
            self.index = index
        }

        /// The part's URI relative to the playlist, e.g. `part/000001.0.m4s`.
        public var uri: String { StreamLayout.partURI(sequence: sequence, index: index) }
    }

    /// One LL-HLS part (`EXT-X-PART`): a fragment of a segment, published as its own file.
    public struct Part: Sendable, Hashable {
        /// Where the part is.
        public var address: PartAddress
        /// Its real duration (printed with millisecond precision); at most the part target.
        public var duration: MediaTime
        /// Whether it starts with a key frame (`INDEPENDENT=YES`).
        public var isIndependent: Bool

        /// A part listing.
        public init(address: PartAddress, duration: MediaTime, isIndependent: Bool) {
            self.address = address
            self.duration = duration
            self.isIndependent = isIndependent
        }
    }

    /// The segment in progress of an LL-HLS playlist: the parts published so far of the
    /// segment after the last listed one.
    public struct PartialSegment: Sendable, Hashable {
        /// The segment's sequence number (the last listed segment's plus one).
        public var sequence: Int
        /// Wall-clock time of its first frame.
        public var programDateTime: Date
        /// Its parts so far, from part 0 on, in order.
        public var parts: [Part]
        /// Whether a gap in the media timeline precedes it.
        public var followsDiscontinuity: Bool

        /// A segment in progress.
        public init(sequence: Int, programDateTime: Date, parts: [Part], followsDiscontinuity: Bool = false) {
            self.sequence = sequence
            self.programDateTime = programDateTime
            self.parts = parts
            self.followsDiscontinuity = followsDiscontinuity
        }
    }

    /// The LL-HLS settings of a playlist (RFC 8216bis; Apple's low-latency HLS):
    ///
    /// ```
    /// #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.000,PART-HOLD-BACK=1.050
    /// #EXT-X-PART-INF:PART-TARGET=0.350
    /// ```
    ///
    /// - `PART-TARGET` is the longest part, rounded up to the millisecond, so every part's
    ///   DURATION (rounded to nearest) is at most it.
    /// - `PART-HOLD-BACK` is three part targets, the least RFC 8216bis recommends (it requires
    ///   two): how far from the live edge a player starts.
    /// - `CAN-SKIP-UNTIL` is six target durations, the least RFC 8216bis allows: older
    ///   segments may be left out of a delta update (`_HLS_skip=YES`, made by `reel serve`).
    /// - `CAN-BLOCK-RELOAD=YES`: the origin holds `_HLS_msn`/`_HLS_part` requests until the
    ///   playlist has that part (`reel serve` does; a bucket or a plain web server cannot).
    /// - Parts are listed for the segments of the last ``partWindowTargetDurations`` target
    ///   durations; older segments are listed as whole segments only.
    /// - In an ABR ladder, `EXT-X-RENDITION-REPORT` names each other rung's playlist with this
    ///   playlist's own last segment and part: every rung is cut at the same times, so each
    ///   reaches that part at about the same moment, and a player switching rungs asks the new
    ///   one for it with a blocking reload (which the origin holds until it is there) instead of
    ///   loading its playlist twice.
    public struct LowLatency: Sendable, Hashable {
        /// The longest part (its exact value; the tag prints it rounded up to milliseconds).
        public var partTarget: MediaTime
        /// The other rungs' media playlists relative to this one (`../low/playlist.m3u8`), for
        /// `EXT-X-RENDITION-REPORT`; empty for a stream of one rendition.
        public var renditionReports: [String]

        /// LL-HLS settings for parts of at most `partTarget`, reporting on `renditionReports`.
        public init(partTarget: MediaTime, renditionReports: [String] = []) {
            precondition(partTarget > .zero, "the part target must be positive")
            self.partTarget = partTarget
            self.renditionReports = renditionReports
        }

        /// Segments ending within this many target durations of the playlist's end list their parts.
        public static let partWindowTargetDurations = 3

        /// `PART-TARGET` in seconds as printed: rounded up to whole milliseconds.
        public var partTargetMilliseconds: Int64 { partTarget.converted(to: 1000, rounding: .up).value }
        /// `PART-HOLD-BACK` in milliseconds: three printed part targets.
        public var partHoldBackMilliseconds: Int64 { 3 * partTargetMilliseconds }
    }

    /// EXT-X-TARGETDURATION in whole seconds; fixed for the whole stream.
    public var targetDuration: Int
    /// EXT-X-MEDIA-SEQUENCE: the sequence number of the first listed segment.
    public var mediaSequence: Int
    /// The listed segments, in sequence order.
    public var segments: [Segment]
    /// Whether older segments may leave the playlist: no `EXT-X-PLAYLIST-TYPE:EVENT`, and an
    /// `EXT-X-DISCONTINUITY-SEQUENCE`.
    public var isSlidingWindow = false
    /// `EXT-X-DISCONTINUITY-SEQUENCE` of a sliding window: the discontinuities before the first
    /// listed segment.
    public var discontinuitySequence = 0
    /// Whether the playlist ends with EXT-X-ENDLIST (no more segments will be added).
    public var isFinished: Bool
    /// LL-HLS settings; nil for a regular playlist (then no part is ever rendered).
    public var lowLatency: LowLatency?
    /// LL-HLS: the segment in progress, after the listed segments.
    public var partial: PartialSegment?
    /// LL-HLS: the next part, named by `EXT-X-PRELOAD-HINT` (not rendered once finished).
    public var preloadHint: PartAddress?

    /// A playlist with the given fixed target duration.
    public init(targetDuration: Int, mediaSequence: Int = 1, segments: [Segment] = [], isFinished: Bool = false,
                lowLatency: LowLatency? = nil, partial: PartialSegment? = nil, preloadHint: PartAddress? = nil) {
        precondition(targetDuration > 0, "EXT-X-TARGETDURATION must be positive")
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.segments = segments
        self.isFinished = isFinished
        self.lowLatency = lowLatency
        self.partial = partial
        self.preloadHint = preloadHint
    }

    /// The sequence number of the last listed segment, or `nil` when none is listed.
    public var lastSequence: Int? { segments.last?.sequence }

    /// The playlist's text: UTF-8, `\n` line endings, ending with a newline (``mediaPlaylist`` written).
    public func rendered() -> String { mediaPlaylist.rendered() }

    /// The playlist as ReelHLS's value, which writes it: version 7, fMP4 (`EXT-X-MAP` of the
    /// init segment), independent segments; EVENT unless it is a sliding window; the LL-HLS
    /// tags only with ``lowLatency``, and the segment in progress, preload hint and rendition
    /// reports only until it is finished.
    public var mediaPlaylist: MediaPlaylist {
        var playlist = MediaPlaylist(
            version: 7, targetDuration: targetDuration, playlistType: isSlidingWindow ? nil : .event, hasIndependentSegments: true,
            mediaSequence: mediaSequence, discontinuitySequence: isSlidingWindow ? discontinuitySequence : nil,
            mapURI: StreamLayout.initURI, hasEndList: isFinished)
        if let lowLatency {
            playlist.serverControl = .init(canBlockReload: true, canSkipUntil: Double(6 * targetDuration),
                                           partHoldBack: Double(lowLatency.partHoldBackMilliseconds) / 1000)
            playlist.partTarget = Double(lowLatency.partTargetMilliseconds) / 1000
        }
        playlist.segments = segments.map { segment in
            MediaPlaylist.Segment(uri: segment.uri, duration: segment.duration.seconds, programDateTime: segment.programDateTime,
                                  followsDiscontinuity: segment.followsDiscontinuity,
                                  parts: lowLatency == nil ? [] : segment.parts.map(Self.listing))
        }
        if lowLatency != nil, !isFinished {
            if let partial, !partial.parts.isEmpty {
                playlist.partialSegment = .init(programDateTime: partial.programDateTime, followsDiscontinuity: partial.followsDiscontinuity,
                                                parts: partial.parts.map(Self.listing))
            }
            playlist.preloadHints = preloadHint.map { [.init(type: "PART", uri: $0.uri)] } ?? []
            playlist.renditionReports = renditionReports()
        }
        return playlist
    }

    /// `EXT-X-RENDITION-REPORT` for each other rung: this playlist's last segment (the one in
    /// progress, when it has parts) and its last part.
    private func renditionReports() -> [MediaPlaylist.RenditionReport] {
        guard let reports = lowLatency?.renditionReports, !reports.isEmpty else { return [] }
        let last: (sequence: Int, part: Int?)
        if let partial, let part = partial.parts.last {
            last = (partial.sequence, part.address.index)
        } else if let segment = segments.last {
            last = (segment.sequence, segment.parts.last?.address.index)
        } else {
            return []
        }
        return reports.map { MediaPlaylist.RenditionReport(uri: $0, lastMediaSequence: last.sequence, lastPart: last.part) }
    }

    private static func listing(_ part: Part) -> MediaPlaylist.Part {
        MediaPlaylist.Part(uri: part.address.uri, duration: part.duration.seconds, isIndependent: part.isIndependent)
    }

    /// ``rendered()`` as UTF-8 bytes, ready to upload.
    public func renderedData() -> Data { Data(rendered().utf8) }

    /// `date` as ISO 8601 in UTC with milliseconds (rounded to nearest), e.g.
    /// `2026-11-30T02:43:11.123Z`, as EXT-X-PROGRAM-DATE-TIME wants it (``HLSDateTime``).
    public static func programDateTimeString(_ date: Date) -> String { HLSDateTime.string(from: date) }

}
