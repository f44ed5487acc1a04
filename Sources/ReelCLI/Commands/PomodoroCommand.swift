import Foundation
import ReelCore
import ReelStore

/// `reel pomodoro start [--minutes 25] | stop | status [--json|--waybar] | wait`: a study timer
/// whose end lives in `$XDG_STATE_HOME/reel/pomodoro.json`, shared with status-bar widgets.
enum PomodoroCommand {
    static let minutes = Option.value("minutes", as: Double.self, default: String(format: "%g", PomodoroTimer.defaultMinutes),
                                      help: "The length in minutes.")
    static let json = Option.flag("json", help: "One JSON object (state, startedAt, endsAt, remainingSeconds).")
    static let waybar = Option.flag("waybar", help: "One line of JSON for a Waybar custom module (text, tooltip, class, percentage).")
    static let follow = Option.flag("follow", help: "Keep running and print a new line whenever it changes (every second while a pomodoro runs) — one process for a status bar instead of one per poll.")

    static let spec = CommandSpec(
        name: "pomodoro",
        summary: "A study timer shared with status-bar widgets.",
        discussion: """
            'start' writes the end time to reel/pomodoro.json in the XDG state folder \
            (~/.local/state), atomically; every 'status' reads it, so a widget and the terminal \
            agree. There is no daemon: when the end has come, the first 'status' or 'wait' to \
            notice it sends one desktop notification with notify-send (when it is installed). \
            'wait' says on stderr when the end is, then sleeps until it (a stop or a new start is \
            noticed within a second); its result is the one line on stdout. A \
            finished timer stays 'finished' until 'stop' or the next 'start'.

            Waybar: "custom/pomodoro": {"exec": "reel pomodoro status --waybar --follow", \
            "return-type": "json", "on-click": "reel pomodoro start"} — with --follow one process \
            prints a line on every change and the countdown ticks each second; without it, add \
            "interval": 5 (each call starts reel afresh, about 0.06 CPU-seconds).
            """,
        subcommands: [
            CommandSpec(name: "start", summary: "Start a pomodoro (refused while one is running).", options: [minutes],
                        examples: ["reel pomodoro start --minutes 50"]),
            CommandSpec(name: "stop", summary: "Stop the pomodoro (running or finished)."),
            CommandSpec(name: "status", summary: "Show the pomodoro: running (time left), finished or none.", options: [json, waybar, follow],
                        examples: ["reel pomodoro status --waybar --follow"]),
            CommandSpec(name: "wait", summary: "Sleep until the pomodoro ends (saying when on stderr); exit 1 when it is stopped first."),
        ],
        examples: ["reel pomodoro start", "reel pomodoro start --minutes 50 && reel pomodoro wait", "reel pomodoro status --waybar --follow", "reel pomodoro stop"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let verb = arguments.command.name
        if verb == "status", let conflict = arguments.conflict(json, waybar) { throw conflict }
        let file = PomodoroStateFile(path: PomodoroStateFile.defaultPath(UserFolders.current))
        switch verb {
        case "start":
            let length = try arguments.require(minutes, as: Double.self)
            let timer: PomodoroTimer
            do { timer = try PomodoroTimer(minutes: length, now: Date()) } catch { throw arguments.invalid(minutes, expected: "more than 0 and at most 1440 minutes") }
            let running: Double? = try file.update { current in
                if let current, case .running(let remaining, _) = current.status(at: Date()) { return (current, remaining) }
                return (timer, nil)
            }
            if let running {
                ErrorPrinter.failure(arguments.commandPath, "a pomodoro is running (\(PomodoroTimer.clock(running)) left); stop it first: reel pomodoro stop")
                return 1
            }
            print("pomodoro started: \(PomodoroTimer.clock(timer.endsAt.timeIntervalSince(timer.startedAt))), ends at \(localTime(timer.endsAt))")
        case "stop":
            let stopped = try file.update { current in (nil, current) }
            print(stopped == nil ? "no pomodoro was running" : "pomodoro stopped")
        case "wait":
            return try wait(file)
        default:
            let render: (PomodoroTimer?, Date) throws -> String =
                arguments.flag(json) ? { try LibraryCommandText.json(statusObject($0, now: $1)) }
                : arguments.flag(waybar) ? { try waybarLine($0, now: $1) }
                : { statusText($0, now: $1) }
            if arguments.flag(follow) { return try follow(file, render: render) }
            let now = Date()
            print(try render(try watch(file).noticeEnd(now: now), now))
        }
        return 0
    }

    /// The watch over the shared file; a finished timer is announced with notify-send.
    static func watch(_ file: PomodoroStateFile) -> PomodoroWatch {
        PomodoroWatch(file: file, announce: sendNotification)
    }

    /// `status --follow`: a line at once and one whenever it changes (``PomodoroWatch/follow``),
    /// written straight to the descriptor (a pipe to a status bar must not sit in a buffer).
    /// Ends when the reader goes away.
    static func follow(_ file: PomodoroStateFile, render: (PomodoroTimer?, Date) throws -> String) throws -> Int32 {
        signal(SIGPIPE, SIG_IGN)   // a closed pipe ends the loop with EPIPE instead of killing
        try watch(file).follow(render: render, emit: writeLine)
        return 0
    }

    /// Writes `line` and a newline to standard output with write(2); false when the reader is gone.
    private static func writeLine(_ line: String) -> Bool {
        var bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(STDOUT_FILENO, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 { if errno == EINTR { continue }; return false }
            offset += n
        }
        return true
    }

    /// Sleeps until the end (``PomodoroWatch/wait(waiting:)``), saying on stderr what it waits
    /// for when it begins; exit 0 at the end, 1 when stopped or none runs.
    static func wait(_ file: PomodoroStateFile) throws -> Int32 {
        let outcome = try watch(file).wait { timer, remaining in
            ErrorPrinter.note("reel pomodoro wait", "waiting for the end at \(localTime(timer.endsAt)) (\(PomodoroTimer.clock(remaining)) left)")
        }
        switch outcome {
        case .notRunning:
            ErrorPrinter.failure("reel pomodoro", "no pomodoro running (reel pomodoro start)")
            return 1
        case .stopped:
            print("pomodoro stopped")
            return 1
        case .finished(let timer):
            print("pomodoro finished at \(localTime(timer.endsAt))")
            return 0
        }
    }

    static func statusText(_ timer: PomodoroTimer?, now: Date) -> String {
        guard let timer else { return "no pomodoro running" }
        switch timer.status(at: now) {
        case .running(let remaining, _): return "running: \(PomodoroTimer.clock(remaining)) left (ends at \(localTime(timer.endsAt)))"
        case .finished: return "finished at \(localTime(timer.endsAt))"
        }
    }

    static func statusObject(_ timer: PomodoroTimer?, now: Date) -> [String: Any] {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)
        guard let timer else { return ["state": "idle", "startedAt": NSNull(), "endsAt": NSNull(), "remainingSeconds": 0] }
        let remaining: Double
        let state: String
        switch timer.status(at: now) {
        case .running(let left, _): (state, remaining) = ("running", (left * 10).rounded(.up) / 10)
        case .finished: (state, remaining) = ("finished", 0)
        }
        return ["state": state, "startedAt": timer.startedAt.formatted(style), "endsAt": timer.endsAt.formatted(style), "remainingSeconds": remaining]
    }

    /// Waybar's custom-module JSON: one line.
    static func waybarLine(_ timer: PomodoroTimer?, now: Date) throws -> String {
        var object: [String: Any]
        switch timer?.status(at: now) {
        case nil:
            object = ["text": "", "tooltip": "No pomodoro (reel pomodoro start)", "class": "idle", "percentage": 0]
        case .running(let remaining, let done)?:
            object = ["text": "🍅 \(PomodoroTimer.clock(remaining))", "tooltip": "Pomodoro ends at \(localTime(timer!.endsAt))",
                      "class": "running", "percentage": Int((done * 100).rounded(.down))]
        case .finished?:
            object = ["text": "🍅 done", "tooltip": "Pomodoro finished at \(localTime(timer!.endsAt))", "class": "finished", "percentage": 100]
        }
        return String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]), as: UTF8.self)
    }

    /// `notify-send` when it is on PATH; a failure is a warning, never an error.
    @Sendable static func sendNotification(_ timer: PomodoroTimer) {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":")
            .map { "\($0)/notify-send" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let path else { return }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        let length = timer.endsAt.timeIntervalSince(timer.startedAt)
        let studied = length >= 60 && length.truncatingRemainder(dividingBy: 60) == 0 ? "\(Int(length / 60)) minutes" : PomodoroTimer.clock(length)
        process.arguments = ["--app-name=Reel", "Pomodoro finished", "\(studied) of study — time for a break."]
        do {
            try process.run()
            process.waitUntilExit()
        } catch {
            ErrorPrinter.warning("reel pomodoro", "notify-send failed: \(ErrorSentence.describe(error))")
        }
    }

    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "HH:mm"
        return formatter.string(from: date)
    }
}
