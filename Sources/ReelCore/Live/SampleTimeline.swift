/// The live HLS writer's timing rule: maps capture timestamps onto the stream timeline.
///
/// The stream starts on the first *video* sample, which is stamped `start` (10 s by
/// default, so AAC priming never pushes audio times below zero). From then on one delta,
/// `start - firstVideoCapture`, is added to every video and audio time (PTS and any valid
/// DTS), so the capture's original audio/video offset is preserved exactly.
///
/// Audio that arrives before any video, or whose capture time is earlier than the first
/// video sample's, has no place on the stream timeline and is dropped (`nil`).
///
/// Results are exact when the inputs share the delta's timescale (normally nanoseconds);
/// otherwise `MediaTime`'s `+` expresses them in the finer timescale.
public struct SampleTimeline: Sendable {
    /// The stream time given to the first video sample.
    public let start: MediaTime
    /// `start - firstVideoCapture`, fixed by the first video sample; `nil` until then.
    public private(set) var delta: MediaTime?
    /// The capture time of the first video sample; `nil` until one has been seen.
    public private(set) var firstVideoCapture: MediaTime?
    /// Audio samples dropped so far because they came before the first video sample.
    public private(set) var droppedAudioSamples = 0

    /// A timeline whose first video sample will be stamped `start`.
    public init(start: MediaTime = MediaTime(value: 10, timescale: 1)) {
        self.start = start
    }

    /// Whether the first video sample has been seen (the stream has started).
    public var hasStarted: Bool { delta != nil }

    /// The stream time of a video sample captured at `capture`.
    ///
    /// The first call fixes ``delta`` and returns ``start``. Later video times are mapped
    /// with the same delta, even if they are earlier than the first (ordering is the cut
    /// policy's business, not the timeline's).
    public mutating func video(_ capture: MediaTime) -> MediaTime {
        if let delta { return capture + delta }
        let delta = start - capture
        self.delta = delta
        firstVideoCapture = capture
        return capture + delta
    }

    /// The stream time of an audio sample captured at `capture`, or `nil` when it is dropped
    /// (no video seen yet, or captured before the first video sample).
    public mutating func audio(_ capture: MediaTime) -> MediaTime? {
        guard let delta, let firstVideoCapture, capture >= firstVideoCapture else {
            droppedAudioSamples += 1
            return nil
        }
        return capture + delta
    }

    /// Maps any other capture-clock time (a DTS, an end time) with the established delta;
    /// `nil` before the first video sample. Never drops and never counts.
    public func stream(_ capture: MediaTime) -> MediaTime? {
        delta.map { capture + $0 }
    }
}
