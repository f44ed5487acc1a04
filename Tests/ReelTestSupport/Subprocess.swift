import Foundation

/// Test support shared by Reel's test targets: subprocesses and temporary folders.

/// Runs a command to completion and captures its output (for ffprobe/ffmpeg checks).
public struct Subprocess {
    public var status: Int32
    public var stdout: String
    public var stderr: String

    /// Runs `executable` (a path, or a name under /usr/bin) with `arguments`; `environment`
    /// adds to (or overrides) the test's own environment. `input`, when given, is the command's
    /// standard input (written whole, then closed).
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           input: String? = nil) throws -> Subprocess {
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
        return Subprocess(status: process.terminationStatus, stdout: String(decoding: outData, as: UTF8.self),
                          stderr: String(decoding: errData.get(), as: UTF8.self))
    }
}

public final class LockedData: @unchecked Sendable {
    private let lock = NSLock()
    private var data: Data?
    public func set(_ d: Data) { lock.withLock { data = d } }
    public func get() -> Data { lock.withLock { data ?? Data() } }
    public var isSet: Bool { lock.withLock { data != nil } }
}

/// A fresh temporary directory, removed by the caller with `cleanup()`.
public struct TemporaryDirectory {
    public let url: URL
    public init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("reel-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    public func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    public func cleanup() { try? FileManager.default.removeItem(at: url) }
}
