import Foundation
import ReelTestSupport
import Testing

/// `reel pomodoro` through the binary: a temporary `XDG_STATE_HOME` and a stand-in
/// `notify-send` first on PATH that records its arguments.
@Suite("reel pomodoro")
struct PomodoroCommandTests {
    struct Setup {
        let dir: TemporaryDirectory
        var stateFile: String { dir.path("state/reel/pomodoro.json") }
        var notifications: String { dir.path("notified.txt") }
        var environment: [String: String] {
            ["XDG_STATE_HOME": dir.path("state"), "PATH": dir.path("bin") + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")]
        }
        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: dir.path("bin"), withIntermediateDirectories: true)
            try "#!/bin/sh\nprintf '%s|' \"$@\" >> '\(dir.path("notified.txt"))'\necho >> '\(dir.path("notified.txt"))'\n"
                .write(toFile: dir.path("bin/notify-send"), atomically: true, encoding: .utf8)
            chmod(dir.path("bin/notify-send"), 0o755)
        }
        func reel(_ arguments: [String]) throws -> Subprocess { try ReelBinary.run(["pomodoro"] + arguments, environment: environment) }
        /// When the running timer ends (its state file's `endsAt`).
        func endsAt() throws -> Date {
            let state = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stateFile))) as? [String: Any]
            let text = try #require(state?["endsAt"] as? String, "no endsAt in \(stateFile)")
            return try Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
        }
        func notified() -> [String] {
            ((try? String(contentsOfFile: notifications, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    @Test("start → status (text, JSON, Waybar) → the end noticed by status and wait, one notification → stop")
    func lifecycle() throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        #expect(try setup.reel(["status"]).stdout == "no pomodoro running\n")
        #expect(try setup.reel(["status", "--waybar"]).stdout.contains(#""class":"idle""#))
        let started = try setup.reel(["start", "--minutes", "0.1"])                     // 6 s: room for the calls below on a busy machine
        #expect(started.status == 0 && started.stdout.hasPrefix("pomodoro started: 0:06, ends at "), "\(started.stderr)")
        let state = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: setup.stateFile))) as? [String: Any])
        #expect(state["endsAt"] is String && state["startedAt"] is String && state["notifiedAt"] == nil)
        let again = try setup.reel(["start"])
        #expect(again.status == 1 && again.stderr.contains("a pomodoro is running") && again.stderr.contains("reel pomodoro stop"))
        #expect(try setup.reel(["status"]).stdout.hasPrefix("running: 0:0"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(setup.reel(["status", "--json"]).stdout.utf8)) as? [String: Any])
        #expect(json["state"] as? String == "running" && (json["remainingSeconds"] as? Double ?? 0) > 0)
        let bar = try setup.reel(["status", "--waybar"]).stdout
        #expect(bar.split(separator: "\n").count == 1 && bar.contains(#""class":"running""#) && bar.contains("🍅 0:0"))
        #expect(setup.notified().isEmpty, "no notification before the end")
        let waited = try setup.reel(["wait"])
        #expect(waited.status == 0 && waited.stdout.hasPrefix("pomodoro finished at "))
        #expect(try setup.reel(["status"]).stdout.hasPrefix("finished at "))
        #expect(try setup.reel(["status", "--waybar"]).stdout.contains(#""class":"finished""#))
        #expect(setup.notified() == ["--app-name=Reel|Pomodoro finished|0:06 of study — time for a break.|"], "exactly one notification")
        #expect(try setup.reel(["stop"]).stdout == "pomodoro stopped\n")
        #expect(!FileManager.default.fileExists(atPath: setup.stateFile))
        #expect(try FileManager.default.contentsOfDirectory(atPath: setup.dir.path("state/reel")).allSatisfy { !$0.contains(".tmp") })
    }

    @Test("a status call after the end notifies when nobody waited; wait notices a stop; mistakes exit 64")
    func statusNotifiesAndStops() async throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        #expect(try setup.reel(["start", "--minutes", "0.01"]).status == 0)       // 0.6 s
        try await Task.sleep(for: .seconds(max(0, try setup.endsAt().timeIntervalSinceNow)))  // the timer's own end, no later
        #expect(try setup.reel(["status", "--waybar"]).stdout.contains("done"))
        #expect(try setup.reel(["status"]).status == 0)
        #expect(setup.notified().count == 1)
        #expect(try setup.reel(["start", "--minutes", "1"]).status == 0, "a finished timer is replaced")
        // The stop comes once wait says on stderr what it waits for (the minute is far from over).
        let waiting = try LineWatchedProcess(try ReelBinary.path(), ["pomodoro", "wait"], environment: setup.environment,
                                             watchingStandardError: true)
        let note = await waiting.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("reel pomodoro wait: ") }
        #expect(note?.range(of: #"^reel pomodoro wait: waiting for the end at \d\d:\d\d \((1:00|0:\d\d) left\)$"#, options: .regularExpression) != nil,
                "wait says what it waits for: \(waiting.linesSoFar)")
        #expect(try setup.reel(["stop"]).stdout == "pomodoro stopped\n")
        let waited = await waiting.wait(timeout: .seconds(30))
        #expect(waited.status == 1 && waited.stdout == "pomodoro stopped\n", "\(waited)")
        #expect(setup.notified().count == 1, "a stopped timer is not announced")
        #expect(try setup.reel(["wait"]).status == 1)
        #expect(try setup.reel(["pause"]).status == 64)
        #expect(try setup.reel(["start", "--minutes", "0"]).status == 64)
        #expect(try setup.reel(["status", "--json", "--waybar"]).status == 64)
    }

    @Test("status --follow: one process prints a line on each change — idle, the countdown each second, done (one notification), idle after stop — and sleeps between")
    func follow() async throws {
        let setup = try Setup()
        defer { setup.dir.cleanup() }
        let process = try BackgroundProcess(try ReelBinary.path(), ["pomodoro", "status", "--waybar", "--follow"], environment: setup.environment)
        // The follower's real time is the scenario: idle, a 3 s countdown, stopped, and its CPU use meanwhile.
        try await Task.sleep(for: .seconds(1))
        #expect(try setup.reel(["start", "--minutes", "0.05"]).status == 0)                 // 3 s
        try await Task.sleep(for: .seconds(4.5))
        #expect(try setup.reel(["stop"]).status == 0)
        try await Task.sleep(for: .seconds(1.5))
        // CPU seconds the follower used in its ~7 s (utime + stime in clock ticks, /proc/PID/stat).
        let fields = try String(contentsOfFile: "/proc/\(process.pid)/stat", encoding: .utf8).split(separator: ")").last!.split(separator: " ")
        let cpu = Double(Int(fields[11])! + Int(fields[12])!) / Double(sysconf(Int32(_SC_CLK_TCK)))
        process.send(SIGTERM)
        let ended = await process.wait(timeout: .seconds(10))
        let lines = ended.stdout.split(separator: "\n").map(String.init)
        let classes = lines.compactMap { line in (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["class"] as? String }
        #expect(classes.count == lines.count, "every line is one JSON object: \(lines)")
        #expect(classes.first == "idle" && classes.last == "idle" && classes.contains("finished"), "\(lines)")
        #expect(zip(lines, lines.dropFirst()).allSatisfy { $0 != $1 }, "a line only when it changes: \(lines)")
        let clocks = lines.filter { $0.contains(#""class":"running""#) }.compactMap { line in line.range(of: #"0:0\d"#, options: .regularExpression).map { String(line[$0]) } }
        #expect(clocks.count >= 2 && clocks == clocks.sorted(by: >), "the countdown goes down a second at a time: \(clocks)")
        #expect(setup.notified().count == 1, "\(setup.notified())")
        #expect(cpu < 1.0, "the follower sleeps between lines: \(cpu) CPU-s in ~7 s")
    }
}
