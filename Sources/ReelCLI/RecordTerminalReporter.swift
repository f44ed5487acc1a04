import Foundation
import ReelCore
import ReelRecord

/// Prints a recording for a person: start lines on stdout, state changes as they happen
/// (also with --quiet), one status line rewritten in place on a terminal (a line every 5 s
/// when output is a file or pipe), warnings on stderr, and a summary at the end.
final class RecordTerminalReporter: RecordReporter, Sendable {
    private let quiet: Bool
    private let printer = StatusLinePrinter(period: 5)

    init(quiet: Bool) { self.quiet = quiet }

    func info(_ line: String) { printer.emit(line, toError: false) }

    func warning(_ line: String) { printer.emit("warning: \(line)", toError: true) }

    func stateChanged(_ change: RecordStateChange) {
        guard change.to != .finished else { return }
        let why: String = switch change.cause {
        case .control: change.to == .paused ? "by you" : "resumed"
        case .sourceStopped: change.detail ?? "the source stopped"
        case .sourceReturned: "the source is back"
        }
        var line = "state: \(change.to.rawValue) (\(why))"
        if let capture = change.captureSeconds { line += " at capture \(capture.formatted3) s" }
        line += ", active \(change.activeSeconds.formatted3) s"
        switch change.to {
        case .paused: line += " — resume with space, 'resume' or SIGUSR1"
        case .interrupted: line += " — recording resumes when frames return"
        default: break
        }
        printer.emit(line, toError: false)
    }

    func status(_ s: RecordStatus) {
        guard !quiet else { return }
        var line = "\(s.state.rawValue) | active \(StatusLinePrinter.clock(s.activeSeconds)) | wall \(StatusLinePrinter.clock(s.wallSeconds))"
            + " | \(Counted.noun(s.framesWritten, "frame")) | \(Self.bytes(s.fileBytes))"
        if let free = s.freeBytes { line += " | \(Self.bytes(free)) free" }
        if s.queuedFrames > 2 { line += " | \(s.queuedFrames) queued" }
        if let share = s.cpuShare { line += " | CPU \(Int((share * 100).rounded())) %" }
        if s.load != .normal { line += " | \(s.load)" + (s.loadReason.map { ": \($0)" } ?? "") }
        printer.status(line, elapsed: s.wallSeconds)
    }

    func finished(_ r: RecordReport) {
        guard r.started else {
            printer.emit("reel record: \(r.startError ?? "it could not start"); nothing was recorded", toError: true)
            return
        }
        printer.endStatus()
        var lines: [String] = []
        if let output = r.outputPath {
            lines.append("recorded: \(output)")
        } else {
            lines.append("recording FAILED — \(r.finishError ?? r.writerError ?? r.sourceError ?? "no file was made")")
        }
        lines.append("  \(r.mode.rawValue) \(r.canvas.width)x\(r.canvas.height): \(r.framesWritten) frames, video \(r.videoSeconds.formatted3) s, "
                     + "active \(r.activeSeconds.formatted3) s (\(StatusLinePrinter.clock(r.activeSeconds))), wall \(r.wallSeconds.formatted3) s, \(Self.bytes(r.fileBytes))")
        if let thumbnail = r.thumbnailPath { lines.append("  thumbnail: \(thumbnail)") }
        if let track = r.faceTrackPath { lines.append("  face track: \(track) (\(r.faceSamples) samples)") }
        if r.interruptions > 0 { lines.append("  the source stopped delivering \(Counted.noun(r.interruptions, "time")); that time is not in the video") }
        if let share = r.load.cpuShare { lines.append("  CPU: \(Int((share * 100).rounded())) % of a core on average" + (r.load.peakCelsius.map { ", hottest \(Int($0.rounded())) °C" } ?? "")) }
        if r.load.wasAdapted {
            lines.append("  eased for heat or load: \(r.load.easedSeconds.formatted3) s eased, \(r.load.reducedSeconds.formatted3) s reduced ("
                         + r.load.reasons.joined(separator: ", ") + ")" + (r.framesShed > 0 ? "; \(r.framesShed) frames left out on purpose" : ""))
        }
        if r.skippedGapSeconds > 0 { lines.append("  \(r.skippedGapSeconds.formatted3) s of gaps between frames left out") }
        for warning in r.warnings { lines.append("  warning: \(warning)") }
        if let disk = r.diskStop { lines.append("stopped: \(disk); the recording is finished and kept") }
        if let error = r.sourceError { lines.append("source: FAILED — \(error)") }
        if let error = r.writerError { lines.append("writer: FAILED — \(error)") }
        if r.outputPath != nil, let error = r.finishError { lines.append("finishing: FAILED — \(error)") }
        if let kept = r.keptForRecovery {
            lines.append("  the recording so far is kept in \(kept) (fragmented MP4 + checkpoint); it plays as it is")
        }
        printer.emit(lines.joined(separator: "\n"), toError: !r.succeeded)
    }

    /// "12.3 MB".
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}
