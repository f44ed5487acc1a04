/// Decides where LL-HLS parts start inside the segments ``SegmentCutPolicy`` cuts, frame by
/// frame, so that no part ever lasts longer than ``partTarget`` (`EXT-X-PART-INF:PART-TARGET`;
/// Apple's players refuse a playlist with a longer part).
///
/// Feed it what the segment policy placed, in order: every encoded or repeated frame with its
/// PTS and whether it is a key frame, and every discontinuity. It answers with the frames to
/// encode, each marked when it starts a part, and inserts repeats of the previous picture
/// where a gap would make a part too long:
///
/// - A key frame starts a segment and so a part (an *independent* part).
/// - Inside a segment, a frame at or after `partStart + interval - frameDuration / 2` starts
///   the next part (the half-frame tolerance makes parts of 10 frames at 30 fps cut on the
///   11th frame).
/// - A frame later than `partStart + interval + frameDuration / 2` (the camera stalled inside
///   a segment) first gets the previous picture repeated at `partStart + interval`, starting
///   a part there, as often as the gap needs. The segment policy fills gaps only at segment
///   boundaries; parts are shorter, so they need their own fill.
/// - A discontinuity ends the part at its last frame's end, like the segment it ends.
///
/// So every part lasts at most `interval + frameDuration / 2`: ``partTarget``. The interval is
/// a whole number of frames (``init(requestedInterval:frameDuration:)``).
public struct PartCutPolicy: Sendable {
    /// What to encode for one frame the segment policy placed; one or more, in order.
    public enum Action: Equatable, Sendable {
        /// Place the frame that was passed in (a new picture or the segment policy's repeat)
        /// at `pts`, a key frame when the segment policy asked for one; `startsPart` when a
        /// part begins with it.
        case place(pts: MediaTime, keyFrame: Bool, startsPart: Bool)
        /// Encode the previous picture again at `pts`, starting a part (never a key frame:
        /// it fills a gap inside a segment).
        case repeatPrevious(pts: MediaTime)
    }

    /// Why a part length cannot be used.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The frames are too long for parts of at most ``PartCutPolicy/longestPartTarget``.
        case framesTooLong(frameDuration: MediaTime)
        /// The requested part length is not positive.
        case nonPositiveInterval(MediaTime)

        /// A message a user can act on.
        public var description: String {
            switch self {
            case .framesTooLong(let duration):
                "Low-latency HLS needs parts of at most 1 s, but one frame lasts \(duration.seconds.formatted3) s: use a frame rate of at least 2 fps, or leave out --low-latency."
            case .nonPositiveInterval(let interval):
                "The part duration must be longer than zero, got \(interval.seconds.formatted3) s."
            }
        }
    }

    /// The longest part target this policy makes: LL-HLS parts are meant to last 200–500 ms,
    /// and a longer one would make the low latency pointless.
    public static let longestPartTarget = MediaTime(value: 1, timescale: 1)

    /// The nominal part length: a whole number of frames.
    public let interval: MediaTime
    /// The nominal duration of one video frame.
    public let frameDuration: MediaTime
    /// The longest part this policy lets through: `interval + frameDuration / 2`.
    public let partTarget: MediaTime
    /// Parts started so far (the first frame starts part 1).
    public private(set) var partsStarted = 0
    /// Pictures repeated to fill a gap inside a segment.
    public private(set) var repeatedFrames = 0

    private let earliestCut: MediaTime
    private let latestCut: MediaTime
    private var partStart: MediaTime?

    /// Parts of `requestedInterval` rounded to a whole number of frames (at least one).
    public init(requestedInterval: MediaTime, frameDuration: MediaTime) throws(Error) {
        guard requestedInterval > .zero else { throw .nonPositiveInterval(requestedInterval) }
        let frames = max(1, Int64((requestedInterval.seconds / frameDuration.seconds).rounded()))
        let interval = frameDuration * frames
        let halfFrame = frameDuration.halved
        let target = MediaTime.lcmSum(interval, halfFrame)
        guard frameDuration > .zero, target <= Self.longestPartTarget else { throw .framesTooLong(frameDuration: frameDuration) }
        self.interval = interval
        self.frameDuration = frameDuration
        partTarget = target
        earliestCut = MediaTime.lcmDifference(interval, halfFrame)
        latestCut = target
    }

    /// The actions for a frame the segment policy placed at `pts`.
    public mutating func frame(pts: MediaTime, keyFrame: Bool) -> [Action] {
        guard var start = partStart else {
            partStart = pts
            partsStarted += 1
            return [.place(pts: pts, keyFrame: keyFrame, startsPart: true)]
        }
        var actions: [Action] = []
        while MediaTime.lcmDifference(pts, start) > latestCut {
            let boundary = MediaTime.lcmSum(start, interval)
            start = boundary
            partsStarted += 1
            repeatedFrames += 1
            actions.append(.repeatPrevious(pts: boundary))
        }
        let startsPart = keyFrame || MediaTime.lcmDifference(pts, start) >= earliestCut
        if startsPart {
            start = pts
            partsStarted += 1
        }
        partStart = start
        actions.append(.place(pts: pts, keyFrame: keyFrame, startsPart: startsPart))
        return actions
    }

    /// The stream jumps: the part in progress ends with its last frame, and the next frame
    /// (a key frame) starts a new one without any fill across the gap.
    public mutating func discontinuity() {
        partStart = nil
    }
}
