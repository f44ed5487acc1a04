/// When a tracker runs its detectors: every ``FaceTrackerSettings/cadence`` of capture time
/// (docs/behaviour.md §1: 0.2 s), not every frame; the first frame always. Capture time, never
/// the wall clock.
///
/// A frame is due when at least one cadence has passed since the last detection. A capture
/// time earlier than the last detection (a restarted clock) is due too and becomes the new
/// reference, so a clock jump never stops detection.
public struct DetectionCadence: Sendable, Equatable {
    /// Time between detections.
    public let interval: MediaTime
    /// Capture time of the last detection; nil before the first.
    public private(set) var lastDetection: MediaTime?

    /// A cadence of `interval`.
    public init(interval: MediaTime) {
        self.interval = interval
    }

    /// Whether a detection is due at capture time `time` (does not count it).
    public func isDue(at time: MediaTime) -> Bool {
        guard let lastDetection else { return true }
        return time < lastDetection || time - lastDetection >= interval
    }

    /// Counts a detection at `time`.
    public mutating func record(_ time: MediaTime) {
        lastDetection = time
    }
}
