import Foundation
import ReelCore

/// Daily goals: `reel goal set MINUTES [--date]`, read by `reel stats`.
extension StudyLibrary {
    /// Sets the goal for its date, replacing one set for the same date.
    public func setGoal(_ goal: DailyGoal) throws {
        try connection.transaction {
            try connection.run("INSERT INTO daily_goal (date, minutes) VALUES (?, ?) ON CONFLICT (date) DO UPDATE SET minutes = excluded.minutes",
                               [goal.date.description, goal.minutes])
        }
    }

    /// Every goal, oldest date first.
    public func goals() throws -> [DailyGoal] {
        try connection.namedRows("SELECT date, minutes FROM daily_goal ORDER BY date", table: "daily_goal", keyColumn: "date").map { row in
            let text = try row.text("date")
            let minutes = try row.integer("minutes")
            do {
                return try DailyGoal(date: CalendarDay(text), minutes: Int(minutes))
            } catch {
                throw Error(description: "library \(path): the daily goal of '\(text)' is damaged (\(error))")
            }
        }
    }
}
