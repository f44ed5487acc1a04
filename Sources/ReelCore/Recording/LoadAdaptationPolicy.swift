/// How hard the recorder may work: the answer to heat and load (docs/behaviour.md §1,
/// Robustness on a desk: "adapt the interval and the quality to the thermal state and the CPU
/// load"; docs/recording.md, Heat and load).
///
/// Each level is a set of levers the recorder pulls at once:
///
/// | level     | face analysis                              | full mode frames |
/// | --------- | ------------------------------------------ | ---------------- |
/// | `normal`  | §1's cadence (0.2 s / every frame)         | every frame      |
/// | `eased`   | half as often (0.4 s / every 2nd frame)    | every frame      |
/// | `reduced` | a fifth as often (1 s / every 5th frame)   | every 2nd frame  |
///
/// Why these levers and not the encoder preset: FFmpeg's libx264 wrapper cannot change the
/// preset of an open encoder, and a second encoder in the middle of a file would change the
/// H.264 parameter sets of a file that has one `avcC`. Halving the frames a full recording
/// encodes halves the encoder's work (by far the largest cost) and keeps every timestamp true:
/// frames are stamped with active time, so the video still lasts exactly the study time.
/// A timelapse encodes one frame every few seconds; only its face analysis is worth easing.
public enum LoadLevel: Int, Sendable, Comparable, CaseIterable, Codable, CustomStringConvertible {
    /// Everything at the rates of docs/behaviour.md §1.
    case normal = 0
    /// Face analysis at half its rate.
    case eased = 1
    /// Face analysis at a fifth; a full recording writes every second frame.
    case reduced = 2

    /// Face analysis runs on one in this many of the frames it would normally see.
    public var faceCadenceFactor: Int { [1, 2, 5][rawValue] }
    /// A full recording writes one in this many captured frames.
    public var fullModeFrameStep: Int { [1, 1, 2][rawValue] }

    public static func < (a: LoadLevel, b: LoadLevel) -> Bool { a.rawValue < b.rawValue }

    public var description: String { ["normal", "eased", "reduced"][rawValue] }
}

/// The hottest thermal zone, measured against the temperature where the system itself starts
/// to slow down (its passive trip point).
public struct ThermalReading: Sendable, Equatable {
    /// The zone's name (`x86_pkg_temp`, `cpu-thermal`, …).
    public var zone: String
    /// Its temperature now, °C.
    public var celsius: Double
    /// The temperature at which it counts as hot, °C.
    public var limitCelsius: Double

    /// A reading.
    public init(zone: String, celsius: Double, limitCelsius: Double) {
        self.zone = zone
        self.celsius = celsius
        self.limitCelsius = limitCelsius
    }

    /// Degrees left before the limit (negative: over it).
    public var margin: Double { limitCelsius - celsius }

    /// The limit assumed for a zone that states no trip point, °C.
    public static let defaultLimitCelsius = 85.0

    /// A zone as Linux describes it in `/sys/class/thermal/thermal_zoneN`: its `type`, `temp`
    /// and `trip_point_K_type` / `trip_point_K_temp` pairs, in millidegrees. The limit is the
    /// lowest `passive` trip point (where the kernel starts throttling), else the lowest `hot`
    /// one, else 15 °C under the lowest `critical` one, else ``defaultLimitCelsius``. Nil for a
    /// reading that cannot be a temperature (≤ 0 °C or over 200 °C: sensors that are off or
    /// broken report such values).
    public static func zone(_ name: String, millidegrees: Int, trips: [(type: String, millidegrees: Int)]) -> ThermalReading? {
        let celsius = Double(millidegrees) / 1000
        guard celsius > 0, celsius <= 200 else { return nil }
        func lowest(_ type: String) -> Double? {
            trips.filter { $0.type == type && $0.millidegrees > 0 }.map { Double($0.millidegrees) / 1000 }.min()
        }
        let limit = lowest("passive") ?? lowest("hot") ?? lowest("critical").map { $0 - 15 } ?? defaultLimitCelsius
        return ThermalReading(zone: name, celsius: celsius, limitCelsius: limit)
    }

    /// Of several zones, the one closest to (or furthest over) its limit.
    public static func hottest(_ zones: [ThermalReading]) -> ThermalReading? {
        zones.min { $0.margin < $1.margin }
    }
}

/// What the recorder measured over the last few seconds.
public struct LoadReading: Sendable, Equatable {
    /// When (monotonic).
    public var time: MediaTime
    /// The zone closest to its limit (nil: the machine exposes none).
    public var thermal: ThermalReading?
    /// CPU time the process used over the window, as a share of one core (1.0 = one core
    /// fully busy; nil: unknown).
    public var cpuShare: Double?
    /// Cores the process may run on.
    public var cores: Int
    /// The writer fell behind real time during the window: its queue was at least half full,
    /// or the capture had to wait for it.
    public var behind: Bool

    /// A reading.
    public init(time: MediaTime, thermal: ThermalReading? = nil, cpuShare: Double? = nil, cores: Int = 1, behind: Bool = false) {
        self.time = time
        self.thermal = thermal
        self.cpuShare = cpuShare
        self.cores = max(1, cores)
        self.behind = behind
    }
}

/// Chooses the ``LoadLevel`` from a series of ``LoadReading``s, about one every 2 s.
///
/// - **Heat**: the zone closest to its limit decides alone: at or over the limit → `reduced`;
///   within ``warmMargin`` below it → `eased`.
/// - **Busy machine**: the process uses ``busyShare`` of every core it may run on → at least `eased`.
/// - **Behind real time**: one level up per reading that is behind, at most one step every
///   ``escalation`` (each step needs a moment to take effect).
/// - **Going back** one level at a time, only after the conditions have been calm for the
///   cool-down (30 s at first); heat counts as calm only ``coolingHysteresis`` below its
///   threshold. A level that has to be raised again within one cool-down of being lowered
///   doubles the cool-down (up to 5 min), so a machine on the edge does not flap.
public struct LoadAdaptationPolicy: Sendable {
    /// Why the level changed.
    public enum Reason: Sendable, Equatable, CustomStringConvertible {
        /// A thermal zone at or over its limit.
        case hot(ThermalReading)
        /// A thermal zone within ``LoadAdaptationPolicy/warmMargin`` of its limit.
        case warm(ThermalReading)
        /// The process kept every core busy (share of one core, cores).
        case busy(share: Double, cores: Int)
        /// The writer fell behind real time.
        case behind
        /// Calm again for the cool-down.
        case calm

        /// A short name, the same for every reading of the kind (kept with the session).
        public var kind: String {
            switch self {
            case .hot: "hot"
            case .warm: "warm"
            case .busy: "busy"
            case .behind: "behind real time"
            case .calm: "calm"
            }
        }

        public var description: String {
            switch self {
            case .hot(let t): "hot: \(t.zone) at \(Self.degrees(t.celsius)), limit \(Self.degrees(t.limitCelsius))"
            case .warm(let t): "warm: \(t.zone) at \(Self.degrees(t.celsius)), limit \(Self.degrees(t.limitCelsius))"
            case let .busy(share, cores): "busy: \(Int((share * 100).rounded())) % of a core, \(Counted.noun(cores, "core"))"
            case .behind: "behind real time: the encoder could not keep up"
            case .calm: "calm again"
            }
        }

        private static func degrees(_ c: Double) -> String { "\(Int(c.rounded())) °C" }
    }

    /// A change of level.
    public struct Change: Sendable, Equatable {
        /// When, the level before and after, and why.
        public var time: MediaTime
        public var from: LoadLevel, to: LoadLevel
        public var reason: Reason
    }

    /// Degrees below a zone's limit where easing starts.
    public static let warmMargin = 10.0
    /// Degrees below a threshold heat must fall before it counts as calm.
    public static let coolingHysteresis = 3.0
    /// Share of all cores the process may use before the machine counts as busy.
    public static let busyShare = 0.9
    /// At most one step up for falling behind in this much time.
    public static let escalation = MediaTime(value: 5, timescale: 1)
    /// Calm time before the first step down; doubled on flapping up to ``longestCooldown``.
    public static let initialCooldown = MediaTime(value: 30, timescale: 1)
    public static let longestCooldown = MediaTime(value: 300, timescale: 1)

    /// The level now.
    public private(set) var level = LoadLevel.normal
    /// Every change, in order.
    public private(set) var changes: [Change] = []
    /// Calm time needed before the next step down.
    public private(set) var cooldown = LoadAdaptationPolicy.initialCooldown
    /// Time spent at each level (indexed by raw value), CPU share integrated over time, the
    /// hottest reading, and the distinct reasons for raising the level, in order of first use.
    public private(set) var secondsAt = [0.0, 0.0, 0.0]
    public private(set) var peakCelsius: Double?
    public private(set) var reasons: [String] = []
    private var cpuSeconds = 0.0, measuredSeconds = 0.0
    private var lastReading: MediaTime?
    private var lastRaise: MediaTime?
    private var lastLower: MediaTime?
    private var calmSince: MediaTime?

    /// A policy at `normal`.
    public init() {}

    /// Takes a reading; returns the change of level it causes, if any.
    public mutating func observe(_ reading: LoadReading) -> Change? {
        let now = reading.time
        if let last = lastReading, now > last {
            let dt = (now - last).seconds
            secondsAt[level.rawValue] += dt
            if let share = reading.cpuShare {
                cpuSeconds += share * dt
                measuredSeconds += dt
            }
        }
        lastReading = now
        if let t = reading.thermal { peakCelsius = max(peakCelsius ?? t.celsius, t.celsius) }

        // What the reading asks for, strongest reason first.
        var demand = LoadLevel.normal
        var reason = Reason.calm
        func ask(_ wanted: LoadLevel, _ why: Reason) {
            if wanted > demand { demand = wanted; reason = why }
        }
        if let t = reading.thermal {
            if t.margin <= 0 { ask(.reduced, .hot(t)) } else if t.margin <= Self.warmMargin { ask(.eased, .warm(t)) }
        }
        if let share = reading.cpuShare, share >= Self.busyShare * Double(reading.cores) {
            ask(.eased, .busy(share: share, cores: reading.cores))
        }
        if reading.behind, level < .reduced, lastRaise.map({ now - $0 >= Self.escalation }) ?? true {
            ask(LoadLevel(rawValue: level.rawValue + 1)!, .behind)
        }

        if demand > level {
            if let lowered = lastLower, now - lowered < cooldown {
                cooldown = min(cooldown + cooldown, Self.longestCooldown)
            }
            lastRaise = now
            calmSince = nil
            return change(to: demand, at: now, reason: reason)
        }
        // Calm enough to step down? Behind, busy or heat near this level's threshold is not calm.
        let holdsLevel: Bool = {
            if reading.behind { return true }
            if let share = reading.cpuShare, share >= Self.busyShare * Double(reading.cores), level <= .eased { return true }
            guard let t = reading.thermal else { return false }
            let margin = t.margin - Self.coolingHysteresis
            let heatLevel: LoadLevel = margin <= 0 ? .reduced : margin <= Self.warmMargin ? .eased : .normal
            return heatLevel >= level
        }()
        guard level > .normal, !holdsLevel else {
            calmSince = nil
            return nil
        }
        let since = calmSince ?? now
        calmSince = since
        guard now - since >= cooldown else { return nil }
        calmSince = now
        lastLower = now
        return change(to: LoadLevel(rawValue: level.rawValue - 1)!, at: now, reason: .calm)
    }

    private mutating func change(to new: LoadLevel, at time: MediaTime, reason: Reason) -> Change {
        let change = Change(time: time, from: level, to: new, reason: reason)
        level = new
        changes.append(change)
        if reason != .calm, !reasons.contains(reason.kind) { reasons.append(reason.kind) }
        return change
    }

    /// What the session keeps: the mean CPU share, the hottest reading, time spent eased and
    /// reduced, and why.
    public var summary: RecordingLoad {
        RecordingLoad(cpuShare: measuredSeconds > 0 ? cpuSeconds / measuredSeconds : nil, peakCelsius: peakCelsius,
                      easedSeconds: secondsAt[LoadLevel.eased.rawValue], reducedSeconds: secondsAt[LoadLevel.reduced.rawValue],
                      reasons: reasons)
    }
}
