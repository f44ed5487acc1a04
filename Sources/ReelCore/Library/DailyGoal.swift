/// A daily study goal (docs/behaviour.md §1, Library and backup): from `date` on, `minutes`
/// of active study a day, until a later goal replaces it. `0` minutes means "no goal" from
/// that day (a rest period). One goal per date: setting a date again replaces it (restore
/// recognises duplicates by date).
public struct DailyGoal: Sendable, Equatable, Codable {
    /// The first day the goal applies to.
    public var date: CalendarDay
    /// Minutes of active study a day (0: no goal).
    public var minutes: Int

    /// The most minutes a day has.
    public static let maximumMinutes = 24 * 60

    /// A goal outside 0…1440 minutes.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Negative or more than a day.
        case minutesOutOfRange(Int)

        public var description: String {
            switch self {
            case .minutesOutOfRange(let m): "a daily goal of \(m) minutes is not possible: give 0 (no goal) to \(DailyGoal.maximumMinutes) minutes"
            }
        }
    }

    /// A goal; throws when `minutes` is not within a day.
    public init(date: CalendarDay, minutes: Int) throws(Error) {
        guard (0...DailyGoal.maximumMinutes).contains(minutes) else { throw .minutesOutOfRange(minutes) }
        self.date = date
        self.minutes = minutes
    }

    /// The goal in force on `day` among `goals`: the one set for that date, else the most recent
    /// earlier one, else nil (no goal was ever set before it). A goal of 0 minutes reads as nil.
    public static func inForce(on day: CalendarDay, among goals: [DailyGoal]) -> Int? {
        let latest = goals.filter { $0.date <= day }.max { $0.date < $1.date }
        guard let latest, latest.minutes > 0 else { return nil }
        return latest.minutes
    }
}
