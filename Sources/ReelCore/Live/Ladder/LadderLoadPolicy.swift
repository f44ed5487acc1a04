/// How an ABR ladder keeps up when the machine cannot encode every rung in real time:
/// deliberately, from the top, visibly, and without breaking any player.
///
/// Every rung encodes every picture while the live queue keeps up. When the queue fills (the
/// encoders together are slower than the camera), the policy takes a step: the top rung
/// encodes a new picture only every second frame and repeats the previous one in between
/// (a repeated picture skips the scaler and costs the encoder little: nothing in it moved),
/// then every fourth; then the next rung the same, and so on. The lowest rung is never
/// thinned: it is what every viewer can fall back to. Each step gets ``escalation`` to take
/// effect before the next. After the queue has stayed low for ``recovery``, the last step is
/// undone, one at a time. Past the last step the live queue's last resort remains (it lets
/// the oldest frame go, counted).
///
/// Thinning keeps every rung's frame rate, key frames, segments and parts as they were: the
/// media playlists stay valid, and a player on the top rung keeps playing, only less
/// smoothly, instead of losing a rung mid-stream. Every change is an ``Event`` for the report.
///
/// Feed it the live queue's depth for every captured video frame; it answers, per rung,
/// whether that rung encodes the new picture.
public struct LadderLoadPolicy: Sendable, Hashable {
    /// A change of one rung's rate, for the report.
    public enum Event: Sendable, Hashable {
        /// From this capture time on, rung `rung` (0 = the top) takes a new picture every `factor` frames.
        case thinned(at: MediaTime, rung: Int, factor: Int)
        /// From this capture time on, rung `rung` takes a new picture every `factor` frames again (1: every frame).
        case restored(at: MediaTime, rung: Int, factor: Int)
    }

    /// Queue fill (a share of its capacity) at which a step is taken: 3/4.
    public static let highWater = 0.75
    /// Queue fill below which the queue counts as keeping up: 1/4.
    public static let lowWater = 0.25
    /// How long the queue must keep up before a step is undone.
    public static let recovery = MediaTime(value: 10, timescale: 1)
    /// Time a step gets to drain the queue before the next one.
    public static let escalation = MediaTime(value: 2, timescale: 1)
    /// The thinnest a rung gets: a new picture every fourth frame.
    public static let maximumFactor = 4

    /// One new picture every `factors[rung]` frames, per rung (1: every frame).
    public private(set) var factors: [Int]
    /// Frames each rung repeated instead of encoding a new picture.
    public private(set) var repeated: [Int]
    /// Changes so far, in order.
    public private(set) var events: [Event] = []
    private var steps = 0
    private var frameIndex = 0
    private var lowSince: MediaTime?
    private var lastChange: MediaTime?

    /// A policy for `rungCount` rungs, highest first.
    public init(rungCount: Int) {
        precondition(rungCount >= 1, "a ladder has a rung")
        factors = Array(repeating: 1, count: rungCount)
        repeated = Array(repeating: 0, count: rungCount)
    }

    /// Steps there are: two for each rung but the lowest.
    public var maximumSteps: Int { (factors.count - 1) * 2 }

    /// Whether every step is taken: the queue's last resort is next.
    public var isExhausted: Bool { steps == maximumSteps }

    /// Per rung, whether it encodes the video frame captured at `time` as a new picture (else
    /// it repeats its previous one), given the live queue's `depth` and `capacity` as the
    /// frame was taken from it.
    public mutating func frame(at time: MediaTime, depth: Int, capacity: Int) -> [Bool] {
        let fill = capacity > 0 ? Double(depth) / Double(capacity) : 0
        if fill >= Self.highWater {
            lowSince = nil
            if steps < maximumSteps, lastChange.map({ time - $0 >= Self.escalation }) ?? true { step(up: true, at: time) }
        } else if steps > 0, fill < Self.lowWater {
            if let since = lowSince {
                if time - since >= Self.recovery {
                    lowSince = time
                    step(up: false, at: time)
                }
            } else {
                lowSince = time
            }
        } else {
            lowSince = nil
        }
        defer { frameIndex += 1 }
        return factors.indices.map { rung in
            let fresh = frameIndex % factors[rung] == 0
            if !fresh { repeated[rung] += 1 }
            return fresh
        }
    }

    /// Step k thins rung k / 2 to 2 (even k) or 4 (odd k); undoing it goes back to 1 or 2.
    private mutating func step(up: Bool, at time: MediaTime) {
        let index = up ? steps : steps - 1
        let rung = index / 2
        let factor = up ? (index % 2 == 0 ? 2 : 4) : (index % 2 == 0 ? 1 : 2)
        steps += up ? 1 : -1
        factors[rung] = factor
        frameIndex = 0
        lastChange = time
        events.append(up ? .thinned(at: time, rung: rung, factor: factor) : .restored(at: time, rung: rung, factor: factor))
    }
}
