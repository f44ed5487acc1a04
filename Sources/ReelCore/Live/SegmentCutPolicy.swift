/// Decides where the live HLS stream cuts segments, frame by frame.
///
/// Feed it every video frame's stream PTS (after ``SampleTimeline``) in arrival order; it
/// answers with the actions to take for that frame:
///
/// - The first frame starts segment 1.
/// - A frame whose PTS is at or after `segmentStart + interval - frameDuration / 2` starts
///   the next segment and must be encoded as an IDR key frame (the half-frame tolerance makes
///   2 s segments of 60 frames at 30 fps cut exactly on the 61st frame).
/// - A frame later than `segmentStart + interval + frameDuration / 2` (a gap: dropped frames,
///   a stalled camera) would make the segment too long, so the policy first asks for a repeat
///   of the previous frame stamped exactly at the boundary, as the key frame of the next
///   segment, and then places the late frame, repeating at every boundary the gap spans.
/// - A gap longer than `discontinuityIntervals × interval` is not filled: the current segment
///   ends at its last frame's end, a `.discontinuity` is reported, and the late frame starts a
///   new segment.
/// - A frame whose PTS is not strictly after the previous one is dropped.
///
/// So every segment lasts at most `interval + frameDuration / 2`, below
/// ``maximumSegmentDuration`` (`interval + frameDuration`), and ``targetDuration`` (derived
/// from it) holds for the whole stream.
///
/// Durations are exact when all PTS share one timescale (or when the interval and frame
/// duration are representable in it); mixed timescales fall back to `MediaTime`'s rounding.
public struct SegmentCutPolicy: Sendable {
    /// An invalid configuration.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The segment interval must be longer than zero.
        case nonPositiveInterval(MediaTime)
        /// The frame duration must be longer than zero.
        case nonPositiveFrameDuration(MediaTime)
        /// The frame duration must not exceed the segment interval.
        case frameDurationExceedsInterval(frameDuration: MediaTime, interval: MediaTime)
        /// The discontinuity threshold must be at least one interval.
        case invalidDiscontinuityIntervals(Int)

        /// A message a user can act on.
        public var description: String {
            switch self {
            case .nonPositiveInterval(let interval):
                return "segment interval must be positive, got \(interval)"
            case .nonPositiveFrameDuration(let duration):
                return "frame duration must be positive, got \(duration)"
            case .frameDurationExceedsInterval(let duration, let interval):
                return "frame duration \(duration) must not exceed the segment interval \(interval)"
            case .invalidDiscontinuityIntervals(let count):
                return "discontinuity threshold must be at least 1 interval, got \(count)"
            }
        }
    }

    /// Why a frame is not encoded.
    public enum DropReason: Equatable, Sendable {
        /// The frame's PTS is not strictly after the previous frame's.
        case nonMonotonic(previous: MediaTime)
        /// The policy was already finished.
        case finished
    }

    /// What to do for one input frame; a frame yields one or more actions, in order.
    public enum Action: Equatable, Sendable {
        /// Encode the frame at `pts` in segment `segmentIndex`; a key frame (IDR) when it
        /// starts that segment.
        case encode(pts: MediaTime, keyFrame: Bool, segmentIndex: Int)
        /// Encode the previous encoded frame again at `pts` as the IDR key frame that starts
        /// segment `segmentIndex` (fills a gap so no segment grows too long).
        case repeatPrevious(pts: MediaTime, segmentIndex: Int)
        /// The stream jumps: `gap` of time is not covered by any segment, and segment
        /// `segmentIndex` (started by the next action's key frame) follows the gap
        /// (EXT-X-DISCONTINUITY).
        case discontinuity(gap: MediaTime, segmentIndex: Int)
        /// Do not encode the frame.
        case drop(DropReason)
    }

    /// A closed segment and its real duration (its EXTINF).
    public struct Segment: Equatable, Sendable {
        /// The 1-based segment number.
        public var index: Int
        /// The PTS of the segment's first (key) frame.
        public var start: MediaTime
        /// The real duration: up to the next segment's first PTS, or to the end of the last
        /// frame when the segment ends the stream or precedes a discontinuity.
        public var duration: MediaTime
        /// Whether a discontinuity precedes this segment.
        public var followsDiscontinuity: Bool

        /// A segment record.
        public init(index: Int, start: MediaTime, duration: MediaTime, followsDiscontinuity: Bool = false) {
            self.index = index
            self.start = start
            self.duration = duration
            self.followsDiscontinuity = followsDiscontinuity
        }

        /// `start + duration`.
        public var end: MediaTime { MediaTime.lcmSum(start, duration) }
    }

    /// The nominal segment length (and key-frame interval).
    public let interval: MediaTime
    /// The nominal duration of one video frame.
    public let frameDuration: MediaTime
    /// Gaps longer than this many intervals are reported as discontinuities, not filled.
    public let discontinuityIntervals: Int
    /// The longest segment the policy will ever cut: `interval + frameDuration`.
    public let maximumSegmentDuration: MediaTime
    /// EXT-X-TARGETDURATION in whole seconds, constant for the stream: the maximum segment
    /// duration rounded to milliseconds (as EXTINF prints) and then to the nearest second,
    /// at least 1. Every segment's EXTINF, rounded to nearest, is at most this.
    public let targetDuration: Int

    /// Segments closed so far, in order.
    public private(set) var completedSegments: [Segment] = []
    /// The index of the segment being filled; 0 before the first frame.
    public private(set) var currentSegmentIndex = 0
    /// Repeated frames requested so far.
    public private(set) var repeatedFrames = 0
    /// Frames dropped so far (non-monotonic or after finish).
    public private(set) var droppedFrames = 0
    /// Discontinuities reported so far.
    public private(set) var discontinuities = 0
    /// Whether ``finish()`` has been called.
    public private(set) var isFinished = false

    private let earliestCut: MediaTime
    private let latestCut: MediaTime
    private let discontinuitySpan: MediaTime
    private var segmentStart: MediaTime?
    private var segmentFollowsDiscontinuity = false
    private var lastPTS: MediaTime?

    /// A policy cutting every `interval` for frames of nominal `frameDuration`.
    ///
    /// - Throws: ``Error`` when the interval or frame duration is not positive, the frame
    ///   duration exceeds the interval, or `discontinuityIntervals < 1`.
    public init(
        interval: MediaTime = MediaTime(value: 2, timescale: 1),
        frameDuration: MediaTime,
        discontinuityIntervals: Int = 10
    ) throws(Error) {
        guard interval > .zero else { throw .nonPositiveInterval(interval) }
        guard frameDuration > .zero else { throw .nonPositiveFrameDuration(frameDuration) }
        guard frameDuration <= interval else {
            throw .frameDurationExceedsInterval(frameDuration: frameDuration, interval: interval)
        }
        guard discontinuityIntervals >= 1 else { throw .invalidDiscontinuityIntervals(discontinuityIntervals) }
        self.interval = interval
        self.frameDuration = frameDuration
        self.discontinuityIntervals = discontinuityIntervals
        let maximum = MediaTime.lcmSum(interval, frameDuration)
        maximumSegmentDuration = maximum
        targetDuration = max(1, Int(maximum.converted(to: 1000).converted(to: 1).value))
        let halfFrame = frameDuration.halved
        earliestCut = MediaTime.lcmDifference(interval, halfFrame)
        latestCut = MediaTime.lcmSum(interval, halfFrame)
        discontinuitySpan = interval * Int64(discontinuityIntervals)
    }

    /// The actions for the next video frame, stamped `pts` on the stream timeline.
    public mutating func frame(pts: MediaTime) -> [Action] {
        guard !isFinished else {
            droppedFrames += 1
            return [.drop(.finished)]
        }
        guard let last = lastPTS, var start = segmentStart else {
            currentSegmentIndex = 1
            segmentStart = pts
            lastPTS = pts
            return [.encode(pts: pts, keyFrame: true, segmentIndex: 1)]
        }
        guard pts > last else {
            droppedFrames += 1
            return [.drop(.nonMonotonic(previous: last))]
        }
        var actions: [Action] = []
        if MediaTime.lcmDifference(pts, last) > discontinuitySpan {
            let end = MediaTime.lcmSum(last, frameDuration)
            close(endingAt: end)
            discontinuities += 1
            currentSegmentIndex += 1
            segmentStart = pts
            segmentFollowsDiscontinuity = true
            lastPTS = pts
            actions.append(.discontinuity(gap: MediaTime.lcmDifference(pts, end), segmentIndex: currentSegmentIndex))
            actions.append(.encode(pts: pts, keyFrame: true, segmentIndex: currentSegmentIndex))
            return actions
        }
        // Fill every boundary the gap overshoots with a repeated frame.
        while MediaTime.lcmDifference(pts, start) > latestCut {
            let boundary = MediaTime.lcmSum(start, interval)
            startSegment(at: boundary)
            start = boundary
            repeatedFrames += 1
            actions.append(.repeatPrevious(pts: boundary, segmentIndex: currentSegmentIndex))
        }
        if MediaTime.lcmDifference(pts, start) >= earliestCut {
            startSegment(at: pts)
            actions.append(.encode(pts: pts, keyFrame: true, segmentIndex: currentSegmentIndex))
        } else {
            actions.append(.encode(pts: pts, keyFrame: false, segmentIndex: currentSegmentIndex))
        }
        lastPTS = pts
        return actions
    }

    /// Ends the stream: closes the last segment at the end of its last frame
    /// (`last PTS + frameDuration`) and returns it; `nil` when no frame was ever placed or
    /// the policy was already finished. Later frames are dropped with `.finished`.
    @discardableResult
    public mutating func finish() -> Segment? {
        guard !isFinished else { return nil }
        isFinished = true
        guard let last = lastPTS else { return nil }
        close(endingAt: MediaTime.lcmSum(last, frameDuration))
        return completedSegments.last
    }

    private mutating func startSegment(at pts: MediaTime) {
        close(endingAt: pts)
        currentSegmentIndex += 1
        segmentStart = pts
        segmentFollowsDiscontinuity = false
    }

    private mutating func close(endingAt end: MediaTime) {
        guard let start = segmentStart else { return }
        completedSegments.append(Segment(
            index: currentSegmentIndex,
            start: start,
            duration: MediaTime.lcmDifference(end, start),
            followsDiscontinuity: segmentFollowsDiscontinuity
        ))
    }
}

extension MediaTime {
    /// Half of the time: exact when the value is even or the doubled timescale fits,
    /// otherwise rounded down (a slightly tighter tolerance, never a longer segment).
    var halved: MediaTime {
        if value % 2 == 0 { return MediaTime(value: value / 2, timescale: timescale) }
        if timescale <= Int32.max / 2 { return MediaTime(value: value, timescale: timescale * 2) }
        return MediaTime(value: value / 2, timescale: timescale)
    }

    /// `lhs + rhs`, exact in the least common timescale when it fits in `Int32`;
    /// otherwise `MediaTime`'s own (rounding) `+`.
    static func lcmSum(_ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, negate: false) ?? lhs + rhs
    }

    /// `lhs - rhs`, exact in the least common timescale when it fits in `Int32`;
    /// otherwise `MediaTime`'s own (rounding) `-`.
    static func lcmDifference(_ lhs: MediaTime, _ rhs: MediaTime) -> MediaTime {
        combine(lhs, rhs, negate: true) ?? lhs - rhs
    }

    private static func combine(_ lhs: MediaTime, _ rhs: MediaTime, negate: Bool) -> MediaTime? {
        let a = Int64(lhs.timescale), b = Int64(rhs.timescale)
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        let common = a / x * b
        guard common <= Int64(Int32.max) else { return nil }
        let (left, o1) = lhs.value.multipliedReportingOverflow(by: common / a)
        let (right, o2) = rhs.value.multipliedReportingOverflow(by: common / b)
        let (result, o3) = negate ? left.subtractingReportingOverflow(right) : left.addingReportingOverflow(right)
        guard !o1, !o2, !o3 else { return nil }
        return MediaTime(value: result, timescale: Int32(common))
    }
}
