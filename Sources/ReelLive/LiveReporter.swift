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
    /// Archive frames written, and frames queued for it.
    public var archiveFrames: Int, archiveBacklog: Int
}

/// What happened to each output, at the end.
public struct LiveReport: Sendable {
    /// The live path: segments published and the error, if it failed.
    public var segmentsPublished: Int
    /// Segments produced by the writer.
    public var segmentsProduced: Int
    /// Per target (origin, folder): a one-line result.
    public var targets: [String]
    /// The live path's failure, if any.
    public var liveError: String?
    /// The archive file, its media duration and frames, or its failure.
    public var archivePath: String?
    public var archiveDuration: Double
    public var archiveFrames: Int
    public var archiveError: String?
    /// The source's failure, if it ended the run.
    public var sourceError: String?
    /// Frames dropped by the live branch under overload.
    public var droppedFrames: Int
    /// Time the producer waited on a full archive queue (backpressure), in seconds.
    public var archiveBackpressure: Double
    /// Seconds of capture.
    public var elapsed: Double

    /// False when the run failed before capturing anything (bad source, origin refused).
    public var started: Bool
    /// True when the live path, the archive and the source all ended without error.
    public var succeeded: Bool { liveError == nil && archiveError == nil && sourceError == nil }
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
