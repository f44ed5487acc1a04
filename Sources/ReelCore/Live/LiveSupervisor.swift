/// What `reel live` does while it captures, besides the fan-out's work: a value-type rule the
/// session calls on its clock's ticks (every 100 ms), which answers with what to do now. Like
/// ``RecordingSupervisor`` it holds no clock and does no I/O.
///
/// The rules: a status line every second of wall time; and, for a real-time run with a
/// duration, a stop once the duration has passed on the wall clock and no sample came for the
/// grace period — the capture stops by itself at the sample that reaches the duration, so this
/// only ends a run whose source went quiet (a camera that delivers nothing never reaches its
/// duration otherwise). A `--fast` run passes no duration: its file never goes quiet, and its
/// wall time may be far longer than its duration.
public struct LiveSupervisor: Sendable, Equatable {
    /// Seconds between status lines.
    public static let statusPeriod = MediaTime(value: 1, timescale: 1)
    /// How long past the duration a quiet source is waited for.
    public static let durationGrace = MediaTime(value: 5, timescale: 1)

    /// What to do now.
    public enum Action: Sendable, Equatable {
        /// Show a status line; `elapsed` seconds since capture started.
        case reportStatus(elapsed: Double)
        /// End the run: the duration passed and the source went quiet.
        case stopQuietSource
    }

    /// When capture started.
    public let startedAt: MediaTime
    /// Seconds of capture to stream (nil: until stopped).
    public let duration: Double?
    private var lastStatus: MediaTime
    private var stopAsked = false

    /// A supervisor for a capture that started at `startedAt`.
    public init(startedAt: MediaTime, duration: Double?) {
        self.startedAt = startedAt
        self.duration = duration
        lastStatus = startedAt
    }

    /// The actions due at `now`; `lastSample` is when the capture last delivered (nil: never).
    public mutating func tick(now: MediaTime, lastSample: MediaTime?) -> [Action] {
        var actions: [Action] = []
        if now - lastStatus >= Self.statusPeriod {
            lastStatus = now
            actions.append(.reportStatus(elapsed: (now - startedAt).seconds))
        }
        if let duration, !stopAsked, now - startedAt >= MediaTime(seconds: duration),
           now - (lastSample ?? startedAt) >= Self.durationGrace {
            stopAsked = true
            actions.append(.stopQuietSource)
        }
        return actions
    }
}
