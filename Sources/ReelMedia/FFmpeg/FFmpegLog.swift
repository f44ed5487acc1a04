import CFFmpeg
import Foundation
import ReelRuntime

/// Where FFmpeg's own messages go. None are shown unless a command asks for them
/// (`--verbose`): Reel says what went wrong in its own words, and FFmpeg's lines
/// (`[png @ 0x…] Invalid PNG signature`) before them only confuse.
public enum FFmpegLog {
    /// FFmpeg log levels Reel exposes.
    public enum Level: Int32, Sendable {
        case quiet = -8, error = 16, warning = 24, info = 32, debug = 48
    }

    /// Evaluated once, by the first encoder or reader made: unless ``show(upTo:through:)`` was
    /// called first, FFmpeg says nothing (its own default prints every warning and, at the info
    /// level, every encoder's statistics).
    static let quietByDefault: Void = { reel_log_quiet_unless_set() }()

    private static let handler = Locked<(@Sendable (String) -> Void)?>(nil)

    /// Hands FFmpeg's messages up to `level` to `handler` as "ffmpeg (component): message", one
    /// line each (on FFmpeg's threads); nil shows none.
    public static func show(upTo level: Level, through handler: (@Sendable (String) -> Void)?) {
        Self.handler.withLock { $0 = handler }
        guard handler != nil else {
            reel_set_log_callback(nil, Level.quiet.rawValue)
            return
        }
        reel_set_log_callback({ _, component, message in
            guard let message else { return }
            let text = String(cString: message).trimmingCharacters(in: .whitespacesAndNewlines)
            guard !text.isEmpty else { return }
            let name = component.map { String(cString: $0) }
            let line = "ffmpeg" + (name.map { " (\($0))" } ?? "") + ": " + text
            FFmpegLog.handler.withLock { $0 }?(line)
        }, level.rawValue)
    }
}
