import Foundation

/// Test support shared by Reel's test targets: subprocesses.

/// Runs a command to completion and captures its output (for ffprobe/ffmpeg checks).
public struct Subprocess {
    public var status: Int32
    public var stdout: String
    public var stderr: String
    /// Whether the command was still running at its time limit and was killed (``stderr`` then
    /// ends with a note and its threads' stacks).
    public var timedOut = false

    /// Runs `executable` (a path, or a name under /usr/bin) with `arguments`; `environment`
    /// adds to (or overrides) the test's own environment. `input`, when given, is the command's
    /// standard input (written whole, then closed). A command still running after `timeLimit`
    /// is a hang, never a wait: its stacks are taken (gdb) and it is killed, so the test fails
    /// saying where it stood instead of holding the whole run.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           input: String? = nil, timeLimit: Duration = .seconds(600)) throws -> Subprocess {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable.hasPrefix("/") ? executable : "/usr/bin/\(executable)")
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let out = Pipe(), err = Pipe(), into = Pipe()
        process.standardOutput = out
        process.standardError = err
        if input != nil { process.standardInput = into }
        try process.run()
        let watchdog = HangWatch(process, timeLimit: timeLimit)
        if let input {
            into.fileHandleForWriting.write(Data(input.utf8))
            try into.fileHandleForWriting.close()
        }
        // Read both pipes concurrently so a chatty command cannot fill one and block.
        let errData = LockedData()
        let reader = Thread { errData.set(err.fileHandleForReading.readDataToEndOfFile()) }
        reader.start()
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        while !errData.isSet { usleep(1000) }
        let note = watchdog.finish()
        return Subprocess(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData.get(), as: UTF8.self) + (note ?? ""), timedOut: note != nil)
    }

    /// Every thread's stack of process `pid` (gdb, bounded), or why there is none.
    public static func stacks(of pid: Int32) -> String {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/gdb") else { return "(no gdb here: scripts/packages.txt lists it)" }
        // timeout(1) ends a stuck gdb first, so this run's own watch never fires.
        guard let run = try? Subprocess.run("/usr/bin/timeout", ["100", "/usr/bin/gdb", "-batch", "-nx", "-p", String(pid), "-ex",
                                                                 "set pagination off", "-ex", "thread apply all bt 30"],
                                            timeLimit: .seconds(120)) else {
            return "(gdb did not start)"
        }
        let lines = run.stdout.split(separator: "\n").filter { $0.hasPrefix("Thread ") || $0.hasPrefix("#") }
        return lines.isEmpty ? "(gdb could not read it: \(run.stderr.suffix(300)))" : lines.joined(separator: "\n")
    }
}

/// Kills a process still running at its time limit, after taking its stacks.
private final class HangWatch: @unchecked Sendable {
    private let lock = NSLock()
    private var ended = false
    private var note: String?

    init(_ process: Process, timeLimit: Duration) {
        let deadline = ContinuousClock.now + timeLimit
        let pid = process.processIdentifier
        Thread { [self] in
            while ContinuousClock.now < deadline {
                if lock.withLock({ ended }) { return }
                usleep(50_000)
            }
            let stacks = Subprocess.stacks(of: pid)
            // The note first: once killed, the caller's finish() may come at once.
            let killNow: Bool = lock.withLock {
                guard !ended else { return false }
                note = "\n[the test killed this command: still running after \(timeLimit); its threads were:\n\(stacks)\n]\n"
                return true
            }
            if killNow { kill(pid, SIGKILL) }
        }.start()
    }

    /// The command has exited: stops watching; the note when it had to be killed.
    func finish() -> String? {
        lock.withLock {
            ended = true
            return note
        }
    }
}

public final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    public func set(_ d: Data) { lock.withLock { data = d } }
    public func get() -> Data { lock.withLock { data ?? Data() } }
    public var isSet: Bool { lock.withLock { data != nil } }
}
