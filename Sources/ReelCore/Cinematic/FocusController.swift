/// Where the cinematic camera focuses, decided from taps and the tracked subjects
/// (docs/behaviour.md §3), on the pictures' own clock. The rules:
///
/// - **Modes**: `none` (nothing steers the focus: it stays where it is until a tap), `weak`
///   (the controller may move it), `strong` (it never does while the target is there).
/// - **Targets**: a subject by id; whatever is salient near a point (a point, which becomes the
///   subject whose box takes it in); a fixed plane at a point (its depth when it was chosen).
/// - **Tap**: on empty space → weak at the point; on the subject focused weakly → strong; on any
///   other subject → weak on it. **Long press** → the fixed plane at the point, strong.
///   **Lock** → strong on the most prominent face (or subject, with no face).
/// - **Weak switching, with hysteresis**: with no target the most prominent subject is taken.
///   A weak subject target yields to another only when that one is at least ``switchRatio``
///   times as prominent for ``switchDwell`` without a break, so two similar subjects never
///   make the focus flicker; a weak target that is gone yields at once.
/// - **Strong survives**: a more prominent newcomer changes nothing. When the strong subject
///   is gone, the focus holds its last place for ``lostHold`` (a missed detection, a turned
///   head); after that the controller is weak with no target.
public struct FocusController: Sendable, Equatable {
    /// How strongly the focus holds.
    public enum Mode: String, Sendable, Hashable, CaseIterable, Codable {
        case none, weak, strong
    }

    /// What the focus follows.
    public enum Target: Sendable, Hashable {
        /// A tracked subject.
        case subject(Int)
        /// Whatever is salient near the point (normalized).
        case point(x: Double, y: Double)
        /// The plane at the point, at the depth it had when chosen (dioptres).
        case fixed(x: Double, y: Double, dioptres: Double)
    }

    /// One decision: the mode, the target, and the depth to focus at (dioptres; nil: no change).
    public struct Decision: Sendable, Hashable {
        public var mode: Mode
        public var target: Target?
        public var dioptres: Double?

        /// The subject whose depth ``dioptres`` is, when the focus follows one.
        public var followed: Int? {
            if case let .subject(id)? = target { id } else { nil }
        }
    }

    /// How much more prominent a challenger must be to take a weak focus.
    public static let switchRatio = 1.5
    /// For how long without a break.
    public static let switchDwell = MediaTime(value: 1, timescale: 1)
    /// How long a lost strong subject's place keeps the focus.
    public static let lostHold = MediaTime(value: 1, timescale: 1)

    /// The mode now.
    public private(set) var mode: Mode
    /// The target now (nil: weak on whatever is most prominent, or none).
    public private(set) var target: Target?
    private var challenger: (id: Int, since: MediaTime)?
    private var lost: (since: MediaTime, dioptres: Double)?
    private var lastSubjects: [CinematicSubject] = []
    private var lastDioptres: Double?

    /// A controller in `mode` with no target (weak: the most prominent subject, "auto").
    public init(mode: Mode = .weak) {
        self.mode = mode
    }

    public static func == (lhs: FocusController, rhs: FocusController) -> Bool {
        lhs.mode == rhs.mode && lhs.target == rhs.target && lhs.challenger?.id == rhs.challenger?.id
            && lhs.challenger?.since == rhs.challenger?.since && lhs.lost?.since == rhs.lost?.since
            && lhs.lost?.dioptres == rhs.lost?.dioptres && lhs.lastSubjects == rhs.lastSubjects && lhs.lastDioptres == rhs.lastDioptres
    }

    // MARK: The user's actions

    /// A tap at (`x`, `y`) on the subjects last seen.
    public mutating func tap(x: Double, y: Double) {
        if let hit = subject(atX: x, y: y) {
            let weakOnIt = mode == .weak && target == .subject(hit.id)
            set(weakOnIt ? .strong : .weak, .subject(hit.id))
        } else {
            set(.weak, .point(x: x, y: y))
        }
    }

    /// A long press at (`x`, `y`): the plane there, fixed.
    public mutating func press(x: Double, y: Double) {
        set(.strong, .fixed(x: x, y: y, dioptres: LayeredDepth.dioptres(atX: x, y: y, subjects: lastSubjects)))
    }

    /// Strong on the most prominent face (any subject when there is no face); false when there
    /// is nothing to lock.
    @discardableResult
    public mutating func lockMainSubject() -> Bool {
        guard let main = lastSubjects.first(where: { $0.kind == .face }) ?? lastSubjects.first else { return false }
        set(.strong, .subject(main.id))
        return true
    }

    /// Focus on subject `id` (strong or weak); false when it is not tracked.
    @discardableResult
    public mutating func focus(on id: Int, strong: Bool) -> Bool {
        guard lastSubjects.contains(where: { $0.id == id }) else { return false }
        set(strong ? .strong : .weak, .subject(id))
        return true
    }

    /// Back to automatic (weak, the most prominent), or to `none`.
    public mutating func reset(to mode: Mode = .weak) {
        set(mode, nil)
    }

    // MARK: Each picture

    /// The decision for the picture at `time`, whose subjects (most prominent first) are given.
    public mutating func update(_ subjects: [CinematicSubject], at time: MediaTime) -> Decision {
        lastSubjects = subjects
        if case let .point(x, y) = target, let hit = subject(atX: x, y: y) { target = .subject(hit.id) }
        switch mode {
        case .none: break
        case .weak: followWeakly(subjects, at: time)
        case .strong: holdStrongly(subjects, at: time)
        }
        let dioptres = desiredDioptres(subjects)
        if let dioptres { lastDioptres = dioptres }
        return Decision(mode: mode, target: target, dioptres: dioptres ?? lastDioptres)
    }

    /// The ids of the subjects last seen, most prominent first.
    public var knownSubjects: [Int] { lastSubjects.map(\.id) }

    /// How the preview draws subject `id`: the target with the controller's mode, every other
    /// subject weak (dashed).
    public func style(of id: Int) -> Mode {
        target == .subject(id) ? (mode == .none ? .weak : mode) : .weak
    }

    // MARK: Rules

    private mutating func set(_ mode: Mode, _ target: Target?) {
        self.mode = mode
        self.target = target
        challenger = nil
        lost = nil
    }

    private func subject(atX x: Double, y: Double) -> CinematicSubject? {
        // The nearest (largest layer) among the boxes that hold the point.
        lastSubjects.filter { $0.bounds.contains(x: x, y: y) }
            .max { LayeredDepth.dioptres(of: $0.kind, bounds: $0.bounds) < LayeredDepth.dioptres(of: $1.kind, bounds: $1.bounds) }
    }

    private mutating func followWeakly(_ subjects: [CinematicSubject], at time: MediaTime) {
        guard case let .subject(id)? = target, let current = subjects.first(where: { $0.id == id }) else {
            if case .point? = target { return }
            target = subjects.first.map { .subject($0.id) }
            challenger = nil
            return
        }
        guard let rival = subjects.first(where: { $0.id != id && $0.prominence >= Self.switchRatio * current.prominence }) else {
            challenger = nil
            return
        }
        if challenger?.id != rival.id { challenger = (rival.id, time) }
        if let challenger, time - challenger.since >= Self.switchDwell {
            target = .subject(rival.id)
            self.challenger = nil
        }
    }

    private mutating func holdStrongly(_ subjects: [CinematicSubject], at time: MediaTime) {
        guard case let .subject(id)? = target else { return }
        if subjects.contains(where: { $0.id == id }) {
            lost = nil
            return
        }
        if lost == nil { lost = (time, lastDioptres ?? LayeredDepth.backgroundDioptres) }
        if let lost, time - lost.since >= Self.lostHold {
            set(.weak, nil)
            followWeakly(subjects, at: time)
        }
    }

    private func desiredDioptres(_ subjects: [CinematicSubject]) -> Double? {
        if mode == .none { return nil }
        switch target {
        case let .subject(id)?:
            if let s = subjects.first(where: { $0.id == id }) { return LayeredDepth.dioptres(of: s.kind, bounds: s.bounds) }
            return lost?.dioptres
        case let .point(x, y)?: return LayeredDepth.dioptres(atX: x, y: y, subjects: subjects)
        case let .fixed(_, _, dioptres)?: return dioptres
        case nil: return nil
        }
    }
}
