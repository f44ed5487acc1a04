/// The cinematic camera's degradation policy in real time: how many looks a second its vision
/// (detectors, the people's matte) takes on its own thread. The vision costs about as much as
/// everything else together, so when the pictures do not keep up — a picture was dropped — it
/// looks less often before more pictures are lost: one step down (15, 12, 10, 7.5, 6, 5 looks a
/// second) for a drop, at most a step a second; one step back up after 10 s without a drop. The
/// subjects' boxes follow the picture's optical flow between looks, so fewer looks cost the
/// layers little.
public struct VisionRate: Sendable, Equatable {
    /// The rates, highest first.
    public static let steps: [Double] = [15, 12, 10, 7.5, 6, 5]
    /// At most one step down in this time.
    public static let lowerEvery = MediaTime(value: 1, timescale: 1)
    /// A step up after this long without a drop (or a change).
    public static let raiseAfter = MediaTime(value: 10, timescale: 1)

    /// The index into ``steps``.
    public private(set) var step = 0
    /// The lowest rate used so far (for the report).
    public private(set) var lowest = steps[0]
    private var seenDrops = 0
    private var lastChange: MediaTime?
    private var lastDrop: MediaTime?

    public init() {}

    /// Looks a second now.
    public var looksPerSecond: Double { Self.steps[step] }

    /// The shortest time between two looks.
    public var interval: MediaTime { MediaTime(seconds: 1 / looksPerSecond) }

    /// Takes the count of pictures dropped so far, at a picture's `time`; true when the rate changed.
    public mutating func update(dropped: Int, at time: MediaTime) -> Bool {
        defer { seenDrops = max(seenDrops, dropped) }
        if dropped > seenDrops {
            lastDrop = time
            guard step < Self.steps.count - 1, lastChange.map({ time - $0 >= Self.lowerEvery }) ?? true else { return false }
            step += 1
            lowest = min(lowest, looksPerSecond)
            lastChange = time
            return true
        }
        guard step > 0 else { return false }
        let quietSince = [lastDrop, lastChange].compactMap { $0 }.max()
        guard let quietSince, time - quietSince >= Self.raiseAfter else { return false }
        step -= 1
        lastChange = time
        return true
    }
}
