import Foundation

/// A process whose standard output (or, when asked, standard error) a test reads line by line
/// while it runs (the `reel` binary's `--json` progress, a note on stderr), to act at a moment
/// the process itself announces — e.g. send SIGINT once N pictures are done — instead of after
/// a sleep.
public final class LineWatchedProcess: @unchecked Sendable {
    private let process = Process()
    private let watchesStandardError: Bool
    private let lock = NSLock()
    private var lines: [String] = []
    private var partial = Data()
    private var outputEnded = false
    private let err = LockedData()

    /// Starts `executable` with `arguments` (`environment` adds to the test's own); the lines
    /// watched are its standard error's when `watchingStandardError`, else its standard output's.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                watchingStandardError: Bool = false) throws {
        watchesStandardError = watchingStandardError
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let outPipe = Pipe(), errPipe = Pipe()
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let (watched, other) = watchingStandardError ? (errPipe, outPipe) : (outPipe, errPipe)
        let outReader = Thread { [self] in
            let handle = watched.fileHandleForReading
            while true {
                let chunk = handle.availableData
                lock.withLock {
                    if chunk.isEmpty { outputEnded = true; return }
                    partial.append(chunk)
                    while let newline = partial.firstIndex(of: 0x0A) {
                        lines.append(String(decoding: partial[partial.startIndex..<newline], as: UTF8.self))
                        partial = Data(partial[(newline + 1)...])
                    }
                }
                if chunk.isEmpty { return }
            }
        }
        outReader.start()
        let errReader = Thread { [err] in err.set(other.fileHandleForReading.readDataToEndOfFile()) }
        errReader.start()
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }

    /// Sends `signal`.
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// The complete lines of the watched output so far.
    public var linesSoFar: [String] { lock.withLock { lines } }

    /// Whether the watched output has ended (the process closed it or exited).
    public var outputHasEnded: Bool { lock.withLock { outputEnded } }

    /// Waits until a line of the watched output satisfies `predicate` and returns it; nil when the
    /// output ends first or `timeout` passes (a guard against a hung process, not a schedule).
    public func waitForLine(timeout: Duration, where predicate: (String) -> Bool) async -> String? {
        let deadline = ContinuousClock.now + timeout
        var checked = 0
        while ContinuousClock.now < deadline {
            let (new, ended) = lock.withLock { (Array(lines[checked...]), outputEnded) }
            checked += new.count
            if let line = new.first(where: predicate) { return line }
            if ended { return nil }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return nil
    }

    /// Waits until it exits or `timeout` passes (then kills it and says so): its status and
    /// all its output.
    public func wait(timeout: Duration) async -> (status: Int32, stdout: String, stderr: String, timedOut: Bool, signalled: Bool) {
        let timedOut = await BackgroundProcess.waitForExit(process, timeout: timeout)
        // As BackgroundProcess: at most 10 s more for pipes something it started may hold.
        let readers = ContinuousClock.now + .seconds(10)
        while !(lock.withLock { outputEnded } && err.isSet) && ContinuousClock.now < readers { try? await Task.sleep(for: .milliseconds(5)) }
        let watched = lock.withLock { (lines + [String(decoding: partial, as: UTF8.self)]).joined(separator: "\n") }
        let other = String(decoding: err.get(), as: UTF8.self)
        let (stdout, stderr) = watchesStandardError ? (other, watched) : (watched, other)
        return (process.terminationStatus, stdout, stderr, timedOut,
                process.terminationReason == .uncaughtSignal)
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
}
