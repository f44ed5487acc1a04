import Foundation
import ReelCore
import ReelMedia

/// The one skeleton `reel export` (``PrivacyExporter``) and `reel vlog` (``WeeklyVlog``) run
/// on, so that both are exactly as safe: prepare (the output checked through ``ExportOutput``,
/// a stale partial file of a dead run noted) → start (hidden files, the writer, the
/// ``EncodeThread``) → supervise (pictures fed with the stop looked at before each one and
/// progress at most twice a second; any failure worded with how far it got and that nothing
/// was written) → finish (the encoder drained, the result remuxed into a second hidden file,
/// placed by rename), and ``end()`` on every path: the encoder abandoned when unfinished and
/// every hidden file removed.
///
/// The jobs differ only in what they feed and in how the finished video is remuxed.
final class ExportRun {
    /// What tells one job from the other in files and messages.
    struct Job {
        /// In the note about stale files: "an interrupted export".
        var noun: String
        /// In a failure: "exporting /videos/a.mp4 failed after …", "making the vlog failed after …".
        var doing: String
        /// The role in the hidden encoded file's name ("video", "vlog"; ``ExportOutput`` knows them).
        var hiddenRole: String
        /// The encoder thread's name.
        var threadName: String
        /// The job's own error for a sentence (``PrivacyExporter/Error``, ``WeeklyVlog/Error``).
        var error: (String) -> any Swift.Error
    }

    let job: Job
    /// The checked output.
    let output: ExportOutput
    /// When the run started (for speed and the report's wall time).
    let started = Date()
    private let stop: ExportStopRequest
    private let reporter: any ExportReporter
    private var encoding: EncodeThread?
    private var encodedPath = ""
    private var finished = false
    private var lastProgress = Date.distantPast
    /// Pictures queued for the encoder so far.
    private(set) var pictures = 0

    /// Checks the output `path` against the files the job reads; a refusal is thrown as
    /// `refuse(sentence)` (the job's own error type), before anything is made.
    static func checkedOutput(path: String, overwrite: Bool, inputs: [ExportOutput.Input],
                              refuse: (String) -> any Swift.Error) throws -> ExportOutput {
        do {
            return try ExportOutput(path: path, overwrite: overwrite, inputs: inputs)
        } catch {
            throw refuse("\(error)")
        }
    }

    /// A run into `output` (checked by ``checkedOutput(path:overwrite:inputs:refuse:)``);
    /// says when checking it removed hidden files an interrupted run left behind.
    init(job: Job, output: ExportOutput, stop: ExportStopRequest, reporter: any ExportReporter) {
        self.job = job
        self.output = output
        self.stop = stop
        self.reporter = reporter
        let stale = output.staleRemoved
        if stale > 0 {
            reporter.info("removed \(Counted.noun(stale, "hidden partial file")) an interrupted \(job.noun) to \(output.path) left behind")
        }
    }

    /// Throws ``ExportStopRequest/Stopped`` once a stop was asked for.
    func checkStop() throws {
        try stop.check()
    }

    /// Start: the hidden file the encoder writes, the writer, and its thread.
    func start(video: VideoEncoderSettings, audio: AudioEncoderSettings?) throws {
        try stop.check()
        encodedPath = try output.hiddenFile(job.hiddenRole)
        let writer = try MP4ArchiveWriter(path: encodedPath, video: video, audio: audio)
        encoding = EncodeThread(writer: writer, name: job.threadName)
    }

    /// Queues the next picture (the stop looked at first) and reports `progress(pictures)`
    /// at most twice a second.
    func write(_ picture: VideoFrame, pts: MediaTime, progress: (Int) -> ExportProgress) throws {
        try stop.check()
        try encoder().append(.video(picture, pts))
        pictures += 1
        let now = Date()
        if now.timeIntervalSince(lastProgress) >= 0.5 {
            lastProgress = now
            reporter.progress(progress(pictures))
        }
    }

    /// Queues a block of sound.
    func write(audio block: AudioBlock, pts: MediaTime) throws {
        try encoder().append(.audio(block, pts))
    }

    private func encoder() throws -> EncodeThread {
        guard let encoding else { throw job.error("the encoder was not started") }
        return encoding
    }

    /// Reads `reader` picture by picture into `body`, the stop looked at before each. A
    /// failure of `body` (the job's own work: a stamp, the encoder) is thrown; the source
    /// failing to read is returned when `keepsWhatWasRead()` (damaged part way: what was read
    /// stays, the job warns), else thrown.
    func read(_ reader: VideoFileReader, keepsWhatWasRead: () -> Bool,
              _ body: (VideoFrame) throws -> Void) throws -> (any Error)? {
        do {
            try reader.forEachFrame { frame in
                do {
                    try stop.check()
                    try body(frame)
                } catch {
                    throw OwnFailure(error: error)
                }
                return true
            }
        } catch let failure as OwnFailure {
            throw failure.error
        } catch where keepsWhatWasRead() {
            return error
        }
        return nil
    }

    /// Supervise: runs `body`; a stop passes through, any other failure is worded with how
    /// far the run got and that nothing was written (as the job's own error).
    func supervise<R>(_ body: () throws -> R) throws -> R {
        do {
            return try body()
        } catch let stopped as ExportStopRequest.Stopped {
            throw stopped
        } catch {
            throw job.error("\(job.doing) failed after \(pictures) pictures: \(error); nothing was written to \(output.path)")
        }
    }

    /// Finish: waits for the encoder to write everything queued, remuxes its file with
    /// `remux(encoded, finishing)` into a second hidden file, and places that on the output.
    /// The stop is looked at between the steps; a failure is worded as in ``supervise(_:)``.
    func finish<R>(remux: (_ encoded: String, _ finishing: String) throws -> R) throws -> R {
        try supervise {
            try encoder().finish()
            finished = true
            try stop.check()
            let finishing = try output.hiddenFile("finishing")
            let result = try remux(encodedPath, finishing)
            try stop.check()
            try output.place(finishing)
            return result
        }
    }

    /// The end of every run, after success, a failure or a stop: the encoder is abandoned
    /// when it did not finish, and every hidden file is removed.
    func end() {
        if let encoding, !finished { encoding.abandon() }
        output.removeHiddenFiles()
    }

    /// Notes a problem that does not stop the run, in the report and to the reporter.
    func warn<Report: ExportRunReport>(_ line: String, into report: inout Report) {
        report.warnings.append(line)
        reporter.warning(line)
    }

    /// Completes the report (its wall time) and reports the last progress, `last`.
    func complete<Report: ExportRunReport>(_ report: inout Report, last: ExportProgress) {
        report.wallSeconds = Date().timeIntervalSince(started)
        var last = last
        last.secondsLeft = 0
        reporter.progress(last)
    }

    /// A failure of the job's own work inside the reading loop, told apart from the source
    /// failing to read.
    private struct OwnFailure: Swift.Error {
        var error: any Swift.Error
    }
}
