import Foundation

/// A pomodoro (docs/behaviour.md §1, Library and backup: a 25-minute timer started and stopped
/// from outside the app, its end shared with the app). A plain value: the end time is what the
/// status-bar widget and `reel pomodoro` agree on (`$XDG_STATE_HOME/reel/pomodoro.json`,
/// written atomically by `ReelStore.PomodoroStateFile`). No daemon: whoever looks after the end
/// (`status`, `wait`) sees it finished, and the first to claim ``notifiedAt`` sends the one
/// desktop notification.
public struct PomodoroTimer: Sendable, Equatable, Codable {
    /// When it was started.
    public var startedAt: Date
    /// When it ends.
    public var endsAt: Date
    /// When the end was announced (nil: not yet).
    public var notifiedAt: Date?

    /// The usual length, 25 minutes.
    public static let defaultMinutes = 25.0

    /// A timer that cannot start as asked.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Not more than 0, or more than 24 hours.
        case badLength(Double)

        public var description: String {
            switch self {
            case .badLength(let m): "a pomodoro of \(m) minutes is not possible: give more than 0 and at most 1440 minutes"
            }
        }
    }

    /// A timer of `minutes` starting at `now`.
    public init(minutes: Double, now: Date) throws(Error) {
        guard minutes > 0, minutes <= 1440, minutes.isFinite else { throw .badLength(minutes) }
        startedAt = now
        endsAt = now.addingTimeInterval(minutes * 60)
        notifiedAt = nil
    }

    /// What a timer looks like at a moment.
    public enum Status: Sendable, Equatable {
        /// Running, with the seconds left (> 0) and the share done (0–1).
        case running(remaining: Double, done: Double)
        /// It ended (at ``PomodoroTimer/endsAt``).
        case finished
    }

    /// The status at `now`.
    public func status(at now: Date) -> Status {
        let remaining = endsAt.timeIntervalSince(now)
        guard remaining > 0 else { return .finished }
        let length = endsAt.timeIntervalSince(startedAt)
        return .running(remaining: remaining, done: length > 0 ? min(1, max(0, 1 - remaining / length)) : 1)
    }

    /// Whether the end has come and nobody announced it yet: the caller should notify and
    /// store the timer with ``notifiedAt`` set.
    public func needsNotification(at now: Date) -> Bool { notifiedAt == nil && status(at: now) == .finished }

    /// `12:34` (minutes and seconds; `1:02:03` from an hour), seconds rounded up so 0:00
    /// only shows at the end.
    public static func clock(_ seconds: Double) -> String {
        let total = max(0, Int(seconds.rounded(.up)))
        let h = total / 3600, m = (total % 3600) / 60, s = total % 60
        func two(_ v: Int) -> String { v < 10 ? "0\(v)" : "\(v)" }
        return h > 0 ? "\(h):\(two(m)):\(two(s))" : "\(m):\(two(s))"
    }
}
