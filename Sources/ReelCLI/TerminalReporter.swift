import Foundation
import ReelLive

/// Prints a live session for a person: start lines on stdout, one status line rewritten in
/// place on a terminal (or a line every 10 s when output is a file or pipe), warnings on
/// stderr, and a summary at the end.
final class TerminalReporter: LiveReporter, Sendable {
    private let quiet: Bool
    private let printer = StatusLinePrinter(period: 10)

    init(quiet: Bool) { self.quiet = quiet }

    func info(_ line: String) { emit(line, toError: false) }

    func warning(_ line: String) { emit("warning: \(line)", toError: true) }

    func status(_ s: LiveStatus) {
        guard !quiet else { return }
        var line = String(format: "%@ | segments %d/%d | backlog %d | dropped %d | %.2f Mbps | retries %d",
                          Self.clock(s.elapsed), s.segmentsPublished, s.segmentsProduced, s.backlog, s.droppedFrames,
                          s.bitRate / 1e6, s.failedAttempts)
        if let frames = s.archiveFrames {
            line += String(format: " | archive %d frames (%d queued)", frames, s.archiveBacklog)
        }
        if s.privacyFailed {
            line += " | faces: DETECTOR FAILED, whole picture covered"
        } else if s.privacyLatePictures + s.privacyWholePictures > 0 {
            line += " | faces: detection behind, \(s.privacyLatePictures) covered wide, \(s.privacyWholePictures) whole"
        }
        printer.status(line, elapsed: s.elapsed)
    }

    func finished(_ r: LiveReport) {
        guard r.started else {
            // Nothing was captured: only the reason, no empty summary.
            let reason = r.privacyError ?? r.sourceError ?? r.liveError ?? r.archiveError ?? "it could not start"
            emit("reel live: \(reason)", toError: true)
            return
        }
        var lines: [String] = []
        lines.append("live: \(r.liveError.map { "FAILED — \($0)" } ?? "ok") — \(r.segmentsPublished) of \(r.segmentsProduced) segments published, \(r.droppedFrames) frames dropped")
        for target in r.targets { lines.append("  \(target)") }
        if !r.ladderRateChanges.isEmpty {
            lines.append("  the live encoders could not keep up with every rung in real time, so the top rungs were thinned on purpose "
                         + "(\(r.ladderRepeatedPictures.joined(separator: ", ")))")
            for change in r.ladderRateChanges { lines.append("    \(change)") }
        }
        if let path = r.archivePath {
            let state = r.archiveError.map { "FAILED — \($0)" } ?? "ok"
            lines.append(String(format: "archive: %@ — %@, %.2f s, %d frames", state, path, r.archiveDuration, r.archiveFrames))
            if r.archiveSkippedFrames > 0 {
                lines.append("  the archive encoder could not keep up in real time: \(r.archiveSkippedFrames) frames were left out of the archive on purpose")
                for change in r.archiveRateChanges { lines.append("    \(change)") }
                if r.archiveQueueDroppedFrames > 0 {
                    lines.append("    \(r.archiveQueueDroppedFrames) of them when its queue was full (capture never waits for the archive)")
                }
            }
            if r.archiveBackpressure > 0.5 {
                lines.append(String(format: "  the archive encoder fell behind: capture waited %.1f s for it", r.archiveBackpressure))
            }
        } else if let error = r.archiveError {
            lines.append("archive: FAILED — \(error)")
        }
        if let error = r.sourceError { lines.append("source: FAILED — \(error)") }
        lines += privacyLines(r)
        let text = lines.joined(separator: "\n") + "\n"
        printer.endStatus()
        if r.succeeded { emit(text, toError: false, newline: false) } else { emit(text, toError: true, newline: false) }
    }

    /// With `--privacy`: how the faces were covered, and when detection could not keep up.
    private func privacyLines(_ r: LiveReport) -> [String] {
        guard let mode = r.privacy else { return [] }
        var lines = ["faces: \(r.privacyError.map { "FAILED — \($0); every picture after it was covered whole" } ?? "ok") — "
                     + "\(mode.rawValue), \(r.privacyDetections) detections"]
        if r.privacyLatePictures + r.privacyWholePictures > 0 {
            lines.append("  detection fell behind real time: \(r.privacyLatePictures) pictures were covered with the last boxes widened "
                         + "and \(r.privacyWholePictures) covered whole before their faces were confirmed")
        }
        return lines
    }

    private func emit(_ line: String, toError: Bool, newline: Bool = true) {
        printer.emit(line, toError: toError, newline: newline)
    }

    static func clock(_ seconds: Double) -> String { StatusLinePrinter.clock(seconds) }
}
