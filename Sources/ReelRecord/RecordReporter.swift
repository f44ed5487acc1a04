import Foundation
import ReelCore

/// A change of the recorder's state, as the user sees it.
public struct RecordStateChange: Sendable {
    /// Before and after.
    public var from: RecordingStateMachine.State, to: RecordingStateMachine.State
    /// Why.
    public var cause: RecordingStateMachine.Cause
    /// Capture time of the last frame seen before the change, in seconds since the first
    /// frame (nil: no frame yet). Frames captured up to here may be in the video; frames
    /// after it, until the next change back to recording, are not.
    public var captureSeconds: Double?
    /// Active time at the change, in seconds.
    public var activeSeconds: Double
    /// More about it (why the source stopped).
    public var detail: String?
}

/// A snapshot of a running recording, for the status line.
public struct RecordStatus: Sendable {
    /// The state.
    public var state: RecordingStateMachine.State
    /// Active and wall-clock seconds so far.
    public var activeSeconds: Double, wallSeconds: Double
    /// Frames written to the video.
    public var framesWritten: Int
    /// Bytes of the file in progress.
    public var fileBytes: Int64
    /// Free bytes on the disk holding it (nil: unknown).
    public var freeBytes: Int64?
    /// Frames waiting for the encoder.
    public var queuedFrames: Int
    /// The tracker's newest face sample: its box in the recorded picture (normalized, origin
    /// top-left) and the video time it was found at (nil: none yet, or no tracker).
    public var face: FaceTrackSample?
    /// The source delivering now, as it names itself (nil while it is being reopened).
    public var sourceName: String?
    /// How hard the recorder works (heat and load), and why when not normal.
    public var load: LoadLevel = .normal
    public var loadReason: String?
    /// CPU share of the recorder over the last few seconds (of one core; nil: not yet known).
    public var cpuShare: Double?
}

/// What a recording produced.
public struct RecordReport: Sendable {
    /// False when it failed before capturing (bad source, unwritable output).
    public var started = false
    /// The finished MP4 (nil: none), its thumbnail and face track (nil: not written).
    public var outputPath: String?
    public var thumbnailPath: String?
    public var faceTrackPath: String?
    /// Mode and canvas.
    public var mode: RecordingMode = .timelapse
    public var canvas = VideoDimensions(width: 0, height: 0)
    /// Active time, the video's duration and the wall-clock time of the run, in seconds.
    public var activeSeconds = 0.0, videoSeconds = 0.0, wallSeconds = 0.0
    /// Frames written; bytes of the finished file.
    public var framesWritten = 0
    public var fileBytes: Int64 = 0
    /// Whether the session went into the library.
    public var sessionRegistered = false
    /// Face samples stored.
    public var faceSamples = 0
    /// Heat and load over the recording (also kept with the session).
    public var load = RecordingLoad()
    /// Full mode: frames left out on purpose under load.
    public var framesShed = 0
    /// Times the source stopped delivering, and capture time left out for gaps between frames.
    public var interruptions = 0
    public var skippedGapSeconds = 0.0
    /// Why it could not start, or what failed while recording or finishing.
    public var startError: String?
    public var sourceError: String?
    public var writerError: String?
    public var finishError: String?
    /// Set when the recording was stopped (and finished) because the disk was almost full:
    /// what the file system had. The run then counts as failed (exit status 1).
    public var diskStop: String?
    /// Problems that did not fail the recording (no thumbnail, …).
    public var warnings: [String] = []
    /// When the recording could not be finished: the folder holding the fragmented video and
    /// its checkpoint, kept for recovery.
    public var keptForRecovery: String?

    /// An empty report.
    public init() {}

    /// True when a finished file exists and nothing failed.
    public var succeeded: Bool {
        outputPath != nil && startError == nil && sourceError == nil && writerError == nil && finishError == nil && diskStop == nil
    }
}

/// Receives a recorder's messages; the command line prints them.
public protocol RecordReporter: Sendable {
    /// A line of information (start, paths).
    func info(_ line: String)
    /// A problem that does not stop the recording.
    func warning(_ line: String)
    /// The state changed (pause, resume, interruption, finish).
    func stateChanged(_ change: RecordStateChange)
    /// Called about once a second while recording.
    func status(_ status: RecordStatus)
    /// The final report.
    func finished(_ report: RecordReport)
}
