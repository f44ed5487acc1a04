/// Which frames a timelapse keeps, and where they go in the video (docs/behaviour.md §1, Active
/// time: timelapse mode).
///
/// A frame is written when `active - lastWrittenActive >= interval`, the first frame always;
/// `lastWrittenActive` becomes that frame's active time (not the ideal grid point, so a late
/// frame never makes the next one come early). Output frame `k` is shown at `k / 10` s: the
/// video runs at a fixed 10 fps. "Every 5 s" means every 5 s *of study*: paused time is not
/// in the active clock, so it never brings a frame closer.
public struct TimelapseSchedule: Sendable, Equatable {
    /// The output frame rate.
    public static let outputFramesPerSecond: Int32 = 10
    /// Longest interval accepted (one frame an hour).
    public static let maximumInterval = MediaTime(value: 3600, timescale: 1)

    /// A schedule that cannot work.
    public enum Error: Swift.Error, Equatable, CustomStringConvertible {
        /// The interval is zero, negative, or longer than ``TimelapseSchedule/maximumInterval``.
        case invalidInterval(MediaTime)

        public var description: String {
            switch self {
            case .invalidInterval(let interval):
                "the timelapse interval must be more than 0 s and at most 1 hour, got \(interval.seconds.formatted3) s"
            }
        }
    }

    /// Active time between written frames.
    public let interval: MediaTime
    /// The active time of the last written frame; nil before the first.
    public private(set) var lastWrittenActive: MediaTime?
    /// Frames written so far (the next frame's index).
    public private(set) var framesWritten = 0

    /// A schedule writing a frame every `interval` of active time.
    public init(interval: MediaTime) throws(Error) {
        guard interval > .zero, interval <= TimelapseSchedule.maximumInterval else { throw .invalidInterval(interval) }
        self.interval = interval
    }

    /// Whether the frame at active time `active` is written; if so, its index and output time.
    public mutating func consider(active: MediaTime) -> (index: Int, pts: MediaTime)? {
        if let last = lastWrittenActive, active - last < interval { return nil }
        lastWrittenActive = active
        let index = framesWritten
        framesWritten += 1
        return (index, TimelapseSchedule.pts(ofFrame: index))
    }

    /// The output time of frame `index`: `index / 10` s.
    public static func pts(ofFrame index: Int) -> MediaTime {
        MediaTime(value: Int64(index), timescale: outputFramesPerSecond)
    }
}
