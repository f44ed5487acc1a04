import Foundation
import ReelCore
import ReelRuntime

/// The chart `reel stats --svg FILE` writes, placed on disk whole or not at all through
/// ``DurableFile`` (replacing an older chart at that path).
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

    /// Writes `text` to `path`, replacing what is there.
    public static func write(text: String, to path: String) throws(Failure) {
        do {
            try DurableFile.write(Data(text.utf8), to: path, ifExists: .replace)
        } catch {
            throw Failure(description: "cannot write the chart to \(path): \(ErrorSentence.posix(error.code))")
        }
    }
}
