import CFFmpeg
import Foundation

/// Where FFmpeg's own log lines go. Quiet by default: warnings and errors only, to stderr,
/// prefixed so a user can tell them from Reel's messages.
public enum FFmpegLog {
    /// FFmpeg log levels Reel exposes.
    public enum Level: Int32, Sendable {
        case quiet = -8, error = 16, warning = 24, info = 32, debug = 48
    }

    /// FFmpeg's own default prints every encoder's statistics at the info level; Reel's default
    /// is warnings and errors. Evaluated once, by the first encoder or reader made.
    static let quietByDefault: Void = {
        if av_log_get_level() > Level.warning.rawValue { av_log_set_level(Level.warning.rawValue) }
    }()

    /// Sends FFmpeg's lines up to `level` to standard error, prefixed with "ffmpeg: ".
    public static func configure(level: Level) {
        reel_set_log_callback({ _, line in
            guard let line else { return }
            let text = String(cString: line)
            FileHandle.standardError.write(Data(("ffmpeg: " + text).utf8))
        }, level.rawValue)
    }
}
