import Foundation

/// How far an export is.
public struct ExportProgress: Sendable, Equatable {
    /// Pictures written, and of how many (estimated from the duration; nil: unknown).
    public var frames: Int, totalFrames: Int?
    /// Video time done and the whole (seconds).
    public var seconds: Double, totalSeconds: Double?
    /// Pictures per second so far (wall clock).
    public var framesPerSecond: Double
    /// Seconds left at that speed (nil: unknown).
    public var secondsLeft: Double?
    /// Share done, 0…1 (nil: unknown).
    public var fraction: Double? { totalSeconds.flatMap { $0 > 0 ? min(1, seconds / $0) : nil } }
}

/// What an export did.
public struct ExportReport: Sendable {
    /// The finished MP4.
    public var outputPath: String
    /// Pictures written, their size, the video's length, and the wall-clock time taken.
    public var frames = 0
    public var width = 0, height = 0
    public var videoSeconds = 0.0, wallSeconds = 0.0
    /// Whether audio was copied.
    public var audioCopied = false
    /// Faces: detections run, distinct subjects found, and areas covered (summed over frames).
    public var detections = 0, subjects = 0, coveredAreas = 0
    /// Which detector found the faces (nil: none ran).
    public var detector: String?
    /// Bytes of the finished file.
    public var fileBytes: Int64 = 0
    /// Problems that did not stop the export.
    public var warnings: [String] = []
    /// The source could not be read to its end (damaged, cut short): only the part read was
    /// exported (a warning says how much).
    public var partial = false
}

/// Receives an export's messages; the command line prints them.
public protocol ExportReporter: Sendable {
    /// A line of information.
    func info(_ line: String)
    /// A problem that does not stop the export.
    func warning(_ line: String)
    /// About twice a second.
    func progress(_ progress: ExportProgress)
}

/// The shape every run on ``ExportRun`` reports in (``ExportReport`` for `reel export`,
/// ``WeeklyVlog/Report`` for `reel vlog`), so the skeleton fills it the same way for both.
public protocol ExportRunReport: Sendable {
    /// The finished MP4.
    var outputPath: String { get }
    /// The picture's size.
    var width: Int { get set }
    var height: Int { get set }
    /// Pictures written.
    var frames: Int { get set }
    /// The video's length and the wall-clock time taken (seconds).
    var videoSeconds: Double { get set }
    var wallSeconds: Double { get set }
    /// Problems that did not stop the run.
    var warnings: [String] { get set }
    /// A source could not be read to its end: only the part read is in the output.
    var partial: Bool { get set }
}

extension ExportReport: ExportRunReport {}
