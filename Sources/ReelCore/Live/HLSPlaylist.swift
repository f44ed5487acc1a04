import Foundation

/// A live fMP4 media playlist (RFC 8216, version 7) as plain data that renders its text.
///
/// It knows nothing of HTTP or files: the publisher decides which segments it lists. The
/// rendering is fixed by the spec:
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

        /// A segment listing.
        public init(sequence: Int, duration: MediaTime, programDateTime: Date, followsDiscontinuity: Bool = false) {
            self.sequence = sequence
            self.duration = duration
            self.programDateTime = programDateTime
            self.followsDiscontinuity = followsDiscontinuity
        }

        /// The segment's URI relative to the playlist, e.g. `seg/000001.m4s`.
        public var uri: String { StreamLayout.segmentURI(sequence: sequence) }
    }

    /// EXT-X-TARGETDURATION in whole seconds; fixed for the whole stream.
    public var targetDuration: Int
    /// EXT-X-MEDIA-SEQUENCE: the sequence number of the first listed segment.
    public var mediaSequence: Int
    /// The listed segments, in sequence order.
    public var segments: [Segment]
    /// Whether the playlist ends with EXT-X-ENDLIST (no more segments will be added).
    public var isFinished: Bool

    /// A playlist with the given fixed target duration.
    public init(targetDuration: Int, mediaSequence: Int = 1, segments: [Segment] = [], isFinished: Bool = false) {
        precondition(targetDuration > 0, "EXT-X-TARGETDURATION must be positive")
        self.targetDuration = targetDuration
        self.mediaSequence = mediaSequence
        self.segments = segments
        self.isFinished = isFinished
    }

    /// The sequence number of the last listed segment, or `nil` when none is listed.
    public var lastSequence: Int? { segments.last?.sequence }

    /// The playlist's text: UTF-8, `\n` line endings, ending with a newline.
    public func rendered() -> String {
        var lines = [
            "#EXTM3U",
            "#EXT-X-VERSION:7",
            "#EXT-X-TARGETDURATION:\(targetDuration)",
            "#EXT-X-PLAYLIST-TYPE:EVENT",
            "#EXT-X-INDEPENDENT-SEGMENTS",
            "#EXT-X-MEDIA-SEQUENCE:\(mediaSequence)",
            "#EXT-X-MAP:URI=\"\(StreamLayout.initURI)\"",
        ]
        lines.reserveCapacity(lines.count + segments.count * 3 + 1)
        for segment in segments {
            if segment.followsDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.programDateTimeString(segment.programDateTime))")
            lines.append("#EXTINF:\(segment.duration.seconds.formatted3),")
            lines.append(segment.uri)
        }
        if isFinished { lines.append("#EXT-X-ENDLIST") }
        return lines.joined(separator: "\n") + "\n"
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
    /// Shared with ``SigV4/timestamp(_:)``.
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
