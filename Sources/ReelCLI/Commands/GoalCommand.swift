import Foundation
import ReelCore
import ReelStore

/// `reel goal set MINUTES [--date YYYY-MM-DD]`, `reel goal ls`: daily study goals.
enum GoalCommand {
    static let minutes = Positional("MINUTES", help: "Minutes of study a day, 0 (no goal) to 1440.")
    static let date = Option.value("date", placeholder: "YYYY-MM-DD", help: "The first day the goal applies to (default: today, local time).")
    static let json = Option.flag("json", help: "A JSON array of {date, minutes}.")

    static let spec = CommandSpec(
        name: "goal",
        summary: "Set or list the daily study goal.",
        discussion: """
            A goal applies from its date until a later one replaces it, so 'reel goal set 90' \
            once is enough. 'reel stats' compares each day's active study with the goal in \
            force that day.
            """,
        subcommands: [
            CommandSpec(name: "set", summary: "Set the goal from a day on; setting a day again replaces its goal, 0 minutes means no goal from that day (a holiday).",
                        options: [date, LibraryOption.option], positionals: [minutes],
                        examples: ["reel goal set 120", "reel goal set 0 --date 2026-12-24"]),
            CommandSpec(name: "ls", summary: "List the goals and the day each applies from.",
                        options: [json, LibraryOption.option], examples: ["reel goal ls"]),
        ],
        examples: ["reel goal set 120", "reel goal set 0 --date 2026-12-24", "reel goal ls"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        if arguments.command.name == "set" {
            let text = try LibraryCommandText.required(arguments, minutes)
            guard let value = Int(text), (0...DailyGoal.maximumMinutes).contains(value) else {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: minutes.name, value: text,
                                                        expected: "whole minutes from 0 (no goal) to \(DailyGoal.maximumMinutes)", suggestion: nil)
            }
            let day = try day(arguments, date)
            let library = try LibraryOption.openOrCreate(arguments)
            try library.setGoal(try DailyGoal(date: day, minutes: value))
            print(value == 0 ? "no daily goal from \(day)" : "daily goal from \(day): \(StudyStatsChart.duration(Double(value)))")
            return 0
        }
        let goals = try LibraryOption.openExisting(arguments).goals()
        if arguments.flag(json) {
            print(try LibraryCommandText.json(goals.map { ["date": $0.date.description, "minutes": $0.minutes] as [String: Any] }))
        } else if goals.isEmpty {
            print("no daily goal yet (reel goal set MINUTES)")
        } else {
            print(LibraryCommandText.table([["FROM", "GOAL"]] + goals.map { [$0.date.description, $0.minutes == 0 ? "none" : StudyStatsChart.duration(Double($0.minutes))] }),
                  terminator: "")
        }
        return 0
    }

    /// `--date` as a day (a usage error when it is not one), or today in the local time zone.
    static func day(_ arguments: ParsedArguments, _ option: Option) throws(ArgumentParser.Error) -> CalendarDay {
        try day(arguments, option, default: CalendarDay(containing: Date(), in: .current))!
    }

    /// `option` as a day (a usage error when it is not one), or `fallback` when not given.
    static func day(_ arguments: ParsedArguments, _ option: Option, default fallback: CalendarDay?) throws(ArgumentParser.Error) -> CalendarDay? {
        guard let text = arguments.string(option) else { return fallback }
        do {
            return try CalendarDay(text)
        } catch {
            throw arguments.invalid(option, expected: "a date as YYYY-MM-DD (\(error))")
        }
    }
}
