import Foundation

/// Daily study against the goal over a week or a month (issue 6, `reel stats`): pure rules,
/// tested without I/O.
///
/// - A session's active time counts on the local day it happened. A session that crosses
///   midnight is split by day in proportion to its wall-clock time on each side (its pauses
///   are not stored, so they are assumed spread evenly): 23:00–01:00 with 100 active minutes
///   gives 50 to each day.
/// - Weeks start on Monday (ISO 8601); months are calendar months; both in the given time zone.
/// - The goal of a day is ``DailyGoal/inForce(on:among:)``: set for that date, else the most
///   recent earlier one, else none.
/// - A day *meets* its goal when its active minutes reach it; a day without a goal meets
///   nothing and breaks nothing (see ``streak(endingAt:sessions:goals:timeZone:)``).
public struct StudyStats: Sendable, Equatable {
    /// The period asked for.
    public enum Period: String, Sendable, CaseIterable {
        /// Monday to Sunday.
        case week
        /// The first to the last day of the month.
        case month

        /// The days of the period that contains `day`.
        public func days(containing day: CalendarDay) -> [CalendarDay] {
            let first: CalendarDay, count: Int
            switch self {
            case .week:
                first = day.adding(days: 1 - day.isoWeekday)
                count = 7
            case .month:
                first = day.adding(days: 1 - day.day)
                count = CalendarDay.length(ofMonth: day.month, in: day.year)
            }
            return (0..<count).map { first.adding(days: $0) }
        }
    }

    /// One day of the period.
    public struct Day: Sendable, Equatable {
        /// The date.
        public var date: CalendarDay
        /// Active study that day, in minutes (fractional).
        public var activeMinutes: Double
        /// The goal in force, in minutes (nil: none).
        public var goalMinutes: Int?
        /// Sessions that started that day.
        public var sessionCount: Int

        /// Whether the goal was reached (nil when there is no goal).
        public var metGoal: Bool? { goalMinutes.map { activeMinutes + 1e-9 >= Double($0) } }
    }

    /// The period.
    public var period: Period
    /// Its days, in order.
    public var days: [Day]
    /// Days in a row, ending on the last day that counts (see ``streak(endingAt:sessions:goals:timeZone:)``).
    public var streak: Int

    /// Total active minutes over the period.
    public var totalMinutes: Double { days.reduce(0) { $0 + $1.activeMinutes } }
    /// Days with a goal that met it.
    public var daysMet: Int { days.filter { $0.metGoal == true }.count }
    /// Days that had a goal.
    public var daysWithGoal: Int { days.filter { $0.goalMinutes != nil }.count }

    /// The stats of the `period` containing `day`; the streak is counted up to `today`.
    public init(period: Period, containing day: CalendarDay, today: CalendarDay, sessions: [StudySession], goals: [DailyGoal],
                timeZone: TimeZone) {
        let dates = period.days(containing: day)
        let minutes = StudyStats.activeMinutes(of: sessions, timeZone: timeZone)
        var started: [CalendarDay: Int] = [:]
        for s in sessions { started[CalendarDay(containing: s.startedAt, in: timeZone), default: 0] += 1 }
        self.period = period
        self.days = dates.map {
            Day(date: $0, activeMinutes: minutes[$0] ?? 0, goalMinutes: DailyGoal.inForce(on: $0, among: goals), sessionCount: started[$0] ?? 0)
        }
        self.streak = StudyStats.streak(endingAt: today, minutes: minutes, goals: goals)
    }

    /// Active minutes per local day: each session's active time on the day it started, split
    /// across midnight(s) in proportion to wall-clock time.
    public static func activeMinutes(of sessions: [StudySession], timeZone: TimeZone) -> [CalendarDay: Double] {
        var result: [CalendarDay: Double] = [:]
        for session in sessions where session.activeSeconds > 0 {
            let minutes = session.activeSeconds / 60
            let start = session.startedAt, end = session.endedAt
            var day = CalendarDay(containing: start, in: timeZone)
            let wall = end.timeIntervalSince(start)
            guard wall > 0, CalendarDay(containing: end, in: timeZone) != day else {
                result[day, default: 0] += minutes
                continue
            }
            var from = start
            while from < end {
                let next = day.adding(days: 1).start(in: timeZone)
                let to = min(next, end)
                let share = to.timeIntervalSince(from) / wall
                if share > 0 { result[day, default: 0] += minutes * share }
                from = to
                day = day.adding(days: 1)
            }
        }
        return result
    }

    /// Days in a row that met their goal, ending at `today` — or at yesterday when today has
    /// not met it yet (the day is not over). A day without a goal counts when it has any study
    /// at all (so a streak survives before the first goal); a day with a goal it missed ends
    /// the streak.
    public static func streak(endingAt today: CalendarDay, sessions: [StudySession], goals: [DailyGoal], timeZone: TimeZone) -> Int {
        streak(endingAt: today, minutes: activeMinutes(of: sessions, timeZone: timeZone), goals: goals)
    }

    static func streak(endingAt today: CalendarDay, minutes: [CalendarDay: Double], goals: [DailyGoal]) -> Int {
        func counts(_ day: CalendarDay) -> Bool {
            let active = minutes[day] ?? 0
            if let goal = DailyGoal.inForce(on: day, among: goals) { return active + 1e-9 >= Double(goal) }
            return active > 0
        }
        guard let earliest = minutes.keys.min() else { return 0 }
        var day = counts(today) ? today : today.adding(days: -1)
        var count = 0
        while day >= earliest, counts(day) {
            count += 1
            day = day.adding(days: -1)
        }
        return count
    }
}
