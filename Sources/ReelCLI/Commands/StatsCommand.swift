import Foundation
import ReelCore
import ReelStore

/// `reel stats [--week|--month] [--date DAY] [--json] [--svg FILE]`: daily active study
/// against the goal.
enum StatsCommand {
    static let week = Option.flag("week", help: "The week (Monday to Sunday) containing the date (the default).")
    static let month = Option.flag("month", help: "The calendar month containing the date.")
    static let date = Option.value("date", placeholder: "YYYY-MM-DD", help: "A day in the period to show (default: today).")
    static let json = Option.flag("json", help: "Every day's minutes, goal and whether it was met, as JSON.")
    static let svg = Option.value("svg", placeholder: "FILE", help: "Also write a bar chart of the period as an SVG picture to FILE.")

    static let spec = CommandSpec(
        name: "stats",
        summary: "Daily study time against the goal, for a week or a month.",
        discussion: """
            Active (study) minutes per day in local time (the TZ variable sets the zone), the \
            goal in force that day (reel goal set) and whether it was met; then the total, the \
            days the goal was met, and the streak: days in a row up to today that met their \
            goal (today only counts once it is met; a day before any goal counts when it has \
            any study). A session that crosses midnight is split between the days by its \
            wall-clock time on each side; sessions recorded at the same time count their \
            overlap once.

            Verdicts: met, below (a day that is over), so far (today, not met yet), to come \
            (later days); only met and below days count in "goal met on N of M days". Times \
            are cut down to the minute, never rounded up, so a time shown as reaching the goal \
            has reached it (the JSON has tenths of a minute, cut down the same way).
            """,
        options: [week, month, date, json, svg, LibraryOption.option],
        examples: ["reel stats", "reel stats --month --svg month.svg", "reel stats --week --date 2026-11-02 --json"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        if let conflict = arguments.conflict(week, month) { throw conflict }
        let zone = TimeZone.current
        let today = CalendarDay(containing: Date(), in: zone)
        let day = try GoalCommand.day(arguments, date)
        let library = try LibraryOption.openExisting(arguments)
        let stats = StudyStats(period: arguments.flag(month) ? .month : .week, containing: day, today: today,
                               sessions: try library.sessions(), goals: try library.goals(), timeZone: zone)
        if let file = arguments.string(svg) {
            try StudyStatsChartFile.write(stats, to: LibraryCommandText.absolute(file))
        }
        if arguments.flag(json) {
            print(try StudyStatsJSON.text(stats, pretty: true))
        } else {
            print(text(stats), terminator: "")
        }
        return 0
    }

    /// One line per day with a bar scaled to the period's longest day or goal.
    static func text(_ stats: StudyStats) -> String {
        let peak = max(stats.days.map(\.activeMinutes).max() ?? 0, Double(stats.days.compactMap(\.goalMinutes).max() ?? 0), 1)
        var rows = [["DAY", "", "ACTIVE", "GOAL", "", ""]]
        for d in stats.days {
            let bar = String(repeating: "#", count: Int((d.activeMinutes / peak * 30).rounded()))
            rows.append([d.date.weekdayAbbreviation, d.date.description,
                         d.activeMinutes > 0 ? StudyStatsChart.duration(d.activeMinutes) : "-",
                         d.goalMinutes.map { StudyStatsChart.duration(Double($0)) } ?? "-",
                         d.verdict?.rawValue ?? "", bar])
        }
        var summary = "total \(StudyStatsChart.duration(stats.totalMinutes))"
        if stats.daysWithGoal > 0 { summary += ", goal met on \(stats.daysMet) of \(stats.daysWithGoal) days" }
        summary += ", streak \(Counted.noun(stats.streak, "day"))"
        return LibraryCommandText.table(rows) + summary + "\n"
    }
}
