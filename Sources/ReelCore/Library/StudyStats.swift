import Foundation

/// Daily study against the goal over a week or a month (`reel stats`): pure rules,
/// tested without I/O.
///
/// - A session's active time counts on the local day it happened. A session that crosses
///   midnight is split by day in proportion to its wall-clock time on each side (its pauses
///   are not stored, so they are assumed spread evenly): 23:00–01:00 with 100 active minutes
///   gives 50 to each day.
/// - Weeks start on Monday (ISO 8601); months are calendar months; both in the given time zone.
/// - The goal of a day is ``DailyGoal/inForce(on:among:)``: set for that date, else the most
///   recent earlier one, else none.
/// - Sessions recorded at the same time (two `reel record` on one library) never count twice:
///   where their wall-clock spans overlap, that stretch counts once, at the rate of the session
///   that studied most in it (each session's active time spread evenly over its span).
/// - A day *meets* its goal when its active minutes reach it; a day without a goal meets
///   nothing and breaks nothing (see ``streak(endingAt:sessions:goals:timeZone:)``). Only a day
///   that is over has missed its goal: today is ``Verdict/met`` or ``Verdict/sofar``, days to
///   come are ``Verdict/toCome``, and neither is counted in ``daysWithGoal``.
/// - Minutes are shown cut down to the whole minute (``StudyStatsChart/duration(_:)``), never
///   rounded up: 0.8 min reads "0 min" beside a 1-minute goal it did not meet.
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

    /// How a day stands against its goal.
    public enum Verdict: String, Sendable, Equatable {
        /// Reached the goal (any day up to today).
        case met
        /// A day that is over and did not reach it.
        case below
        /// Today, not reached yet.
        case sofar = "so far"
        /// A day after today.
        case toCome = "to come"
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
        /// Where the day stands against its goal (nil when there is no goal).
        public var verdict: Verdict?

        /// A day; `today` decides whether a day short of its goal is over.
        public init(date: CalendarDay, activeMinutes: Double, goalMinutes: Int?, sessionCount: Int, today: CalendarDay) {
            self.date = date
            self.activeMinutes = activeMinutes
            self.goalMinutes = goalMinutes
            self.sessionCount = sessionCount
            verdict = goalMinutes.map { goal in
                if date > today { return .toCome }
                if StudyStats.reaches(activeMinutes, goal) { return .met }
                return date == today ? .sofar : .below
            }
        }

        /// Whether the goal was reached: true when met, false for a day that is over and
        /// missed it, nil when there is no goal or the day is not over.
        public var metGoal: Bool? {
            switch verdict {
            case .met: true
            case .below: false
            case .sofar, .toCome, nil: nil
            }
        }
    }

    /// Whether `minutes` of study reach a goal of `goal` whole minutes.
    public static func reaches(_ minutes: Double, _ goal: Int) -> Bool { minutes + 1e-9 >= Double(goal) }

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
    /// Days with a goal whose verdict is in: over, or today once met.
    public var daysWithGoal: Int { days.filter { $0.metGoal != nil }.count }

    /// The stats of the `period` containing `day`; the streak is counted up to `today`.
    public init(period: Period, containing day: CalendarDay, today: CalendarDay, sessions: [StudySession], goals: [DailyGoal],
                timeZone: TimeZone) {
        let dates = period.days(containing: day)
        let minutes = StudyStats.activeMinutes(of: sessions, timeZone: timeZone)
        var started: [CalendarDay: Int] = [:]
        for s in sessions { started[CalendarDay(containing: s.startedAt, in: timeZone), default: 0] += 1 }
        self.period = period
        self.days = dates.map {
            Day(date: $0, activeMinutes: minutes[$0] ?? 0, goalMinutes: DailyGoal.inForce(on: $0, among: goals),
                sessionCount: started[$0] ?? 0, today: today)
        }
        self.streak = StudyStats.streak(endingAt: today, minutes: minutes, goals: goals)
    }

    /// Active minutes per local day: each session's active time spread evenly over its
    /// wall-clock span, split at local midnights; where spans overlap, each stretch counts once
    /// at the highest rate among the sessions covering it (never the sum). A session without a
    /// span (ended as it started) counts on its day as it is.
    public static func activeMinutes(of sessions: [StudySession], timeZone: TimeZone) -> [CalendarDay: Double] {
        var result: [CalendarDay: Double] = [:]
        var spans: [(start: Date, end: Date, rate: Double)] = []  // minutes of study per second of wall time
        for session in sessions where session.activeSeconds > 0 {
            let wall = session.endedAt.timeIntervalSince(session.startedAt)
            if wall > 0 {
                spans.append((session.startedAt, session.endedAt, session.activeSeconds / 60 / wall))
            } else {
                result[CalendarDay(containing: session.startedAt, in: timeZone), default: 0] += session.activeSeconds / 60
            }
        }
        guard !spans.isEmpty else { return result }
        // Cut the time line at every start, end and local midnight; each piece lies in one day.
        var cuts = Set(spans.flatMap { [$0.start, $0.end] })
        var day = CalendarDay(containing: spans.map(\.start).min()!, in: timeZone)
        let last = spans.map(\.end).max()!
        while true {
            let midnight = day.adding(days: 1).start(in: timeZone)
            guard midnight < last else { break }
            cuts.insert(midnight)
            day = day.adding(days: 1)
        }
        let times = cuts.sorted()
        for (from, to) in zip(times, times.dropFirst()) {
            let rate = spans.lazy.filter { $0.start <= from && to <= $0.end }.map(\.rate).max() ?? 0
            if rate > 0 { result[CalendarDay(containing: from, in: timeZone), default: 0] += rate * to.timeIntervalSince(from) }
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
            if let goal = DailyGoal.inForce(on: day, among: goals) { return reaches(active, goal) }
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
