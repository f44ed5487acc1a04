import Foundation

/// A live fMP4 media playlist (RFC 8216, version 7) as plain data that renders its text.
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

    /// The playlist's text: UTF-8, `\n` line endings, ending with a newline.
    public func rendered() -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-TARGETDURATION:\(targetDuration)"]
        if let lowLatency {
            let skip = Double(6 * targetDuration).formatted3
            let holdBack = (Double(lowLatency.partHoldBackMilliseconds) / 1000).formatted3
            lines.append("#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=\(skip),PART-HOLD-BACK=\(holdBack)")
            lines.append("#EXT-X-PART-INF:PART-TARGET=\((Double(lowLatency.partTargetMilliseconds) / 1000).formatted3)")
        }
        if !isSlidingWindow { lines.append("#EXT-X-PLAYLIST-TYPE:EVENT") }
        lines += ["#EXT-X-INDEPENDENT-SEGMENTS", "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)"]
        if isSlidingWindow { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence)") }
        lines.append("#EXT-X-MAP:URI=\"\(StreamLayout.initURI)\"")
        lines.reserveCapacity(lines.count + segments.count * 3 + 1)
        for segment in segments {
            if segment.followsDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.programDateTimeString(segment.programDateTime))")
            if lowLatency != nil { lines += segment.parts.map(Self.partLine) }
            lines.append("#EXTINF:\(segment.duration.seconds.formatted3),")
            lines.append(segment.uri)
        }
        if lowLatency != nil, !isFinished {
            if let partial, !partial.parts.isEmpty {
                if partial.followsDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
                lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.programDateTimeString(partial.programDateTime))")
                lines += partial.parts.map(Self.partLine)
            }
            if let preloadHint { lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"\(preloadHint.uri)\"") }
            lines += renditionReportLines()
        }
        if isFinished { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
    }

    /// `EXT-X-RENDITION-REPORT` for each other rung: this playlist's last segment (the one in
    /// progress, when it has parts) and its last part.
    private func renditionReportLines() -> [String] {
        guard let reports = lowLatency?.renditionReports, !reports.isEmpty else { return [] }
        let last: (sequence: Int, part: Int?)
        if let partial, let part = partial.parts.last {
            last = (partial.sequence, part.address.index)
        } else if let segment = segments.last {
            last = (segment.sequence, segment.parts.last?.address.index)
        } else {
            return []
        }
        return reports.map { uri in
            "#EXT-X-RENDITION-REPORT:URI=\"\(uri)\",LAST-MSN=\(last.sequence)" + (last.part.map { ",LAST-PART=\($0)" } ?? "")
        }
    }

    private static func partLine(_ part: Part) -> String {
        "#EXT-X-PART:DURATION=\(part.duration.seconds.formatted3),URI=\"\(part.address.uri)\"" + (part.isIndependent ? ",INDEPENDENT=YES" : "")
    }

    /// ``rendered()`` as UTF-8 bytes, ready to upload.
    public func renderedData() -> Data { Data(rendered().utf8) }

    /// `date` as ISO 8601 in UTC with milliseconds (rounded to nearest), e.g.
    /// `2026-11-30T02:43:11.123Z`, as EXT-X-PROGRAM-DATE-TIME wants it.
    ///
    /// Computed with integer calendar arithmetic (proleptic Gregorian), so the output does not
    /// depend on the locale, time zone or formatter behaviour of the platform.
    public static func programDateTimeString(_ date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivide(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = msOfDay / 3_600_000
        let minute = msOfDay / 60_000 % 60
        let second = msOfDay / 1000 % 60
        let millisecond = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
    }

    private static func floorDivide(_ a: Int64, _ b: Int64) -> (quotient: Int64, remainder: Int64) {
        var q = a / b
        var r = a % b
        if r < 0 { q -= 1; r += b }
        return (q, r)
    }

    /// Days since 1970-01-01 to a Gregorian (year, month, day) (H. Hinnant's `civil_from_days`).
    static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
