import Foundation
import ReelCinematic
import ReelCore
import ReelLive
import ReelMedia
import ReelRuntime

/// `reel cinematic`: a source seen through the cinematic camera, recorded with the blur baked in.
enum CinematicCommand {
    static let source = Option.value("source", short: "s", placeholder: "SRC", default: "test",
                                     help: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN.")
    static let output = Option.value("output", short: "o", placeholder: "FILE.mp4",
                                     help: "The MP4 to write (H.264, the blur baked in; must not exist).")
    static let liveOrigin = Option.value("live-origin", placeholder: "URL",
                                         help: "Stream live HLS to this origin instead (as reel live, landscape, medium quality, no archive).")
    static let token = Option.value("token", placeholder: "TOKEN", help: "Bearer token for the origin's PUTs (or REEL_TOKEN in the environment).")
    static let streamID = Option.value("stream-id", placeholder: "ID", help: "The live stream's id (default: date, time and a random suffix).")
    static let aperture = Option.value("aperture", short: "a", placeholder: "F", default: "4.5",
                                       help: "The simulated f-number, 2 to 16: smaller blurs the background more.")
    static let focus = Option.value("focus", placeholder: "HOW", default: "auto",
                                    help: "Where the focus starts: auto (the most prominent subject), point:X,Y (whatever is there), fixed:X,Y (the plane there).")
    static let duration = Option.value("duration", short: "d", as: Duration.self, help: "Stop after this long (e.g. 30, 90s, 5m); default: until the source ends or Ctrl-C.")
    static let editable = Option.flag("editable", help: "Keep the video unblurred and write the layers and focus decisions beside it (FILE.mp4.cinematic), so reel refocus can change focus and aperture later.")
    static let fast = Option.flag("fast", help: "Process a file source as fast as the camera can (nothing dropped) instead of in real time.")
    static let quiet = Option.flag("quiet", help: "No status line; only the start and the summary.")

    static let spec = CommandSpec(
        name: "cinematic",
        summary: "Record with a cinematic focus: subjects tracked, the background blurred by depth, rack focus.",
        discussion: """
            Faces, upper bodies and cats' faces are found and tracked with stable ids; the people's \
            matte comes from a segmentation network. Each subject is a layer at the distance its size \
            suggests (a layered 2.5-D estimate: the camera measures no depth), the background at 4 m, \
            and the picture is blurred by each layer's distance from the focus, as a 50 mm lens at the \
            chosen f-number would. Focus changes rack smoothly (0.8 s). While it runs, type commands on \
            standard input, one per line: \(inputUsage); still saves the next picture with the blur \
            as a JPEG in ~/Pictures/reel/cinematic. The status line shows the \
            subjects (* the focused one, ** strong), the focus, the aperture and a low-light warning. \
            The file is fragmented MP4: what was written stays playable after a crash. With --live-origin \
            the same pictures are streamed as `reel live` streams them. Needs the models \
            of `make setup` (scripts/fetch-model.sh, scripts/fetch-segmentation-model.sh).
            """,
        options: [source, output, editable, liveOrigin, token, streamID, aperture, focus, duration, fast, quiet, VerboseOption.option],
        examples: [
            "reel cinematic --source v4l2:/dev/video0 --output desk.mp4 --aperture 2.8",
            "reel cinematic --source v4l2:/dev/video0 --live-origin http://127.0.0.1:8080/ --token $TOKEN",
            "reel cinematic --source file:talk.mp4 --output talk-bokeh.mp4 --fast --focus fixed:0.5,0.4",
            "reel cinematic --source v4l2:/dev/video0 --output take.mp4 --editable   # then: reel refocus take.mp4 …",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        if let conflict = arguments.conflict(output, liveOrigin) ?? arguments.conflict(editable, liveOrigin) { throw conflict }
        let settings = try settings(arguments)
        VerboseOption.apply(arguments, command: "reel cinematic")
        if let text = arguments.string(liveOrigin) {
            guard let url = LiveSettings.originURL(text) else { throw arguments.invalid(liveOrigin, expected: "an http:// or https:// URL") }
            return try await stream(arguments, settings: settings, origin: url)
        }
        let printer = StatusLinePrinter(period: 1)
        let quietly = arguments.flag(quiet)
        let start = Locked<MediaTime?>(nil)
        let recording = CinematicRecording(settings: settings, onFrame: { frame in
            guard !quietly else { return }
            let elapsed = (frame.time - start.withLock { $0 = $0 ?? frame.time; return $0! }).seconds
            printer.status(StatusLinePrinter.clock(elapsed) + " " + frame.statusText, elapsed: elapsed)
        }, onInfo: { printer.emit($0, toError: true) })
        printer.emit("recording \(settings.source) through the cinematic camera at \(settings.aperture) into \(settings.output)", toError: true)
        let signals = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            recording.requestStop(reason: signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated (SIGTERM)")
        }
        defer { signals.cancel() }
        readControls(source: { recording.source }, finished: { recording.isFinished },
                     stop: { recording.requestStop(reason: $0) }, say: { printer.emit($0, toError: true) })
        let report = await Task.detached { recording.run() }.value
        printer.endStatus()
        return finish(report, settings: settings, printer: printer)
    }

    /// `--live-origin`: `reel live`'s session with the source seen through the camera; the
    /// subjects and focus said whenever they change.
    static func stream(_ arguments: ParsedArguments, settings: CinematicRecordingSettings, origin: URL) async throws -> Int32 {
        let reporter = TerminalReporter(quiet: arguments.flag(quiet))
        let camera: CinematicCamera
        do {
            camera = try CinematicCamera.make(models: settings.models, aperture: settings.aperture, focus: settings.focus,
                                              pace: settings.fast ? .everyPicture : .ownThread) { reporter.warning($0) }
        } catch {
            FileHandle.standardError.write(Data("reel cinematic: \(ErrorSentence.reason(error))\n".utf8))
            return 1
        }
        var live = LiveSettings(source: settings.source, origin: origin,
                                token: arguments.string(token) ?? ProcessInfo.processInfo.environment["REEL_TOKEN"],
                                streamID: arguments.string(streamID) ?? LiveSettings.newStreamID(), landscape: true,
                                duration: settings.duration, fast: settings.fast)
        live.archivePath = nil
        do {
            try live.validate()
        } catch let error as LiveSettings.Error {
            throw arguments.refused("\(error)")
        }
        let said = Locked<String?>(nil), source = Locked<CinematicSource?>(nil)
        let fast = settings.fast
        let session = LiveSession(settings: live, reporter: reporter) { opened in
            let seen = CinematicSource(opened, camera: camera, realTime: !fast) { frame in
                let text = frame.statusText
                if said.withLock({ old in defer { old = text }; return old != text }) { reporter.info("cinematic: " + text) }
            }
            source.withLock { $0 = seen }
            return seen
        }
        let signals = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            session.requestStop(reason: signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated (SIGTERM)")
        }
        defer { signals.cancel() }
        let ended = Locked(false)
        readControls(source: { source.withLock { $0 } }, finished: { ended.withLock { $0 } }, stop: { session.requestStop(reason: $0) },
                     say: { reporter.info($0) })
        let report = await session.run()
        ended.withLock { $0 = true }
        return report.succeeded ? 0 : 1
    }

    /// The settings the arguments ask for, or the usage error that says what is wrong.
    static func settings(_ arguments: ParsedArguments) throws -> CinematicRecordingSettings {
        let sourceSpec: SourceSpec
        do {
            sourceSpec = try SourceSpec(parsing: try arguments.require(source), audio: nil)
        } catch is SourceSpec.Error {
            throw arguments.invalid(source, expected: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN")
        }
        guard let value = Aperture.number(in: try arguments.require(aperture)), let chosen = try? Aperture(fNumber: value) else {
            throw arguments.invalid(aperture, expected: "an f-number from \(Aperture.minimum) to \(Aperture.maximum)")
        }
        guard let start = FocusStart(parsing: try arguments.require(focus)) else {
            throw arguments.invalid(focus, expected: FocusStart.forms)
        }
        var path = ""
        if arguments.string(liveOrigin) == nil {
            guard let chosen = arguments.string(output) else { throw arguments.refused("say where the pictures go: --output FILE.mp4 or --live-origin URL") }
            path = UserFolders.absolute(chosen)
            guard (path as NSString).pathExtension.lowercased() == "mp4" else {
                throw arguments.invalid(output, expected: "a name ending in .mp4 (the cinematic camera writes MP4)")
            }
            if FileManager.default.fileExists(atPath: path) { throw arguments.refused("\(path) already exists; choose another --output") }
        }
        var settings = CinematicRecordingSettings(source: sourceSpec, output: path, aperture: chosen, focus: start,
                                                  duration: try arguments.seconds(duration), fast: arguments.flag(fast))
        settings.editable = arguments.flag(editable)
        if settings.editable, FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: path)) {
            throw arguments.refused("\(CinematicSidecarWriter.path(forVideo: path)) already exists; choose another --output")
        }
        return settings
    }

    /// Every command standard input takes, in help order: the camera's controls, then `still`
    /// and `stop` (also `q` and `quit`). The help after a line that is no command is made from it.
    static let inputCommands = CinematicControl.forms + ["still", "stop"]

    /// ``inputCommands`` as help says them.
    static let inputUsage = CinematicControl.usage(listing: inputCommands)

    /// Commands on standard input, a line each, applied to the running camera (a command that
    /// comes before the camera runs waits for it); `still` saves the next picture with the blur
    /// (``CinematicStill``, in ``CinematicStill/defaultFolder(_:)``); `say` reports each one's outcome.
    static func readControls(source: @escaping @Sendable () -> CinematicSource?, finished: @escaping @Sendable () -> Bool,
                             stop: @escaping @Sendable (String) -> Void, say: @escaping @Sendable (String) -> Void) {
        let thread = Thread {
            while let line = readLine() {
                let trimmed = line.trimmingCharacters(in: .whitespaces)
                if trimmed.isEmpty { continue }
                let word = trimmed.lowercased()
                if ["stop", "q", "quit"].contains(word) {
                    stop("stopped from standard input")
                    continue
                }
                do {
                    let control = word == "still" ? nil : try CinematicControl(parsing: trimmed)
                    while source() == nil && !finished() { usleep(20_000) }
                    guard let running = source() else { return }
                    guard let control else {
                        say(still(from: running))
                        continue
                    }
                    say(running.camera.apply(control).map { "'\(trimmed)': \($0)" } ?? "ok: \(trimmed)")
                } catch let error as CinematicControl.ParseError {
                    say("'\(error.line)': \(error.reason); commands: \(inputUsage)")
                } catch {
                    say("\(error)")
                }
            }
        }
        thread.name = "reel.stdin"
        thread.start()
    }

    /// Saves the source's next picture with the blur as a still; what happened, in words.
    static func still(from source: CinematicSource) -> String {
        guard let frame = source.still(timeout: 5) else { return "'still': no picture came within 5 s; no still was taken" }
        let folder = CinematicStill.defaultFolder(UserFolders.current)
        do {
            let saved = try CinematicStill.save(frame, in: folder, camera: source.name, software: "reel \(ReelVersion.number)")
            return "still: \(folder)/\(saved.name) (\(frame.width)x\(frame.height), \(saved.bytes / 1024) KB)"
        } catch {
            return "'still': \(ErrorSentence.reason(error)); no still was taken"
        }
    }

    /// The summary; exit 0 when the recording ended as asked, 1 when it failed.
    static func finish(_ report: CinematicRecordingReport, settings: CinematicRecordingSettings, printer: StatusLinePrinter) -> Int32 {
        if let error = report.error {
            printer.emit("reel cinematic: \(error)", toError: true)
            if report.wroteFile {
                printer.emit("\(Counted.noun(report.pictures, "picture")) recorded before that are in \(settings.output)", toError: true)
            }
            return 1
        }
        var line = "wrote \(settings.output): \(Counted.noun(report.pictures, "picture")), \(String(format: "%.1f", report.seconds)) s (\(report.stopReason ?? "done"))"
        if !settings.fast {
            line += report.dropped == 0 ? "; none dropped" : "; \(report.dropped) of \(report.pictures + report.dropped) dropped: the camera's work was behind real time"
            if report.lowestVisionRate < VisionRate.steps[0] {
                line += String(format: "; the vision was slowed to %g looks a second to keep up", report.lowestVisionRate)
            }
        }
        printer.emit(line, toError: false)
        if settings.editable {
            printer.emit("unblurred, with its layers and focus decisions in \(CinematicSidecarWriter.path(forVideo: settings.output)): "
                         + "reel refocus \(settings.output) --at SECONDS (--subject ID | --point X,Y) -o OUT.mp4 "
                         + "(the subjects' ids are on the status line; the studio's refocus editor shows them)", toError: false)
        }
        return 0
    }
}
