/// What the study recorder does while it captures, besides writing frames: a value-type rule
/// the recorder calls every ~100 ms with the time and what it reads, which answers with what to
/// do now. It holds no clock and does no I/O, so every rule here is tested on made-up times.
///
/// The rules, in the order their actions come:
/// - a writer that ended while capturing stops the recording;
/// - a source that delivered nothing for the stall limit while recording (and while the capture
///   was not itself waiting for the writer) makes the recording *interrupted*;
/// - a checkpoint every checkpoint period (the first one at the start);
/// - the disk floor checked every disk period, until it stopped the recording once;
/// - the load read every load period;
/// - the sleep inhibitor's result looked at once, a second after the start;
/// - a recording with a duration stops when the duration, the stall limit and a second of grace
///   have passed (the capture thread stops it exactly at the duration's frame; this is the
///   backstop for a source that went quiet);
/// - a status line every second.
public struct RecordingSupervisor: Sendable, Equatable {
    /// How often each rule runs, and the limits.
    public struct Settings: Sendable, Equatable {
        public var stallLimit: MediaTime
        public var checkpointPeriod: MediaTime
        public var diskCheckPeriod: MediaTime
        public var loadCheckPeriod: MediaTime
        public var statusPeriod = MediaTime(value: 1, timescale: 1)
        public var keepAwakeCheckAfter = MediaTime(value: 1, timescale: 1)
        /// Seconds of capture to record (nil: until stopped).
        public var duration: Double?

        /// The recorder's settings for the supervisor.
        public init(stallLimit: MediaTime, checkpointPeriod: MediaTime, diskCheckPeriod: MediaTime,
                    loadCheckPeriod: MediaTime, duration: Double?) {
            self.stallLimit = stallLimit
            self.checkpointPeriod = checkpointPeriod
            self.diskCheckPeriod = diskCheckPeriod
            self.loadCheckPeriod = loadCheckPeriod
            self.duration = duration
        }
    }

    /// What the recorder reads before each tick.
    public struct Readings: Sendable, Equatable {
        /// The state machine's state.
        public var state: RecordingStateMachine.State
        /// When the last frame arrived (nil: none yet).
        public var lastFrameArrival: MediaTime?
        /// Whether the capture is blocked on the writer's full queue right now.
        public var captureWaiting: Bool
        /// Whether the writer's thread has ended (it only ends early by failing).
        public var writerEnded: Bool

        /// Readings for one tick.
        public init(state: RecordingStateMachine.State, lastFrameArrival: MediaTime?, captureWaiting: Bool = false, writerEnded: Bool = false) {
            self.state = state
            self.lastFrameArrival = lastFrameArrival
            self.captureWaiting = captureWaiting
            self.writerEnded = writerEnded
        }
    }

    /// Why the supervisor stops a recording.
    public enum StopCause: String, Sendable, Equatable {
        case writerFailed = "the writer failed"
        case durationReached = "the duration was reached"
    }

    /// What to do now.
    public enum Action: Sendable, Equatable {
        /// Finish the recording.
        case stop(StopCause)
        /// The source went quiet: mark the recording interrupted (`detail` says for how long).
        case sourceStalled(detail: String)
        /// Write a checkpoint of the state now.
        case writeCheckpoint
        /// Measure the free space against the disk floor.
        case checkDisk
        /// Take a load reading.
        case readLoad
        /// Look whether the sleep inhibitor started.
        case checkKeepAwake
        /// Show a status line; `wallSeconds` since the start.
        case reportStatus(wallSeconds: Double)
    }

    public let settings: Settings
    /// When capture started.
    public let startedAt: MediaTime
    private var watch: StallWatch
    private var checkpoints: CheckpointSchedule
    private var lastDiskCheck: MediaTime
    private var lastLoadReading: MediaTime
    private var lastStatus: MediaTime
    private var keepAwakeChecked = false
    private var stopAsked = false
    /// The disk floor stopped the recording: no more disk checks.
    public private(set) var diskStopped = false

    /// A supervisor for a capture that started at `startedAt` (its first checkpoint is the one
    /// written before capture began).
    public init(settings: Settings, startedAt: MediaTime) {
        self.settings = settings
        self.startedAt = startedAt
        watch = StallWatch(limit: settings.stallLimit, now: startedAt)
        checkpoints = CheckpointSchedule(period: settings.checkpointPeriod)
        checkpoints.written(at: startedAt)
        lastDiskCheck = startedAt
        lastLoadReading = startedAt
        lastStatus = startedAt
    }

    /// The actions due at `now`, given `readings`.
    public mutating func tick(now: MediaTime, readings: Readings) -> [Action] {
        var actions: [Action] = []
        if readings.writerEnded, !stopAsked {
            stopAsked = true
            actions.append(.stop(.writerFailed))
        }
        if let arrival = readings.lastFrameArrival { watch.frameArrived(at: arrival) }
        if readings.state == .recording, watch.isStalled(now: now, captureWaiting: readings.captureWaiting) {
            actions.append(.sourceStalled(detail: "no frames for \(settings.stallLimit.seconds.formattedShort) s"))
        }
        if checkpoints.isDue(now: now) {
            checkpoints.written(at: now)
            actions.append(.writeCheckpoint)
        }
        if !diskStopped, now - lastDiskCheck >= settings.diskCheckPeriod {
            lastDiskCheck = now
            actions.append(.checkDisk)
        }
        if now - lastLoadReading >= settings.loadCheckPeriod {
            lastLoadReading = now
            actions.append(.readLoad)
        }
        if !keepAwakeChecked, now - startedAt >= settings.keepAwakeCheckAfter {
            keepAwakeChecked = true
            actions.append(.checkKeepAwake)
        }
        if let duration = settings.duration, !stopAsked,
           (now - startedAt).seconds > duration + settings.stallLimit.seconds + 1 {
            stopAsked = true
            actions.append(.stop(.durationReached))
        }
        if now - lastStatus >= settings.statusPeriod {
            lastStatus = now
            actions.append(.reportStatus(wallSeconds: (now - startedAt).seconds))
        }
        return actions
    }

    /// The disk floor stopped the recording: later ticks check the disk no more.
    public mutating func diskFloorReached() { diskStopped = true }
}
