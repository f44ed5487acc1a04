/// How the archive keeps up when the machine cannot encode every frame in real time:
/// deliberately, visibly, and never by silently losing frames.
///
/// When the archive's queue fills up (the encoder is slower than the camera), the capture would
/// have to wait, stalling the live stream with it (with `--fast` it does: the queue never
/// drops there); with a real-time source the full queue lets its oldest video frame go, the
/// last resort, counted in the report. Before either happens this policy halves the archive's frame rate: the archive branch encodes every
/// second frame (each kept frame lasts two frame durations, so the file stays in time) and
/// reports it; if the queue is still full 2 s later it halves again (down to 1 frame in 32, about one a second).
/// Each time the queue has stayed low for a while the rate doubles again, back to full.
///
/// Feed it the queue depth for every video frame; it answers whether to encode that frame.
public struct ArchiveRatePolicy: Sendable {
    /// A change of rate, for the report.
    public enum Event: Equatable, Sendable {
        /// From this capture time on, one frame in `factor` is encoded.
        case degraded(at: MediaTime, factor: Int)
        /// Back to every frame from this capture time on.
        case restored(at: MediaTime)
    }

    /// Queue depth (as a share of its capacity) at which the rate is halved.
    public let highWater: Double
    /// Queue depth below which the queue counts as keeping up.
    public let lowWater: Double
    /// How long the queue must keep up before the full rate returns.
    public let recovery: MediaTime

    /// The current decimation: 1 = every frame, 2 = every second frame, up to 32.
    public private(set) var factor = 1
    /// Frames not encoded by decision of this policy.
    public private(set) var skippedFrames = 0
    /// Rate changes so far, in order.
    public private(set) var events: [Event] = []
    private var frameIndex = 0
    private var lowSince: MediaTime?
    private var lastChange: MediaTime?
    /// The lowest rate: one frame in this many.
    public let maximumFactor = 32
    /// Time a lowered rate gets to drain the queue before it is lowered again.
    public let escalation = MediaTime(value: 2, timescale: 1)

    /// A policy with the given thresholds (defaults: halve at 75 % full, restore after 10 s
    /// below 25 %).
    public init(highWater: Double = 0.75, lowWater: Double = 0.25, recovery: MediaTime = MediaTime(value: 10, timescale: 1)) {
        precondition(0 < lowWater && lowWater < highWater && highWater <= 1, "0 < lowWater < highWater <= 1")
        self.highWater = highWater
        self.lowWater = lowWater
        self.recovery = recovery
    }

    /// Whether to encode the video frame captured at `time`, given the queue's `depth` and
    /// `capacity` as the frame was taken from it.
    public mutating func shouldEncode(at time: MediaTime, depth: Int, capacity: Int) -> Bool {
        let fill = capacity > 0 ? Double(depth) / Double(capacity) : 0
        if fill >= highWater {
            lowSince = nil
            // Halve (again) when full; give each step `escalation` to take effect first.
            if factor < maximumFactor, lastChange.map({ time - $0 >= escalation }) ?? true {
                change(to: factor * 2, at: time)
            }
        } else if factor > 1, fill < lowWater {
            if let since = lowSince {
                if time - since >= recovery {
                    lowSince = nil
                    change(to: factor / 2, at: time)
                }
            } else {
                lowSince = time
            }
        } else {
            lowSince = nil
        }
        defer { frameIndex += 1 }
        let keep = frameIndex % factor == 0
        if !keep { skippedFrames += 1 }
        return keep
    }

    private mutating func change(to newFactor: Int, at time: MediaTime) {
        factor = newFactor
        frameIndex = 0
        lastChange = time
        events.append(newFactor == 1 ? .restored(at: time) : .degraded(at: time, factor: newFactor))
    }

    /// Whether the rate was ever lowered.
    public var hasDegraded: Bool { !events.isEmpty }
}
