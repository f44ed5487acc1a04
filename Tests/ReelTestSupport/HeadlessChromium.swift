import Foundation

/// Debian's chromium, headless, on one page, with the page's console messages collected as
/// they arrive. Pages under test report what they see with `console.info("KIND {json}")`;
/// chromium prints console messages on standard error (`--enable-logging=stderr`), and
/// ``waitFor(_:timeout:where:)`` reads them back as JSON.
///
/// Foundation starts a child in a process group of its own, which chromium's renderer and
/// GPU processes inherit, so ``stop()`` ends them all by signalling the group. Media autoplays without a gesture (muted video plays anyway; this makes
/// the rule explicit).
public final class HeadlessChromium: @unchecked Sendable {
    /// One console message: its kind (the first word) and its JSON payload.
    public struct Message: Sendable {
        public var kind: String
        public var json: [String: any Sendable]
        public var text: String
    }

    public static let executable = "/usr/bin/chromium"
    private let process = Process()
    private let profile: TemporaryDirectory
    private let lock = NSLock()
    private var buffer = Data()
    private var messages: [Message] = []
    private var rawLines: [String] = []
    private var ended = false

    /// Opens `url` in a fresh profile.
    public init(url: String, extraFlags: [String] = []) throws {
        guard FileManager.default.isExecutableFile(atPath: Self.executable) else {
            throw Failure("\(Self.executable) is missing: install Debian's 'chromium' package (make setup does)")
        }
        profile = try TemporaryDirectory()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                             "--no-default-browser-check", "--disable-extensions", "--mute-audio",
                             "--autoplay-policy=no-user-gesture-required", "--enable-logging=stderr", "--v=0",
                             "--user-data-dir=\(profile.path("profile"))"] + extraFlags + [url]
        let pipe = Pipe()
        process.standardError = pipe
        process.standardOutput = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let handle = pipe.fileHandleForReading
        Thread { [self] in
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                take(chunk)
            }
            lock.withLock { ended = true }
        }.start()
    }

    /// Console messages of `kind` so far.
    public func messages(_ kind: String) -> [Message] { lock.withLock { messages.filter { $0.kind == kind } } }

    /// Everything chromium printed so far (for failure messages): the last `count` lines.
    public func log(last count: Int = 40) -> String { lock.withLock { rawLines.suffix(count).joined(separator: "\n") } }

    /// Waits until a message of `kind` satisfies `predicate`; `nil` after `timeout` (or when
    /// chromium exits).
    public func waitFor(_ kind: String, timeout: Duration, where predicate: (Message) -> Bool = { _ in true }) async -> Message? {
        let deadline = ContinuousClock.now + timeout
        var seen = 0
        while ContinuousClock.now < deadline {
            let (found, done) = lock.withLock { (messages, ended) }
            for message in found[seen...] where message.kind == kind && predicate(message) { return message }
            seen = found.count
            if done { return nil }
            try? await Task.sleep(for: .milliseconds(100))
        }
        return nil
    }

    /// Ends chromium and every process it started.
    public func stop() {
        if process.isRunning {
            kill(-process.processIdentifier, SIGKILL)
            kill(process.processIdentifier, SIGKILL)
        }
        process.waitUntilExit()
        profile.cleanup()
    }

    deinit { stop() }

    private func take(_ chunk: Data) {
        lock.withLock {
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                rawLines.append(line)
                if let message = Self.consoleMessage(line) { messages.append(message) }
            }
        }
    }

    /// `[…:INFO:CONSOLE:12] "KIND {json}", source: http://… (12)` → the message.
    static func consoleMessage(_ line: String) -> Message? {
        guard line.contains(":CONSOLE"), let open = line.firstIndex(of: "\""), let close = line.range(of: "\", source: ", options: .backwards),
              open < close.lowerBound else { return nil }
        let text = String(line[line.index(after: open)..<close.lowerBound])
        let parts = text.split(separator: " ", maxSplits: 1)
        guard let kind = parts.first else { return nil }
        var json: [String: any Sendable] = [:]
        if parts.count == 2, let object = try? JSONSerialization.jsonObject(with: Data(parts[1].utf8)) as? [String: Any] {
            json = object.mapValues { value -> any Sendable in
                switch value {
                case let number as Double: number
                case let number as Int: Double(number)
                case let flag as Bool: flag ? 1.0 : 0.0
                case let number as NSNumber: number.doubleValue
                case let string as String: string
                default: "\(value)"
                }
            }
        }
        return Message(kind: String(kind), json: json, text: text)
    }

    public struct Failure: Error, CustomStringConvertible {
        public var description: String
        init(_ description: String) { self.description = description }
    }
}

extension HeadlessChromium.Message {
    /// A string field.
    public func string(_ key: String) -> String? { json[key] as? String }
    /// A number field.
    public func number(_ key: String) -> Double? { json[key] as? Double }
}
