import Foundation
import ReelCore
import ReelExport
import ReelMedia
import ReelStore

/// `reel export`: the only way a video leaves the machine with faces hidden.
enum ExportCommand {
    static let input = Positional("SESSION|FILE", help: "A study session (its id or the first characters of it, or 'last'), or any video file.")
    static let output = Option.value("output", short: "o", placeholder: "OUT.mp4", required: true,
                                     help: "The MP4 to write (never replaced unless --overwrite).")
    static let privacy = Option.value("privacy", placeholder: "MODE", default: "mosaic",
                                      help: "mosaic (default), mask (a solid grey fill), stamp:IMAGE.png (an image over every face), or none.")
    static let allFaces = Option.flag("all-faces", help: "A session: find and hide every face in its video now, not only the recorded subject.")
    static let caption = Option.flag("caption", help: "Draw the study time and date in a corner (Japanese text renders, Noto Sans CJK).")
    static let captionLabel = Option.value("caption-label", placeholder: "TEXT",
                                           help: "The words before the time (default 'Study time', 勉強時間 when LANG is Japanese).")
    static let watermark = Option.value("watermark", placeholder: "IMAGE.png", help: "A PNG drawn in the bottom-right corner.")
    static let size = Option.value("size", placeholder: "SIZE", default: "1080p", choices: ExportSettings.Size.allCases.map(\.rawValue),
                                   help: "The short side of the picture: 1080p, 720p or source (never enlarged).")
    static let json = Option.flag("json", help: "Progress and the result as JSON lines on standard output, for scripts.")
    static let overwrite = Option.flag("overwrite", help: "Replace OUT.mp4 when it exists.")
    static let noAudio = Option.flag("no-audio", help: "Leave the audio out (by default it is copied as it is).")
    static let facesOut = Option.value("faces-out", placeholder: "FILE.json",
                                       help: "When faces are found while exporting: also write their positions there (the NAME.faces.json format).")
    static let detector = Option.value("detector", placeholder: "NAME", default: "centerface", choices: ExportSettings.Detector.allCases.map(\.rawValue),
                                       help: "centerface (default; the export stops when its model is missing) or haar (weaker: misses turned, tilted and dim faces).")
    static let detectorWidth = Option.value("detector-width", as: Int.self, default: "320",
                                            help: "Width (a multiple of 32) pictures are shrunk to for face detection: larger finds smaller faces, slower.")

    static let spec = CommandSpec(
        name: "export",
        summary: "Export a video with every face hidden: mosaic, stamp, caption, watermark.",
        discussion: """
            A session is exported with the face positions recorded with it, after your review \
            edits ('reel review'); any other video file is searched for faces every 0.2 s of video \
            (CenterFace; every face, each tracked, small faces looked for at full resolution), \
            with the boxes interpolated in between. When in doubt it covers: faces walking out \
            of the picture, turned away, cut by the edge or found late are covered from before \
            they were found until after they left. The mosaic: blocks of 3 % of the long side, the grid centred on the face, \
            through an elliptical soft mask. The audio is copied unchanged. The output appears \
            only when it is complete, and is never the input itself (also not through a link). \
            Ctrl-C or SIGTERM stops the export and removes the partial output.

            A source that is damaged or cut short is exported as far as it can be read, with a \
            warning saying where it ends and how long its header says it is. A still image \
            (PNG, JPEG) is refused: it is not a video.

            Exit status: 0 exported; 3 exported only in part, because the source could not be \
            read to its end (the warning says how much); 1 failed, nothing written; 64 a command \
            line that cannot be run; 130 stopped by Ctrl-C and 143 by SIGTERM, nothing written.
            """,
        options: [output, privacy, allFaces, caption, captionLabel, watermark, size, json, overwrite, noAudio, facesOut, detector, detectorWidth,
                  LibraryOption.option, VerboseOption.option],
        positionals: [input],
        examples: [
            "reel export last -o ~/Videos/today.mp4 --caption",
            "reel export 4c1f -o share.mp4 --privacy stamp:smiley.png --watermark logo.png --size 720p",
            "reel export lecture.mkv -o lecture-private.mp4",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let outputPath = absolute(try arguments.require(output))
        let privacyMode = try privacy(arguments)
        let width = try arguments.require(detectorWidth, as: Int.self)
        guard width >= 32, width <= 4096, width % 32 == 0 else { throw arguments.invalid(detectorWidth, expected: "a multiple of 32 from 32 to 4096") }
        let reporter = ExportTerminalReporter(json: arguments.flag(json))
        guard var settings = inputSettings(arguments, outputPath: outputPath, reporter: reporter) else { return 1 }
        settings.privacy = privacyMode
        settings.allFaces = arguments.flag(allFaces)
        settings.watermarkPath = arguments.string(watermark).map(absolute)
        settings.size = ExportSettings.Size(rawValue: arguments.string(size) ?? "1080p") ?? .p1080
        settings.overwrite = arguments.flag(overwrite)
        settings.copyAudio = !arguments.flag(noAudio)
        settings.detectorWidth = width
        settings.detector = ExportSettings.Detector(rawValue: arguments.string(detector) ?? "centerface") ?? .centerface
        settings.trackOutputPath = arguments.string(facesOut).map(absolute)
        return export(settings, arguments: arguments, reporter: reporter)
    }

    /// `--privacy`; finding faces that nothing will hide (`--privacy none` with a detector
    /// option) is a mistake in the command, not a wish.
    private static func privacy(_ arguments: ParsedArguments) throws -> ExportSettings.Privacy {
        let mode: ExportSettings.Privacy
        switch arguments.string(privacy) ?? "mosaic" {
        case "mosaic": mode = .mosaic
        case "mask": mode = .mask
        case "none": mode = .none
        case let text where text.hasPrefix("stamp:") && text.count > 6: mode = .stamp(path: absolute(String(text.dropFirst(6))))
        default: throw arguments.invalid(privacy, expected: "mosaic, mask, none or stamp:IMAGE.png")
        }
        if mode == .none {
            for option in [allFaces, detector, detectorWidth] where arguments.count(option) > 0 {
                throw ArgumentParser.Error.conflictingOptions(command: arguments.path, first: "--privacy none", second: option.longForm)
            }
        }
        return mode
    }

    /// The settings for the input: a video file that exists, else a session of the library
    /// (its face track, edits and caption clock); nil after telling the user why neither.
    private static func inputSettings(_ arguments: ParsedArguments, outputPath: String, reporter: ExportTerminalReporter) -> ExportSettings? {
        let reference = arguments.positional(input) ?? ""
        let environment = ProcessInfo.processInfo.environment
        let label = arguments.string(captionLabel) ?? ExportCaption.defaultLabel(language: environment["LC_ALL"] ?? environment["LANG"])
        let path = absolute(reference)
        guard !FileManager.default.fileExists(atPath: path) else {
            var settings = ExportSettings(input: .file(path), outputPath: outputPath)
            let date = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date) ?? Date()
            if arguments.flag(caption) { settings.caption = ExportCaption(label: label, date: ExportCaption.dateText(date), clock: .videoTime) }
            return settings
        }
        do {
            let session: StudySession
            do {
                session = try StudySession.find(reference, in: try LibraryOption.openExisting(arguments).sessions())
            } catch StudySession.LookupError.noMatch(let name) {
                reporter.fail("no such file, and no session id starts with '\(name)' (reel sessions --json lists the ids)")
                return nil
            } catch StudySession.LookupError.tooShort(let name), StudySession.LookupError.notAnID(let name) {
                reporter.fail("no such file \(path), and '\(name)' is not a session ('last' or at least 4 hexadecimal digits of its id)")
                return nil
            }
            return try ExportSettings.session(session, outputPath: outputPath, captionLabel: arguments.flag(caption) ? label : nil)
        } catch {
            reporter.fail("\(error)")
            return nil
        }
    }

    /// Runs the export with Ctrl-C and SIGTERM trapped; notes a session's export in the
    /// library; the exit status.
    private static func export(_ settings: ExportSettings, arguments: ParsedArguments, reporter: ExportTerminalReporter) -> Int32 {
        VerboseOption.apply(arguments, command: "reel export")
        let stop = ExportStopRequest()
        let signals = trapStops(stop)
        defer { signals.cancel() }
        do {
            let report = try PrivacyExporter(settings: settings, reporter: reporter, stop: stop).run()
            if case .session(let session) = settings.input { recordExport(of: session, settings: settings, arguments: arguments, reporter: reporter) }
            reporter.done(report)
            return report.partial ? partialExitCode : 0
        } catch let stopped as ExportStopRequest.Stopped {
            return reporter.stopped(stopped)
        } catch {
            reporter.fail("\(error)")
            return 1
        }
    }

    /// The exit status of an export (or vlog) written from a source read only in part.
    static let partialExitCode: Int32 = 3

    /// Ctrl-C and SIGTERM ask `stop` to stop (the exporter removes its hidden files and
    /// throws); a second one ends the process at once, after removing them here.
    static func trapStops(_ stop: ExportStopRequest) -> SignalTrap {
        SignalTrap(signals: [SIGINT, SIGTERM], beforeEscalating: { ExportStopRequest.removeHiddenFilesNow() }) { signal in
            stop.request(reason: signal == SIGINT ? stopReasons.interrupt : stopReasons.terminate)
        }
    }

    /// How a stop is named in its message.
    static let stopReasons = (interrupt: "Ctrl-C", terminate: "SIGTERM")

    /// A stop's exit status: 128 + the signal, as a shell reports a command the signal ended.
    static func exitCode(_ stopped: ExportStopRequest.Stopped) -> Int32 {
        stopped.reason == stopReasons.interrupt ? 128 + SIGINT : 128 + SIGTERM
    }

    static func absolute(_ path: String) -> String { UserFolders.absolute(path) }

    /// Notes the export in the library (`reel sessions show` lists it); a failure is a warning,
    /// the export is done.
    static func recordExport(of session: StudySession, settings: ExportSettings, arguments: ParsedArguments, reporter: ExportTerminalReporter) {
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: settings.outputPath)[.size]) as? NSNumber)?.int64Value ?? 0
        do {
            try LibraryOption.openExisting(arguments).recordExport(
                .init(path: settings.outputPath, exportedAt: Date(), privacy: settings.privacyName, bytes: bytes), of: session.id)
        } catch {
            reporter.warning("the export is done, but the library could not note it: \(error)")
        }
    }
}

/// Prints an export: a progress bar on a terminal (percent, fps, time left), a line every 5 s
/// otherwise, or JSON lines (`--json`).
final class ExportTerminalReporter: ExportReporter, Sendable {
    let json: Bool
    private let printer = StatusLinePrinter(period: 5)
    private let started = Date()
    private let command: String

    init(json: Bool, command: String = "export") {
        self.json = json
        self.command = command
    }

    /// Ends the progress line (before a summary).
    func endStatus() { printer.endStatus() }

    func emitJSON(_ object: [String: Any]) {
        guard let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]) else { return }
        FileHandle.standardOutput.write(data + Data("\n".utf8))
    }

    func info(_ line: String) {
        if json { emitJSON(["event": "info", "message": line]) } else { printer.emit(line, toError: false) }
    }

    func warning(_ line: String) {
        if json { emitJSON(["event": "warning", "message": line]) } else { printer.emit("warning: \(line)", toError: true) }
    }

    func progress(_ p: ExportProgress) {
        if json {
            var object: [String: Any] = ["event": "progress", "frames": p.frames, "seconds": (p.seconds * 1000).rounded() / 1000,
                                         "fps": (p.framesPerSecond * 10).rounded() / 10]
            if let total = p.totalFrames { object["totalFrames"] = total }
            if let fraction = p.fraction { object["percent"] = (fraction * 1000).rounded() / 10 }
            if let left = p.secondsLeft { object["etaSeconds"] = left.rounded() }
            emitJSON(object)
            return
        }
        let width = 30
        let fraction = p.fraction ?? 0
        let filled = Int((fraction * Double(width)).rounded(.down))
        let bar = String(repeating: "█", count: filled) + String(repeating: "·", count: width - filled)
        var line = "[\(bar)] \(p.fraction.map { "\(Int(($0 * 100).rounded(.down))) %" } ?? "\(p.frames) frames") · \(String(format: "%.1f", p.framesPerSecond)) fps"
        if let left = p.secondsLeft { line += " · \(StatusLinePrinter.clock(left)) left" }
        printer.status(line, elapsed: Date().timeIntervalSince(started))
    }

    func done(_ r: ExportReport) {
        if json {
            emitJSON(["event": "done", "output": r.outputPath, "frames": r.frames, "width": r.width, "height": r.height,
                      "videoSeconds": r.videoSeconds, "wallSeconds": r.wallSeconds, "audioCopied": r.audioCopied,
                      "detections": r.detections, "subjects": r.subjects, "coveredAreas": r.coveredAreas,
                      "detector": r.detector ?? NSNull(), "bytes": r.fileBytes, "warnings": r.warnings, "partial": r.partial])
            return
        }
        printer.endStatus()
        var lines = ["exported: \(r.outputPath)",
                     "  \(r.width)x\(r.height), \(r.frames) frames, \(String(format: "%.3f", r.videoSeconds)) s of video in \(String(format: "%.1f", r.wallSeconds)) s "
                        + "(\(String(format: "%.1f", Double(r.frames) / max(r.wallSeconds, 0.001))) fps), \(RecordTerminalReporter.bytes(r.fileBytes))"
                        + (r.audioCopied ? ", audio copied" : "")]
        if let detector = r.detector { lines.append("  faces: \(r.subjects) found by \(detector) in \(r.detections) detections; \(r.coveredAreas) areas covered") }
        for warning in r.warnings { lines.append("  warning: \(warning)") }
        printer.emit(lines.joined(separator: "\n"), toError: false)
    }

    /// Says that the command was stopped and nothing was written; returns the exit status.
    func stopped(_ stopped: ExportStopRequest.Stopped) -> Int32 {
        let message = "\(stopped)"
        if json { emitJSON(["event": "stopped", "message": message]) }
        printer.endStatus()
        ErrorPrinter.note("reel \(command)", message)
        return ExportCommand.exitCode(stopped)
    }

    func fail(_ message: String) {
        if json { emitJSON(["event": "error", "message": message]) }
        printer.endStatus()
        ErrorPrinter.failure("reel \(command)", message)
    }
}
