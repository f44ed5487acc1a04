import Foundation

/// The caption an export draws (docs/behaviour.md §1, Export compositor: "study time and
/// date"): a label, the study time at the frame, and the date of the recording, e.g.
/// `勉強時間 1:23:45 · 2026-11-30`.
///
/// Study time at a frame: in a full recording the video is stamped with active time, so it is
/// the frame's time; in a timelapse frame k (at k/10 s) was taken after k intervals of study,
/// so it is video time × 10 × interval. For any other video it is the time into the video.
public struct ExportCaption: Sendable, Equatable {
    /// How video time maps to study time.
    public enum Clock: Sendable, Equatable {
        /// Study time = video time (full recordings, other videos).
        case videoTime
        /// Study time = video time × frames per second × interval (timelapses).
        case timelapse(interval: Double, framesPerSecond: Double)
    }

    /// The words before the time.
    public var label: String
    /// The date shown (already formatted, e.g. "2026-11-30").
    public var date: String
    /// How study time is counted.
    public var clock: Clock

    /// A caption.
    public init(label: String, date: String, clock: Clock) {
        self.label = label
        self.date = date
        self.clock = clock
    }

    /// The default label for a language (`LANG`/`LC_ALL` value): Japanese gets 勉強時間,
    /// everyone else "Study time".
    public static func defaultLabel(language: String?) -> String {
        (language ?? "").hasPrefix("ja") ? "勉強時間" : "Study time"
    }

    /// "2026-11-30" for `date` in `timeZone`.
    public static func dateText(_ date: Date, timeZone: TimeZone = .current) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    /// Whole seconds of study at video time `time`.
    public func studySeconds(at time: MediaTime) -> Int {
        let seconds: Double = switch clock {
        case .videoTime: time.seconds
        case let .timelapse(interval, fps): time.seconds * fps * interval
        }
        return max(0, Int((seconds + 1e-6).rounded(.down)))
    }

    /// The caption's text at video time `time`: "label H:MM:SS · date".
    public func text(at time: MediaTime) -> String {
        let s = studySeconds(at: time)
        return "\(label) \(s / 3600):" + String(format: "%02d:%02d", s / 60 % 60, s % 60) + " · " + date
    }
}
