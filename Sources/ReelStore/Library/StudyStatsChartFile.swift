import Foundation
import ReelCore

/// The chart `reel stats --svg FILE` writes, placed on disk whole or not at all: a hidden
/// temporary file in the same folder, written and fsynced (the result checked), renamed over
/// `path`, then the folder fsynced so the new name survives a crash. The temporary file goes on
/// every failure. (Issue 13 gives every such placement one shared durable-write type; this one
/// moves to it when that lands.)
public enum StudyStatsChartFile {
    /// Why the chart was not written: the path and the reason in words.
    public struct Failure: Error, CustomStringConvertible {
        /// `cannot write the chart to /x/week.svg: no such file or folder`.
        public let description: String
    }

    /// Writes the SVG chart of `stats` to `path` (absolute, or relative to the working folder).
    public static func write(_ stats: StudyStats, to path: String) throws {
        try write(text: StudyStatsChart(stats).svg(), to: path)
    }

    /// Writes `text` to `path` through a temporary file renamed over it.
    public static func write(text: String, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary = folder + "/." + url.lastPathComponent + ".tmp-\(getpid())"
        func failure(_ code: Int32) -> Failure {
            Failure(description: "cannot write the chart to \(path): \(ErrorSentence.posix(code))")
        }
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(errno) }
        var placed = false
        defer { if !placed { unlink(temporary) } }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(fd, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { let code = errno; close(fd); throw failure(code) }
            offset += n
        }
        guard fsync(fd) == 0 else { let code = errno; close(fd); throw failure(code) }
        guard close(fd) == 0 else { throw failure(errno) }
        guard rename(temporary, path) == 0 else { throw failure(errno) }
        placed = true
        let folderFD = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folderFD >= 0 else { throw failure(errno) }
        defer { close(folderFD) }
        guard fsync(folderFD) == 0 else { throw failure(errno) }
    }
}
