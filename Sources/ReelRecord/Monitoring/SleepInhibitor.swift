import Foundation

/// Keeps the machine awake while recording (docs/behaviour.md §1, Robustness on a desk: "allow
/// no sleep while recording"; on a Linux desktop, a logind inhibitor lock).
///
/// Runs `systemd-inhibit --what=sleep:idle --mode=block … cat` with a pipe from Reel as `cat`'s
/// input: logind holds the lock as long as `systemd-inhibit` runs, and that is exactly as long
/// as Reel lives, however it ends: when Reel exits (even killed), the kernel closes the pipe,
/// `cat` reads the end of its input and exits, and the lock goes with it. No process is left
/// behind to keep a machine awake for nothing.
///
/// Where there is no logind (a container, a machine without systemd), `systemd-inhibit` exits
/// at once; ``failure`` then says why, and the recording goes on regardless.
/// `@unchecked Sendable`: set up in `init`; afterwards `startError` changes only behind `lock` (``failure``), and `Process` is thread-safe.
final class SleepInhibitor: @unchecked Sendable {
    private let process = Process()
    private let input = Pipe()
    private let errors = Pipe()
    private let lock = NSLock()
    private var startError: String?
    /// Signalled by the process's termination handler.
    private let exited = DispatchSemaphore(value: 0)

    /// Starts holding the lock with `command` (``RecordSettings/keepAwakeCommand``; its first
    /// word is looked up in `PATH`; `cat` is appended).
    init(command: [String]) {
        guard let program = command.first else {
            startError = "no command"
            return
        }
        guard let path = SleepInhibitor.lookUp(program) else {
            startError = "\(program) was not found (install systemd, or keep the machine awake by hand)"
            return
        }
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = Array(command.dropFirst()) + ["cat"]
        process.standardInput = input
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        do {
            process.terminationHandler = { [exited] _ in exited.signal() }
            try process.run()
        } catch {
            startError = "\(program) could not start: \(error)"
        }
    }

    /// The inhibitor's process id while it runs.
    var processIdentifier: Int32? { startError == nil && process.isRunning ? process.processIdentifier : nil }

    /// Why the machine is not kept awake (nil: the lock is held, as far as anyone can tell:
    /// the inhibitor is still running). Safe to ask repeatedly.
    var failure: String? {
        lock.lock()
        defer { lock.unlock() }
        if let startError { return startError }
        guard !process.isRunning else { return nil }
        let said = String(decoding: errors.fileHandleForReading.availableDataOrEmpty, as: UTF8.self)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let program = process.executableURL?.lastPathComponent ?? "the inhibitor"
        startError = "\(program) ended (status \(process.terminationStatus))" + (said.isEmpty ? "" : ": \(said)")
            + (said.contains("bus") ? " (no systemd-logind here?)" : "")
        return startError
    }

    /// Lets go of the lock: closes the pipe (the inhibitor ends by itself) and waits up to a
    /// second for it, then terminates it.
    func release() {
        guard startError == nil else { return }
        try? input.fileHandleForWriting.close()
        if exited.wait(timeout: .now() + 1) == .timedOut { process.terminate() }
    }

    private static func lookUp(_ program: String) -> String? {
        if program.contains("/") { return FileManager.default.isExecutableFile(atPath: program) ? program : nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/local/bin:/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}

private extension FileHandle {
    /// What is in the pipe now (the writer has exited, so this does not block for long).
    var availableDataOrEmpty: Data { (try? readToEnd()) ?? Data() }
}
