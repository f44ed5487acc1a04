import Foundation
import ReelCore

/// Daily goals (issue 6): `reel goal set MINUTES [--date]`, read by `reel stats`.
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
        try connection.rows("SELECT date, minutes FROM daily_goal ORDER BY date").map { row in
            guard let text = row[0].text, let minutes = row[1].integer else {
                throw Error(description: "library \(path): a daily goal row is damaged")
            }
            do {
                return try DailyGoal(date: CalendarDay(text), minutes: Int(minutes))
            } catch {
                throw Error(description: "library \(path): the daily goal of '\(text)' is damaged (\(error))")
            }
        }
    }
}
