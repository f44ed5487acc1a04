import Foundation
import ReelCore

/// A snapshot of a running live session, for the status line.
public struct LiveStatus: Sendable {
    /// Seconds of capture so far.
    public var elapsed: Double
    /// Segments published to every target / produced.
    public var segmentsPublished: Int, segmentsProduced: Int
    /// Segments waiting to be published (spooled).
    public var backlog: Int
    /// Video frames the live branch dropped under overload.
    public var droppedFrames: Int
    /// Measured live bitrate (bits per second of media), from the produced segments.
    public var bitRate: Double
    /// Failed PUT attempts so far.
    public var failedAttempts: Int
    /// Archive frames written (nil: no archive), and frames queued for it.
    public var archiveFrames: Int?, archiveBacklog: Int
    /// Archive frames left out on purpose so far (``LiveReport/archiveSkippedFrames`` at the end).
    public var archiveSkippedFrames = 0
    /// With `--privacy`: pictures that left the hold before their detections (covered with the
    /// last boxes widened, or whole), and whether the detector has failed.
    public var privacyLatePictures = 0, privacyWholePictures = 0
    public var privacyFailed = false
}

/// What happened to each output, at the end.
public struct LiveReport: Sendable {
    /// False when the run failed before capturing anything (bad source, origin refused).
    public var started = false
    /// Seconds of capture.
    public var elapsed = 0.0
    /// Segments produced by the writer, and published to every target.
    public var segmentsProduced = 0, segmentsPublished = 0
    /// Per target (origin, folder): a one-line result.
    public var targets: [String] = []
    /// The live path's failure, if any.
    public var liveError: String?
    /// Video frames the live branch dropped under overload.
    public var droppedFrames = 0
    /// An ABR ladder's rungs thinned because the encoders could not keep up (``ReelCore/LadderLoadPolicy``):
    /// one line per change, and the pictures each thinned rung repeated.
    public var ladderRateChanges: [String] = []
    public var ladderRepeatedPictures: [String] = []
    /// The archive file (nil: none), its media duration and frames, or its failure.
    public var archivePath: String?
    public var archiveDuration = 0.0
    public var archiveFrames = 0
    public var archiveError: String?
    /// Archive frames left out on purpose when the encoder could not keep up (reported,
    /// never silent), and when the rate changed.
    public var archiveSkippedFrames = 0
    /// Of those, the frames its full queue let go (past the rate policy; capture never waits
    /// for the archive of a real-time source).
    public var archiveQueueDroppedFrames = 0
    public var archiveRateChanges: [String] = []
    /// Time the capture waited on a full archive queue, in seconds (only with `--fast`, where
    /// it is the point and not reported; a real-time source never waits).
    public var archiveBackpressure = 0.0
    /// The source's failure, if it ended the run.
    public var sourceError: String?
    /// With `--privacy`: detections made, and pictures that left the hold before their
    /// detections, covered with the last boxes widened or whole (detection fell behind).
    public var privacy: LivePrivacy?
    public var privacyDetections = 0
    public var privacyLatePictures = 0, privacyWholePictures = 0
    /// With `--privacy`: why faces could not be found (a missing model refuses the start; a
    /// failing detector covers every picture whole and ends the run).
    public var privacyError: String?

    /// An empty report.
    public init() {}

    /// True when the live path, the archive and the source all ended without error.
    public var succeeded: Bool { liveError == nil && archiveError == nil && sourceError == nil && privacyError == nil }
}

/// Receives a live session's messages; the command line prints them.
public protocol LiveReporter: Sendable {
    /// A line of information (start, stream URL, warnings).
    func info(_ line: String)
    /// A problem that does not stop the run.
    func warning(_ line: String)
    /// Called about once a second while running.
    func status(_ status: LiveStatus)
    /// The final report.
    func finished(_ report: LiveReport)
}
