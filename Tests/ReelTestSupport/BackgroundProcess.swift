import Foundation

/// A process started in the background (the `reel` binary under test, a player), with its
/// output collected, that a test can signal and wait for with a deadline.
public final class BackgroundProcess: @unchecked Sendable {
    private let process = Process()
    private let out = LockedData(), err = LockedData()
    private let outPipe = Pipe(), errPipe = Pipe()

    private let inPipe: Pipe?

    /// Starts `executable` with `arguments`; with `standardInput`, its standard input is a
    /// pipe the test writes to (``send(line:)``), otherwise /dev/null.
    public init(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                standardInput: Bool = false) throws {
        inPipe = standardInput ? Pipe() : nil
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        process.standardOutput = outPipe
        process.standardError = errPipe
        process.standardInput = inPipe ?? FileHandle.nullDevice
        try process.run()
        for (pipe, sink) in [(outPipe, out), (errPipe, err)] {
            let reader = Thread { sink.set(pipe.fileHandleForReading.readDataToEndOfFile()) }
            reader.start()
        }
    }

    /// The process id.
    public var pid: Int32 { process.processIdentifier }
    /// Whether it is still running.
    public var isRunning: Bool { process.isRunning }

    /// Writes `line` and a newline to its standard input (started with `standardInput: true`).
    public func send(line: String) {
        inPipe?.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Sends `signal` (e.g. SIGINT).
    public func send(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Waits until it exits or `timeout` passes (then kills it and says so).
    public func wait(timeout: Duration) async -> (status: Int32, stdout: String, stderr: String, timedOut: Bool) {
        let timedOut = await Self.waitForExit(process, timeout: timeout)
        // The pipes end with the process, unless something it started holds them: then what came.
        let readers = ContinuousClock.now + .seconds(10)
        while !(out.isSet && err.isSet) && ContinuousClock.now < readers { try? await Task.sleep(for: .milliseconds(5)) }
        return (process.terminationStatus, String(decoding: out.get(), as: UTF8.self),
                String(decoding: err.get(), as: UTF8.self), timedOut)
    }

    deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }

    /// Waits (polling, bounded) until `process` exits, killing it when `timeout` passes;
    /// returns whether it had to. Shared with ``LineWatchedProcess``.
    static func waitForExit(_ process: Process, timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        var timedOut = false
        while process.isRunning {
            if ContinuousClock.now > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            try? await Task.sleep(for: .milliseconds(20))
        }
        process.waitUntilExit()
        return timedOut
    }
}
