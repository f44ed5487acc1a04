import Foundation
import ReelCore
import ReelStore

/// `reel tags add|rm|ls|rename [NAME [NEW]]`: the library's tags.
enum TagsCommand {
    static let action = Positional("ACTION", help: "add, rm, ls or rename.")
    static let name = Positional("NAME", arity: .optional, help: "The tag (for add, rm and rename); exact spelling, no commas.")
    static let newName = Positional("NEW", arity: .optional, help: "rename: the tag's new name (sessions keep the tag).")
    static let force = Option.flag("force", help: "rm: remove the tag even when sessions carry it (it is taken off them; the sessions stay).")
    static let json = Option.flag("json", help: "ls: a JSON array of {name, sessions}.")

    static let spec = CommandSpec(
        name: "tags",
        summary: "Add, remove, rename or list the library's tags.",
        discussion: """
            Tags are names given to sessions ('reel record --tag', 'reel tag'). A name is unique \
            in the library and kept as typed ('Exam' and 'exam' are two tags). 'ls' lists every \
            tag with the number of sessions carrying it. 'rm' refuses a tag still on sessions \
            unless --force is given. 'rename' gives a tag a new name on every session that has \
            it; a name already taken is refused.
            """,
        options: [force, json, LibraryOption.option],
        positionals: [action, name, newName],
        examples: ["reel tags add exam", "reel tags ls --json", "reel tags rename exam exams", "reel tags rm exam --force"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let verb = try LibraryCommandText.action(arguments, action, choices: ["add", "rm", "ls", "rename"])
        try LibraryCommandText.refuseOthers(arguments, allowed: verb == "rm" ? [force] : verb == "ls" ? [json] : [], action: verb)
        if verb != "rename" { try LibraryCommandText.none(arguments, newName) }
        let library = verb == "add" ? try LibraryOption.openOrCreate(arguments) : try LibraryOption.openExisting(arguments)
        switch verb {
        case "add":
            let text = try LibraryCommandText.required(arguments, name)
            let tag: Tag
            do { tag = try Tag(text) } catch {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: name.name, value: text, expected: "a tag name (\(error))", suggestion: nil)
            }
            printSafe(try library.addTag(tag) ? "added tag '\(tag.name)'" : "tag '\(tag.name)' is already there")
        case "rename":
            let old = try LibraryCommandText.required(arguments, name)
            let text = try LibraryCommandText.required(arguments, newName)
            let tag: Tag
            do { tag = try Tag(text) } catch {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: newName.name, value: text, expected: "a tag name (\(error))", suggestion: nil)
            }
            let count = try library.renameTag(old, to: tag)
            printSafe("renamed tag '\(old)' to '\(tag.name)'" + (count > 0 ? " (on \(count) session\(count == 1 ? "" : "s"))" : ""))
        case "rm":
            let tagName = try LibraryCommandText.required(arguments, name)
            let count = try library.removeTag(named: tagName, force: arguments.flag(force))
            printSafe("removed tag '\(tagName)'" + (count > 0 ? " (taken off \(count) session\(count == 1 ? "" : "s"))" : ""))
        default:
            try LibraryCommandText.none(arguments, name)
            let tags = try library.tags()
            if arguments.flag(json) {
                print(try LibraryCommandText.json(tags.map { ["name": $0.name, "sessions": $0.sessionCount] as [String: Any] }))
            } else if tags.isEmpty {
                print("no tags yet (reel tags add NAME, or reel record --tag NAME)")
            } else {
                print(LibraryCommandText.table([["TAG", "SESSIONS"]] + tags.map { [$0.name, String($0.sessionCount)] }), terminator: "")
            }
        }
        return 0
    }
}
