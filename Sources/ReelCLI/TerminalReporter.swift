import Foundation
import ReelLive

/// Prints a live session for a person: start lines on stdout, one status line rewritten in
/// place on a terminal (or a line every 10 s when output is a file or pipe), warnings on
/// stderr, and a summary at the end.
final class TerminalReporter: LiveReporter, @unchecked Sendable {
    private let quiet: Bool
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private let lock = NSLock()
    private var lastPrinted = -1.0
    private var statusShown = false

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
        lock.withLock {
            if isTerminal {
                FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
                statusShown = true
            } else if s.elapsed - lastPrinted >= 10 {
                lastPrinted = s.elapsed
                FileHandle.standardError.write(Data((line + "\n").utf8))
            }
        }
    }

    func finished(_ r: LiveReport) {
        guard r.started else {
            // Nothing was captured: only the reason, no empty summary.
            let reason = r.sourceError ?? r.liveError ?? r.archiveError ?? "it could not start"
            emit("reel live: \(reason)", toError: true)
            return
        }
        var lines: [String] = []
        lines.append("live: \(r.liveError.map { "FAILED — \($0)" } ?? "ok") — \(r.segmentsPublished) of \(r.segmentsProduced) segments published, \(r.droppedFrames) frames dropped")
        for target in r.targets { lines.append("  \(target)") }
        if let path = r.archivePath {
            let state = r.archiveError.map { "FAILED — \($0)" } ?? "ok"
            lines.append(String(format: "archive: %@ — %@, %.2f s, %d frames", state, path, r.archiveDuration, r.archiveFrames))
            if r.archiveSkippedFrames > 0 {
                lines.append("  the archive encoder could not keep up in real time: \(r.archiveSkippedFrames) frames were left out of the archive on purpose")
                for change in r.archiveRateChanges { lines.append("    \(change)") }
            }
            if r.archiveBackpressure > 0.5 {
                lines.append(String(format: "  the archive encoder fell behind: capture waited %.1f s for it", r.archiveBackpressure))
            }
        } else if let error = r.archiveError {
            lines.append("archive: FAILED — \(error)")
        }
        if let error = r.sourceError { lines.append("source: FAILED — \(error)") }
        let text = lines.joined(separator: "\n") + "\n"
        lock.withLock {
            if statusShown { FileHandle.standardError.write(Data("\n".utf8)); statusShown = false }
        }
        if r.succeeded { emit(text, toError: false, newline: false) } else { emit(text, toError: true, newline: false) }
    }

    private func emit(_ line: String, toError: Bool, newline: Bool = true) {
        lock.withLock {
            if statusShown { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
            let data = Data((line + (newline ? "\n" : "")).utf8)
            (toError ? FileHandle.standardError : FileHandle.standardOutput).write(data)
        }
    }

    static func clock(_ seconds: Double) -> String {
        let s = Int(seconds)
        return String(format: "%02d:%02d:%02d", s / 3600, s / 60 % 60, s % 60)
    }
}
