import Foundation
import ReelCore
import ReelMedia
import ReelRecord

/// `reel record`: the study recorder — an active-time timelapse or a full recording.
enum RecordCommand {
    static let source = Option.value("source", short: "s", placeholder: "SRC", required: true,
                                     help: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN.")
    static let mode = Option.value("mode", short: "m", placeholder: "MODE", required: true, choices: RecordingMode.allCases.map(\.rawValue),
                                   help: "timelapse: one frame per interval of study, played at 10 fps; full: every frame, H.264 5 Mbps.")
    static let interval = Option.value("interval", short: "i", as: Duration.self, default: "5",
                                       help: "Timelapse: study time between frames (e.g. 5, 10s, 1m). Paused time never counts.")
    static let canvas = Option.value("canvas", placeholder: "WxH", default: "1920x1080", choices: RecordingCanvas.allCases.map(\.rawValue),
                                     help: "Picture size; the capture is scaled to fill it (centre crop).")
    static let portrait = Option.flag("portrait", help: "Portrait canvas (1080x1920 or 720x1280).")
    static let title = Option.value("title", short: "t", placeholder: "TEXT", help: "A title, kept in the MP4 and the library.")
    static let tag = Option.value("tag", placeholder: "NAME", repeatable: true, help: "A tag, kept in the MP4 and the library (repeat for several).")
    static let output = Option.value("output", short: "o", placeholder: "FILE.mp4",
                                     help: "Where the finished MP4 goes (default: reel-DATE-TIME-MODE.mp4 in reel/recordings of the XDG data folder, ~/.local/share; -2, -3 … when taken). Claimed at start: a name that exists is refused. Never replaces a file.")
    static let duration = Option.value("duration", short: "d", as: Duration.self,
                                       help: "Stop this long after the first frame, by the capture clock: paused time counts (it is not study time; for scripts and tests). Default: until stopped.")
    static let minHours = Option.value("min-hours", as: Double.self, default: "1",
                                       help: "Refuse to start when the disk would be full within this many hours of recording (0: start anyway).")
    static let quiet = Option.flag("quiet", help: "No status line; state changes and the summary only.")
    static let noFaces = Option.flag("no-faces", help: "Do not track faces (then 'reel export --all-faces' finds them at export).")
    static let noKeepAwake = Option.flag("no-keep-awake", help: "Let the machine sleep while recording (by default Reel holds a systemd-inhibit lock).")

    static let spec = CommandSpec(
        name: "record",
        summary: "Record study time: an active-time timelapse or a full recording, pause and resume, crash-safe.",
        discussion: """
            Only active time counts: the clock follows the frames' capture timestamps while \
            recording, so paused time, and time while the source delivers nothing, never enters \
            the video. timelapse keeps one frame per --interval of study and plays them at 10 fps \
            (H.264, constant quality); full keeps every frame at its active time (H.264, 5 Mbps).

            Controls: on a terminal, space pauses and resumes, q finishes. Otherwise standard \
            input takes the lines pause, resume, toggle and stop (a named pipe opened with <> \
            keeps taking them). SIGUSR1 toggles pause (for a \
            desktop shortcut: pkill -USR1 -x reel); Ctrl-C (SIGINT) or SIGTERM finishes cleanly.

            The output is claimed when the recording starts: a small placeholder file is created \
            there (never over an existing file), so a second recording with the same --output is \
            refused at once. While recording, the video is a fragmented MP4 (fragments of at most \
            2 s) and the face positions a log synced with each fragment, in reel/recordings/ID of \
            the XDG state folder (~/.local/state), with a checkpoint every 30 s and at every \
            pause. On finish it becomes a normal MP4 (moov first) at --output, \
            with NAME.jpg (its middle frame) and NAME.faces.json (face positions: the largest face, \
            every written frame of a timelapse, every 0.2 s of a full recording; positions only, \
            never pixels) beside it, and the session goes into the study library \
            (--library; list them with 'reel sessions'). After a crash, 'reel recover' finishes the \
            recording.

            Disk: before starting, Reel estimates the space an hour of recording needs (full: \
            2.25 GB of video an hour, twice that where the output and the work folder share a \
            disk, since the finished MP4 is a copy made at the end; timelapse: far less) and \
            refuses, with the numbers, when the disk would be full within --min-hours. While \
            recording it checks every 2 s and stops cleanly, finishing the MP4 (exit status 1, \
            "disk almost full"), when free space falls under 1 GiB or under what finishing needs \
            (the recording's size plus 256 MiB), whichever is larger.

            Heat and load: every 2 s Reel reads the thermal zones (/sys/class/thermal) and its own \
            CPU share. Near a zone's limit, with every core busy, or when the encoder falls behind \
            real time, it eases its work: face analysis less often, and at the hottest a full \
            recording keeps every second frame (timestamps stay active time). The status line and \
            the session say so; it goes back after 30 s of calm.

            The machine is kept awake while recording (a systemd-inhibit lock on sleep and idle, \
            released when Reel exits, however it exits; --no-keep-awake to skip).

            A source that stops delivering makes the recording \
            interrupted; a camera is reopened until it comes back. Audio is not recorded yet.
            """,
        options: [source, mode, interval, canvas, portrait, title, tag, output, LibraryOption.option, duration, minHours, quiet, noFaces, noKeepAwake, VerboseOption.option],
        examples: [
            "reel record --source v4l2:/dev/video0 --mode timelapse --interval 5 --title 'Chemistry' --tag exam",
            "reel record --source v4l2:/dev/video0 --mode full --canvas 1280x720 --output ~/study/today.mp4",
            "reel record --source test --mode timelapse --interval 1 --duration 30 --output /tmp/t.mp4",
            "mkfifo /tmp/reel-ctl; reel record --source test --mode full <> /tmp/reel-ctl &  echo pause > /tmp/reel-ctl",
        ])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let sourceSpec: SourceSpec
        do {
            sourceSpec = try SourceSpec(parsing: try arguments.require(source))
        } catch let error as SourceSpec.Error {
            throw arguments.invalid(source, expected: error.expected)
        }
        guard let recordingMode = RecordingMode(rawValue: try arguments.require(mode)) else {
            throw arguments.invalid(mode, expected: "timelapse or full")
        }
        if recordingMode == .full && arguments.count(interval) > 0 {
            throw arguments.refused("--interval applies to --mode timelapse only")
        }
        var settings = RecordSettings.study(
            source: sourceSpec, mode: recordingMode, interval: MediaTime(seconds: try arguments.require(interval, as: Duration.self).secondsValue),
            canvas: RecordingCanvas(rawValue: try arguments.require(canvas)) ?? .hd1080, portrait: arguments.flag(portrait),
            title: try checkedTitle(arguments), tags: try checkedTags(arguments), output: arguments.string(output).map(UserFolders.absolute),
            folders: UserFolders.current, libraryPath: LibraryOption.path(arguments))
        settings.duration = try arguments.seconds(duration)
        settings.facesRequested = !arguments.flag(noFaces)
        settings.minHours = try arguments.require(minHours, as: Double.self)
        if arguments.flag(noKeepAwake) { settings.keepAwakeCommand = nil }
        do {
            try settings.validate()
        } catch {
            throw arguments.refused("\(error)")
        }
        VerboseOption.apply(arguments, command: "reel record")
        let reporter = RecordTerminalReporter(quiet: arguments.flag(quiet))
        let tracking = VisionFaceTracker.forRecording(requested: !arguments.flag(noFaces))
        if let warning = tracking.warning { reporter.warning(warning) }
        let conflicts = RecordingRecovery(stateFolder: settings.stateFolder, libraryPath: settings.libraryPath ?? "").conflicts(with: settings)
        if let refusal = conflicts.refusal {
            ErrorPrinter.failure(arguments.commandPath, refusal)
            return 1
        }
        for warning in conflicts.warnings { reporter.warning(warning) }
        let recorder = try StudyRecorder(settings: settings, reporter: reporter, tracker: tracking.make)
        let stops = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in
            recorder.requestStop(reason: signal == SIGINT ? "interrupted (Ctrl-C)" : "terminated (SIGTERM)")
        }
        defer { stops.cancel() }
        let toggles = SignalTrap(signals: [SIGUSR1], escalates: false) { _ in recorder.control(.toggle) }
        defer { toggles.cancel() }
        let controls = RecordControls(recorder: recorder, reporter: reporter)
        controls.start()
        defer { controls.restoreTerminal() }
        let report = await recorder.run()
        if report.succeeded, let library = settings.libraryPath { await BackupCommand.afterRecording(libraryPath: library) }
        return report.succeeded ? 0 : 1
    }

    /// `--title`, trimmed, under the library's rule for names (a usage error otherwise).
    static func checkedTitle(_ arguments: ParsedArguments) throws(ArgumentParser.Error) -> String? {
        guard let text = arguments.string(title) else { return nil }
        do { return try LibraryName.validate(text, as: .title) } catch { throw arguments.invalid(title, expected: "a one-line title (\(error))") }
    }

    /// Each `--tag`, trimmed, under the same rule as `reel tags add` (a usage error otherwise).
    static func checkedTags(_ arguments: ParsedArguments) throws(ArgumentParser.Error) -> [String] {
        var names: [String] = []
        for text in arguments.strings(tag) {
            do {
                let name = try Tag(text).name
                if !names.contains(name) { names.append(name) }
            } catch {
                throw .invalidValue(command: arguments.path, option: tag.longForm, value: text, expected: "a tag name (\(error))", suggestion: nil)
            }
        }
        return names
    }
}
