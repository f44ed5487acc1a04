/// A move across the picture, in shares of its width and height.
public struct NormalizedOffset: Sendable, Hashable {
    /// Across, positive to the right.
    public var dx: Double
    /// Down, positive downwards.
    public var dy: Double

    /// An offset.
    public init(dx: Double, dy: Double) {
        self.dx = dx
        self.dy = dy
    }

    /// No move.
    public static let zero = NormalizedOffset(dx: 0, dy: 0)

    /// This offset times `factor` (a velocity a second over some seconds).
    public func scaled(by factor: Double) -> NormalizedOffset { NormalizedOffset(dx: dx * factor, dy: dy * factor) }
}

/// How fast each subject moves, and where a look's subjects are when a later picture is
/// rendered with it.
///
/// In real time the vision looks at a picture 1–6 pictures older than the one rendered with
/// its look (at 720p it manages 7–10 looks a second on its own thread): a person moving
/// 300 px/s is up to 40 px further on, and rendered with the look as it is, the matte trails them — the background
/// they left stays sharp and their leading edge is blurred. The velocity is each box's optical
/// flow between consecutive looks (the flow moves with the picture's content; a detector's box
/// jitters from look to look), smoothed; the look's boxes and its matte under them are carried
/// forward by velocity × the look's age, at most ``maxLead`` — or back, when the picture is held
/// until a look after it (``LookHold``) and that look is the nearer.
public struct SubjectMotion: Sendable, Equatable {
    /// The newest measure's share of the smoothed velocity.
    public static let smoothing = 0.8
    /// The furthest a look is carried (forward or back): beyond that, where the person went is a guess
    /// (they turn, stop), and an older look is carried only this far.
    public static let maxLead = MediaTime(value: 1, timescale: 4)
    /// Looks further apart than this restart every velocity: a move measured over a long gap
    /// says little about now.
    public static let maxGap = MediaTime(value: 1, timescale: 2)

    /// Each subject's velocity (shares of the picture a second), by id.
    public private(set) var velocities: [Int: NormalizedOffset] = [:]
    private var lastTime: MediaTime?

    /// No subject moving yet.
    public init() {}

    /// After a look at `time` in which each subject's box moved by `moves` (id → the move since
    /// the look before, by optical flow); returns the velocities. A subject not in `moves` has
    /// none (new, or gone).
    public mutating func update(_ moves: [Int: NormalizedOffset], at time: MediaTime) -> [Int: NormalizedOffset] {
        defer { lastTime = time }
        guard let lastTime, time > lastTime, time - lastTime <= Self.maxGap else {
            velocities = [:]
            return velocities
        }
        let seconds = (time - lastTime).seconds
        var next: [Int: NormalizedOffset] = [:]
        for (id, move) in moves {
            let measured = move.scaled(by: 1 / seconds)
            guard let before = velocities[id] else {
                next[id] = measured
                continue
            }
            next[id] = NormalizedOffset(dx: before.dx + Self.smoothing * (measured.dx - before.dx),
                                        dy: before.dy + Self.smoothing * (measured.dy - before.dy))
        }
        velocities = next
        return velocities
    }

    /// `subjects`, seen in a picture `lead` older than the one to render (negative: younger, a
    /// look after the picture, carried back), moved by their `velocities` (the lead clamped to
    /// ±``maxLead``); and how far each one moved, by id (what its part of the matte moves by). A
    /// subject without a velocity stays where it was.
    public static func carry(_ subjects: [CinematicSubject], velocities: [Int: NormalizedOffset],
                             lead: MediaTime) -> (subjects: [CinematicSubject], shifts: [Int: NormalizedOffset]) {
        let seconds = min(max(-maxLead.seconds, lead.seconds), maxLead.seconds)
        guard seconds != 0 else { return (subjects, [:]) }
        var carried = subjects
        var shifts: [Int: NormalizedOffset] = [:]
        for i in carried.indices {
            guard let velocity = velocities[carried[i].id] else { continue }
            let shift = velocity.scaled(by: seconds)
            carried[i].bounds = carried[i].bounds.offsetBy(dx: shift.dx, dy: shift.dy)
            shifts[carried[i].id] = shift
        }
        return (carried, shifts)
    }
}
