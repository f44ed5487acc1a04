import Foundation
import ReelCore
import ReelRuntime

/// The pomodoro's shared state file, `$XDG_STATE_HOME/reel/pomodoro.json`: what the
/// `reel pomodoro` commands and a status-bar widget read. Written atomically (``DurableFile``:
/// a temporary file, synced, renamed, the folder synced); every read-modify-write holds an exclusive `flock` on `pomodoro.lock`
/// beside it, so two callers noticing the end at the same moment notify once.
///
/// The JSON: `{"startedAt": ISO 8601 UTC, "endsAt": …, "notifiedAt": …}` (`notifiedAt` absent
/// until the end was announced). No file: no pomodoro.
public struct PomodoroStateFile: Sendable {
    /// The file.
    public let path: String

    /// A state file that cannot be read or written, with the path and what to do.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// `$XDG_STATE_HOME/reel/pomodoro.json`.
    public static func defaultPath(_ folders: XDGDirectories) -> String { folders.state + "/reel/pomodoro.json" }

    /// The state file at `path`.
    public init(path: String) {
        self.path = path
    }

    /// Runs `body` with the current timer (nil: none) under the lock; the timer it returns is
    /// stored (nil removes the file), unchanged ones are not rewritten.
    public func update<T>(_ body: (PomodoroTimer?) throws -> (PomodoroTimer?, T)) throws -> T {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Error(description: "cannot create \(folder) for the pomodoro state (\((error as NSError).localizedFailureReason ?? "\(error)"))")
        }
        let lockPath = folder + "/pomodoro.lock"
        let lock = open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard lock >= 0 else { throw Error(description: "cannot open \(lockPath): \(String(cString: strerror(errno)))") }
        defer { close(lock) }
        guard flock(lock, LOCK_EX) == 0 else { throw Error(description: "cannot lock \(lockPath): \(String(cString: strerror(errno)))") }
        let current = try read()
        let (next, result) = try body(current)
        if next != current {
            if let next { try store(next) } else if unlink(path) != 0 && errno != ENOENT {
                throw Error(description: "cannot remove \(path): \(String(cString: strerror(errno)))")
            }
        }
        return result
    }

    /// The timer stored (nil: none). A damaged file is an error naming it.
    public func read() throws -> PomodoroTimer? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        do {
            return try PomodoroStateFile.decoder.decode(PomodoroTimer.self, from: data)
        } catch {
            throw Error(description: "the pomodoro state \(path) is damaged (\(error)); 'reel pomodoro stop' removes it")
        }
    }

    private func store(_ timer: PomodoroTimer) throws {
        do {
            try DurableFile.write(try PomodoroStateFile.encoder.encode(timer), to: path, ifExists: .replace)
        } catch let error as DurableFile.Error {
            throw Error(description: "cannot store the pomodoro state: \(error)")
        }
    }

    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)))
        }
        return encoder
    }()

    private static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let text = try decoder.singleValueContainer().decode(String.self)
            return try Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!).parse(text)
        }
        return decoder
    }()
}
