/// The study recorder's rules as a value: its state, the active clock, and for every captured
/// frame whether it is written and with which timestamp (docs/behaviour.md §1, Active time).
///
/// ```
///            pause / toggle                        source stops delivering
/// recording ────────────────▶ paused    recording ─────────────────────────▶ interrupted
///     ▲ ◀──────────────────── │             ▲ ◀──────── a frame arrives ─────────┘
///     │     resume / toggle    │             │
///     └──── any state ── stop ──▶ finished (final: frames and controls are ignored)
/// ```
///
/// - Only frames captured while *recording* advance the active clock. Every change of state
///   forgets the clock's reference frame, so neither a pause nor an interruption ever counts,
///   and the first frame after one adds nothing.
/// - A frame arriving while interrupted means the source is back: recording resumes with it.
///   Paused by the user, it stays paused (and remembers the source was lost: a resume before
///   frames return goes to interrupted, not recording).
/// - A gap between two frames longer than `stallLimit` is an interruption nobody saw yet (the
///   watchdog polls; timestamps are exact): it adds nothing either.
/// - Timelapse: ``TimelapseSchedule`` picks the frames and gives output frame k the time k/10 s.
///   Full: every frame, ``FullModeTimestamps`` (active time at 1/600 s, strictly increasing).
/// - Face samples: ``FaceSampleSchedule`` marks the written frames the tracker looks at.
/// - Heat and load: ``adapt(to:)`` widens the face cadence and, in full mode at
///   ``LoadLevel/reduced``, writes one frame in ``LoadLevel/fullModeFrameStep`` (the others
///   still count as study time; the written ones keep active-time stamps).
///
/// Not thread-safe by itself: the recorder keeps it behind one lock.
public struct RecordingStateMachine: Sendable {
    /// Where the recording is.
    public enum State: String, Sendable, Equatable, Codable, CaseIterable {
        /// Frames are counted and written.
        case recording
        /// Paused by the user.
        case paused
        /// The source stopped delivering (unplugged, taken by another program, ended).
        case interrupted
        /// Stopped; final.
        case finished
    }

    /// What the user can do.
    public enum Control: String, Sendable, Equatable, CaseIterable {
        /// Pause (recording or interrupted → paused).
        case pause
        /// Resume (paused → recording, or interrupted when the source is still away).
        case resume
        /// Pause when recording or interrupted, resume when paused.
        case toggle
        /// Finish.
        case stop
    }

    /// Why the state changed.
    public enum Cause: Sendable, Equatable {
        /// The user asked.
        case control(Control)
        /// The source stopped delivering.
        case sourceStopped
        /// A frame arrived while interrupted.
        case sourceReturned
    }

    /// A change of state, with where the recording stood.
    public struct Transition: Sendable, Equatable {
        /// The state before and after.
        public var from: State, to: State
        /// Why.
        public var cause: Cause
        /// The capture time of the last frame seen before the change (nil: none yet).
        public var lastCapture: MediaTime?
        /// The active time at the change.
        public var active: MediaTime
    }

    /// A frame to write.
    public struct OutputFrame: Sendable, Equatable {
        /// Its number in the video, from 0.
        public var index: Int
        /// Its presentation time in the video.
        public var pts: MediaTime
        /// The active time once it is counted.
        public var active: MediaTime
        /// Whether the face tracker looks at it.
        public var samplesFace: Bool
    }

    /// Why a frame is not written.
    public enum SkipReason: Sendable, Equatable {
        /// Paused by the user.
        case paused
        /// Finished.
        case finished
        /// Timelapse: not yet an interval since the last written frame.
        case notDue
        /// Full mode under heat or load (``LoadLevel/reduced``): left out on purpose; the
        /// active clock still counts it.
        case shed
    }

    /// What to do with one captured frame.
    public struct FrameStep: Sendable, Equatable {
        /// The frame to write, or why not.
        public var decision: Decision
        /// The change of state this frame caused (the source came back), if any.
        public var transition: Transition?
        /// A gap longer than the stall limit before this frame, left out of the active time.
        public var skippedGap: MediaTime?

        /// Write or skip.
        public enum Decision: Sendable, Equatable {
            case write(OutputFrame)
            case skip(SkipReason)
        }

        /// The frame to write, if any.
        public var output: OutputFrame? {
            if case .write(let frame) = decision { return frame }
            return nil
        }
    }

    /// The recording mode.
    public let mode: RecordingMode
    /// A gap between frames longer than this counts as an interruption.
    public let stallLimit: MediaTime
    /// The current state.
    public private(set) var state: State = .recording
    /// The study timer.
    public private(set) var clock = ActiveClock()
    /// Timelapse only.
    public private(set) var schedule: TimelapseSchedule?
    /// Full mode only.
    public private(set) var timestamps = FullModeTimestamps()
    /// Which written frames the face tracker sees.
    public private(set) var faceSchedule: FaceSampleSchedule
    /// Frames seen (every state) and written.
    public private(set) var framesSeen = 0, framesWritten = 0
    /// Capture time of the first and of the last frame seen.
    public private(set) var firstCapture: MediaTime?, lastCapture: MediaTime?
    /// Whether the source is delivering (false after it stopped, until a frame arrives).
    public private(set) var sourceAvailable = true
    /// Capture time left out because a gap between frames exceeded the stall limit.
    public private(set) var skippedGapTime = MediaTime.zero
    /// How hard the recorder works now (``adapt(to:)``).
    public private(set) var load = LoadLevel.normal
    /// Full mode: frames left out on purpose under load.
    public private(set) var framesShed = 0
    private var framesShedInRow = 0

    /// The default stall limit: 3 s without a frame.
    public static let defaultStallLimit = MediaTime(value: 3, timescale: 1)

    /// A recorder in `mode` (`interval`: timelapse only), starting in the recording state.
    public init(mode: RecordingMode, interval: MediaTime? = nil,
                stallLimit: MediaTime = RecordingStateMachine.defaultStallLimit) throws(TimelapseSchedule.Error) {
        self.mode = mode
        self.stallLimit = stallLimit
        faceSchedule = FaceSampleSchedule(mode: mode)
        if mode == .timelapse {
            schedule = try TimelapseSchedule(interval: interval ?? MediaTime(value: 5, timescale: 1))
        }
    }

    /// The active time so far.
    public var active: MediaTime { clock.active }

    /// Applies a load level from the next frame on: the face cadence factor, and in full mode
    /// the frame step.
    public mutating func adapt(to level: LoadLevel) {
        load = level
        faceSchedule.factor = level.faceCadenceFactor
    }

    /// Applies a control; returns the change of state, or nil when it changes nothing
    /// (pausing while paused, anything once finished).
    public mutating func apply(_ control: Control) -> Transition? {
        let target: State
        switch (control, state) {
        case (_, .finished): return nil
        case (.stop, _): target = .finished
        case (.pause, .recording), (.pause, .interrupted), (.toggle, .recording), (.toggle, .interrupted): target = .paused
        case (.resume, .paused), (.toggle, .paused): target = sourceAvailable ? .recording : .interrupted
        case (.pause, .paused), (.resume, .recording), (.resume, .interrupted): return nil
        }
        return move(to: target, cause: .control(control))
    }

    /// The source stopped delivering; recording becomes interrupted (paused stays paused).
    public mutating func sourceStopped() -> Transition? {
        sourceAvailable = false
        guard state == .recording else { return nil }
        return move(to: .interrupted, cause: .sourceStopped)
    }

    /// Decides about a frame captured at `pts`.
    public mutating func frame(at pts: MediaTime) -> FrameStep {
        framesSeen += 1
        if firstCapture == nil { firstCapture = pts }
        defer { lastCapture = pts }
        sourceAvailable = true
        var transition: Transition?
        switch state {
        case .finished: return FrameStep(decision: .skip(.finished))
        case .paused: return FrameStep(decision: .skip(.paused))
        case .interrupted: transition = move(to: .recording, cause: .sourceReturned)
        case .recording: break
        }
        var skippedGap: MediaTime?
        if let reference = clock.lastPTS, pts - reference > stallLimit {
            skippedGap = pts - reference
            skippedGapTime += pts - reference
            clock.resetReference()
        }
        clock.advance(to: pts)
        let output: OutputFrame?
        switch mode {
        case .timelapse:
            output = schedule!.consider(active: clock.active).map { written in
                OutputFrame(index: written.index, pts: written.pts, active: clock.active, samplesFace: false)
            }
        case .full:
            // One frame in `step` is written: the frames in between are shed.
            if framesWritten > 0, framesShedInRow + 1 < load.fullModeFrameStep {
                framesShedInRow += 1
                framesShed += 1
                return FrameStep(decision: .skip(.shed), transition: transition, skippedGap: skippedGap)
            }
            framesShedInRow = 0
            let stamped = timestamps.stamp(active: clock.active)
            clock.moveForward(to: stamped.active)
            output = OutputFrame(index: framesWritten, pts: stamped.pts, active: clock.active, samplesFace: false)
        }
        guard var output else { return FrameStep(decision: .skip(.notDue), transition: transition, skippedGap: skippedGap) }
        output.samplesFace = faceSchedule.isDue(at: output.pts)
        framesWritten += 1
        return FrameStep(decision: .write(output), transition: transition, skippedGap: skippedGap)
    }

    private mutating func move(to target: State, cause: Cause) -> Transition {
        let transition = Transition(from: state, to: target, cause: cause, lastCapture: lastCapture, active: clock.active)
        state = target
        clock.resetReference()
        return transition
    }
}
