import Foundation
import ReelCore
import ReelStore

/// `reel sessions [ls|show|edit|rm|untrash] [SESSION]`: the study sessions in the library —
/// listed (filtered by tag and dates), shown one by one with their files and exports, edited,
/// removed to the Trash and put back.
enum SessionsCommand {
    static let session = Positional("SESSION", help: "'last' or at least 4 characters of the session's id.")
    static let json = Option.flag("json", help: "JSON with every field (dates ISO 8601 UTC), for scripts.")
    static let tag = Option.value("tag", placeholder: "NAME", help: "Only sessions with this tag.")
    static let since = Option.value("since", placeholder: "YYYY-MM-DD", help: "Only sessions started on this local day or later.")
    static let until = Option.value("until", placeholder: "YYYY-MM-DD", help: "Only sessions started on this local day or earlier.")
    static let title = Option.value("title", placeholder: "TEXT", help: "The new title (one line).")
    static let noTitle = Option.flag("no-title", help: "Remove the title.")
    static let addTag = Option.value("add-tag", placeholder: "NAME", repeatable: true, help: "Put an existing tag on the session (repeat for several).")
    static let removeTag = Option.value("remove-tag", placeholder: "NAME", repeatable: true, help: "Take a tag off the session (repeat for several).")

    static let spec = CommandSpec(
        name: "sessions",
        summary: "List, show, edit, remove (to the Trash) and put back study sessions.",
        discussion: """
            Sessions are added when 'reel record' finishes and by 'reel recover'. Reading never \
            creates a library: the default one that does not exist yet lists no sessions, a \
            --library that does not exist is an error.
            """,
        subcommands: [
            CommandSpec(name: "ls", summary: "One line per session, oldest first: the day it started (local time), the active (study) time, the mode, title, tags and the video file.",
                        discussion: "--tag, --since and --until narrow the list (days are local and included).",
                        options: [json, tag, since, until, LibraryOption.option],
                        examples: ["reel sessions ls --tag exam --since 2026-11-01"]),
            CommandSpec(name: "show", summary: "One session with its files (and their sizes), its face track, review edits and the exports 'reel export' made from it.",
                        options: [json, LibraryOption.option], positionals: [session], examples: ["reel sessions show last"]),
            CommandSpec(name: "edit", summary: "Change the title and tags (one transaction: all or nothing).",
                        options: [title, noTitle, addTag, removeTag, LibraryOption.option], positionals: [session],
                        examples: ["reel sessions edit last --title 'Organic chemistry' --add-tag exam"]),
            CommandSpec(name: "rm", summary: "Move the session's files and record to the Trash, then take it out of the library.",
                        discussion: """
                            The video, thumbnail, face track and review edits go to the Trash (the \
                            freedesktop one your file manager shows) together with the session's \
                            record; exports made from it stay where they are.
                            """,
                        options: [LibraryOption.option], positionals: [session], examples: ["reel sessions rm 0b8e"]),
            CommandSpec(name: "untrash", summary: "Put a session 'rm' removed back: its files where they were, its record into the library.",
                        options: [LibraryOption.option], positionals: [session], examples: ["reel sessions untrash last"]),
        ],
        defaultSubcommand: "ls",
        examples: ["reel sessions", "reel sessions --tag exam --since 2026-11-01", "reel sessions show last",
                   "reel sessions edit last --title 'Organic chemistry' --add-tag exam", "reel sessions rm 0b8e", "reel sessions untrash last",
                   "reel sessions --json | jq '.[] | select(.tags | index(\"exam\"))'"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        switch arguments.command.name {
        case "show": return try show(arguments)
        case "edit": return try edit(arguments)
        case "rm": return try remove(arguments)
        case "untrash": return try untrash(arguments)
        default: return try list(arguments)
        }
    }

    /// `ls`: the table or JSON of the sessions the filter lets through.
    static func list(_ arguments: ParsedArguments) throws -> Int32 {
        let filter = StudySessionFilter(tag: try arguments.string(tag).map { try checkedTag($0, arguments) },
                                        since: try GoalCommand.day(arguments, since, default: nil),
                                        until: try GoalCommand.day(arguments, until, default: nil), timeZone: .current)
        if filter.isEmptyRange { throw arguments.invalid(until, expected: "a day on or after --since") }
        let library = try LibraryOption.openExisting(arguments)
        if let name = filter.tag, try !library.tagNames().contains(name) {
            throw LibraryOption.Failure(description: try library.unknownTagMessage(name) + " (reel tags ls lists them)")
        }
        let sessions = try library.sessions().filter(filter.matches)
        if arguments.flag(json) {
            print(try jsonText(sessions))
        } else if sessions.isEmpty, filter != StudySessionFilter(timeZone: .current) {
            print("no sessions match")
        } else {
            print(table(sessions), terminator: "")
        }
        return 0
    }

    /// `text` under the tag rule; a usage error naming `option` otherwise.
    static func checkedTag(_ text: String, _ arguments: ParsedArguments, option: Option = tag) throws -> String {
        do { return try Tag(text).name } catch {
            throw ArgumentParser.Error.invalidValue(command: arguments.path, option: option.longForm, value: text,
                                                    expected: "a tag name (\(error))", suggestion: nil)
        }
    }

    /// A JSON array of every field (``StudySessionJSON``: the studio's shape too).
    static func jsonText(_ sessions: [StudySession]) throws -> String {
        try StudySessionJSON.text(sessions, pretty: true)
    }

    /// Columns padded to their widest cell by display width; the file last (it is the
    /// longest). Titles and tags are cut with `…` past 40 and 30 columns; control characters in
    /// any cell are shown, never sent to the terminal.
    static func table(_ sessions: [StudySession]) -> String {
        guard !sessions.isEmpty else { return "no sessions yet (reel record adds one when it finishes)\n" }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        var rows = [["DATE", "ACTIVE", "MODE", "TITLE", "TAGS", "FILE"]]
        for s in sessions {
            let mode = s.mode == .timelapse ? "timelapse \(s.intervalSeconds.map { $0 == $0.rounded() ? String(Int($0)) : $0.formatted3 } ?? "?") s" : "full"
            rows.append([formatter.string(from: s.startedAt), StatusLinePrinter.clock(s.activeSeconds), mode + (s.recovered ? " (recovered)" : ""),
                         s.title ?? "-", s.tags.isEmpty ? "-" : s.tags.joined(separator: ","), s.filePath])
        }
        return TerminalText.table(rows, maximumWidths: [nil, nil, nil, 40, 30, nil])
    }
}
