import Foundation

/// The focal depth over time (docs/behaviour.md §3: "focus changes are rack focus: a smooth
/// transition, never a jump"). The depth (dioptres) follows its target as a critically damped
/// spring — its speed is continuous, it never overshoots — that settles a step to within 2 % in
/// ``duration``; its speed is also held to ``maxRate``, so a long rack takes longer instead of
/// whipping through. Stepped exactly for any interval between pictures (the same path at 24 or
/// 60 fps).
///
/// A subject held in focus carries the focus with it: when the target is the same subject as at
/// the picture before, the focal depth moves first by as much as its depth did (up to
/// ``maxRate``), and the spring works only on what is left. Its depth is read from its box,
/// which jitters from look to look and changes as it moves: a spring behind it left the face a
/// step or two of depth out of focus, softly blurred, for most of a clip. Between subjects the
/// focus still racks.
public struct RackFocus: Sendable, Equatable {
    /// How long a rack from rest takes to settle within 2 % of the step.
    public static let duration = 0.8
    /// The fastest the focus moves, in dioptres per second.
    public static let maxRate = 4.0
    /// The spring's rate: (1 + ωt)·e^(−ωt) = 0.02 at t = ``duration``.
    public static let omega = 5.834 / duration

    /// The focal depth now (dioptres); nil before the first picture.
    public private(set) var dioptres: Double?
    /// Its speed (dioptres per second).
    public private(set) var velocity = 0.0
    private var time: MediaTime?
    /// The subject followed at the last picture and its depth then.
    private var followed: Followed?
    private struct Followed: Sendable, Equatable {
        var subject: Int
        var dioptres: Double
    }

    /// A focus with no depth yet: the first target is taken as it is (nothing to rack from).
    public init() {}

    /// The focal depth to render at `time`: ``advance(to:following:at:)``, and once settled on
    /// the followed subject its layer exactly (``LayerMap/focus(_:following:)``). The camera and
    /// `reel refocus` both take it, so a recorded focus and a new one render alike.
    public mutating func rendered(to target: Double?, following subject: Int?, at time: MediaTime) -> Double? {
        advance(to: target, following: subject, at: time).map { LayerMap.focus($0, following: subject == nil ? nil : target) }
    }

    /// The focal depth at `time`, moving towards `target` (nil: where it is); `subject` is the
    /// subject whose depth `target` is, when the focus follows one.
    public mutating func advance(to target: Double?, following subject: Int? = nil, at time: MediaTime) -> Double? {
        let before = followed
        followed = subject.flatMap { id in target.map { Followed(subject: id, dioptres: $0) } }
        defer { self.time = time }
        guard var current = dioptres, let last = self.time else {
            dioptres = target
            velocity = 0
            return dioptres
        }
        guard let target else { return current }
        let dt = max(0, (time - last).seconds)
        // The subject's own move, up to the rack's speed (a subject found again elsewhere after a
        // gap is racked to, not jumped to).
        if let before, let now = followed, before.subject == now.subject, abs(now.dioptres - before.dioptres) <= Self.maxRate * dt {
            current += now.dioptres - before.dioptres
            dioptres = current
        }
        let w = Self.omega, error = current - target
        let decay = exp(-w * dt), lean = velocity + w * error
        var next = target + (error + lean * dt) * decay
        var speed = (velocity - w * lean * dt) * decay
        let limit = Self.maxRate * dt
        if abs(next - current) > limit {
            next = current + (next > current ? limit : -limit)
            speed = max(-Self.maxRate, min(Self.maxRate, speed))
        }
        dioptres = next
        velocity = speed
        return next
    }
}
