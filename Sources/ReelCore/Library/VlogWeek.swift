import Foundation

/// Which week a weekly vlog shows and which sessions belong to each of its days:
/// weeks start on Monday in local time (as ``StudyStats``), a session belongs to the day its
/// recording started on, and the days come in order with their sessions by start time.
public struct VlogWeek: Sendable, Equatable {
    /// This week or the one before it.
    public enum Choice: String, Sendable, CaseIterable {
        /// The week containing today.
        case this
        /// The week before.
        case last
    }

    /// One day of the week that has sessions.
    public struct Day: Sendable, Equatable {
        /// The date.
        public var date: CalendarDay
        /// Its sessions by start time.
        public var sessions: [StudySession]
        /// Active study that day, in seconds (the sessions' active clocks summed).
        public var activeSeconds: Double { sessions.reduce(0) { $0 + $1.activeSeconds } }
    }

    /// Monday and Sunday of the week.
    public var monday: CalendarDay
    public var sunday: CalendarDay { monday.adding(days: 6) }
    /// The days with sessions, in order (empty: nothing was recorded that week).
    public var days: [Day]

    /// The week chosen relative to `now` in `timeZone`, with `sessions` sorted into its days.
    public init(_ choice: Choice, now: Date, timeZone: TimeZone, sessions: [StudySession]) {
        let today = CalendarDay(containing: now, in: timeZone)
        var monday = today.adding(days: -(today.isoWeekday - 1))
        if choice == .last { monday = monday.adding(days: -7) }
        self.monday = monday
        var byDay: [CalendarDay: [StudySession]] = [:]
        for session in sessions {
            let day = CalendarDay(containing: session.startedAt, in: timeZone)
            guard day >= monday, day <= monday.adding(days: 6) else { continue }
            byDay[day, default: []].append(session)
        }
        days = byDay.keys.sorted().map { Day(date: $0, sessions: byDay[$0]!.sorted { $0.startedAt < $1.startedAt }) }
    }

    /// `H h MM min` / `M min` of study for a title card.
    public static func studyText(seconds: Double) -> String {
        let minutes = Int((seconds / 60).rounded())
        return minutes >= 60 ? "\(minutes / 60) h \(String(format: "%02d", minutes % 60)) min" : "\(minutes) min"
    }
}
