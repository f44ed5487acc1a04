/// Timestamps of a full recording (docs/behaviour.md §1, Active time: full mode): every frame
/// written at its active time, on a timescale of 600, strictly increasing.
///
/// When the active time, rounded to 1/600 s, is not after the previous frame's timestamp
/// (the first frame after a resume adds no active time; a timestamp that went backwards adds
/// none either), the frame gets `previous + 1/30 s` instead and the active clock is moved to
/// it, so the video's duration and the active time never drift apart.
public struct FullModeTimestamps: Sendable, Equatable {
    /// The output timescale.
    public static let timescale: Int32 = 600
    /// The step used when the active time does not move forward: 1/30 s.
    public static let minimumStep = MediaTime(value: 20, timescale: 600)

    /// The last timestamp handed out; nil before the first frame.
    public private(set) var lastPTS: MediaTime?
    /// Frames that needed the 1/30 s step.
    public private(set) var corrections = 0

    /// A sequence with no frame yet.
    public init() {}

    /// The timestamp of a frame at active time `active`, and the active time to continue
    /// from (equal to `active` unless the frame had to be moved forward).
    public mutating func stamp(active: MediaTime) -> (pts: MediaTime, active: MediaTime) {
        var pts = active.converted(to: FullModeTimestamps.timescale)
        var newActive = active
        if let lastPTS, pts <= lastPTS {
            pts = lastPTS + FullModeTimestamps.minimumStep
            newActive = pts
            corrections += 1
        }
        lastPTS = pts
        return (pts, newActive)
    }
}
