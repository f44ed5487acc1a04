import ReelCore
import ReelRuntime

/// The recorder's heat-and-load readings (``LoadAdaptationPolicy`` fed by ``LoadProbe``): the
/// recorder takes one when its ``RecordingSupervisor`` says a reading is due, and a change of
/// level is handed back for the recorder to apply and announce.
struct LoadMonitor {
    private var probe: LoadProbe
    private var policy = LoadAdaptationPolicy()
    private var producerWaits = 0
    /// Why the level is above normal (nil at normal), and the last CPU share read.
    private(set) var reason: String?
    private(set) var cpuShare: Double?

    /// The change the first reading caused (a machine already hot when the recording starts
    /// is reduced from its first frame, not from the first periodic reading).
    private(set) var startingChange: LoadAdaptationPolicy.Change?

    /// A monitor whose first reading, at `now`, starts the CPU clock and already counts its heat.
    init(thermalFolder: String, now: MediaTime) {
        probe = LoadProbe(thermalFolder: thermalFolder)
        startingChange = policy.observe(probe.read(now: now, behind: false))
        if let startingChange { reason = "\(startingChange.reason)" }
    }

    /// The level now.
    var level: LoadLevel { policy.level }

    /// Takes a reading: behind means the writer's queue is at least half full or the capture
    /// waited for it since the last reading. Returns the change of level, if any.
    mutating func read(now: MediaTime, queue stats: ConsumerQueue<RecordedFrame>.Stats, capacity: Int) -> LoadAdaptationPolicy.Change? {
        let behind = stats.depth * 2 >= capacity || stats.producerWaits > producerWaits
        producerWaits = stats.producerWaits
        let reading = probe.read(now: now, behind: behind)
        cpuShare = reading.cpuShare
        guard let change = policy.observe(reading) else { return nil }
        reason = change.to == .normal ? nil : "\(change.reason)"
        return change
    }

    /// The last reading and the summary the session keeps.
    mutating func finish(now: MediaTime) -> RecordingLoad {
        _ = policy.observe(probe.read(now: now, behind: false))
        return policy.summary
    }

    /// What `level` does to a recording in `mode`, for the user.
    static func levers(_ level: LoadLevel, mode: RecordingMode) -> String {
        let factor = level.faceCadenceFactor
        switch mode {
        case .timelapse:
            return "face analysis on " + (factor == 1 ? "every written frame" : "every \(factor)th written frame")
        case .full:
            let cadence = (FaceSampleSchedule.fullModeCadence * Int64(factor)).seconds.formattedShort
            return "face analysis every \(cadence) s, " + (level.fullModeFrameStep == 1 ? "every frame written" : "1 frame in \(level.fullModeFrameStep) written")
        }
    }
}
