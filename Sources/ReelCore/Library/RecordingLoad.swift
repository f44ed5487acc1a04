/// How a recording coped with heat and load, kept with its session: the process's
/// mean CPU share, the hottest thermal reading, and how long the recorder eased its work
/// (``LoadAdaptationPolicy``), and why.
public struct RecordingLoad: Sendable, Equatable, Codable {
    /// Mean CPU time of the recorder as a share of one core (nil: not measured).
    public var cpuShare: Double?
    /// The hottest thermal zone seen, °C (nil: the machine exposes none).
    public var peakCelsius: Double?
    /// Seconds spent at ``LoadLevel/eased`` and at ``LoadLevel/reduced``.
    public var easedSeconds: Double
    public var reducedSeconds: Double
    /// Why the level was raised (``LoadAdaptationPolicy/Reason/kind``: "hot", "warm", "busy",
    /// "behind real time"), in order of first use; empty when it never was.
    public var reasons: [String]

    /// A summary.
    public init(cpuShare: Double? = nil, peakCelsius: Double? = nil, easedSeconds: Double = 0, reducedSeconds: Double = 0,
                reasons: [String] = []) {
        self.cpuShare = cpuShare
        self.peakCelsius = peakCelsius
        self.easedSeconds = easedSeconds
        self.reducedSeconds = reducedSeconds
        self.reasons = reasons
    }

    /// True when the recorder eased its work at some point.
    public var wasAdapted: Bool { easedSeconds > 0 || reducedSeconds > 0 || !reasons.isEmpty }
}
