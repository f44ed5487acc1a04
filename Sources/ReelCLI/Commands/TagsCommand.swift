import Foundation
import ReelCore
import ReelStore

/// `reel tags add|rm|ls|rename [NAME [NEW]]`: the library's tags.
enum TagsCommand {
    static let name = Positional("NAME", help: "The tag; exact spelling, no commas.")
    static let newName = Positional("NEW", help: "The tag's new name (sessions keep the tag).")
    static let force = Option.flag("force", help: "Remove the tag even when sessions carry it (it is taken off them; the sessions stay).")
    static let json = Option.flag("json", help: "A JSON array of {name, sessions}.")

    static let spec = CommandSpec(
        name: "tags",
        summary: "Add, remove, rename or list the library's tags.",
        discussion: """
            Tags are names given to sessions ('reel record --tag', 'reel tag'). A name is unique \
            in the library and kept as typed ('Exam' and 'exam' are two tags).
            """,
        subcommands: [
            CommandSpec(name: "add", summary: "Add a tag (a name already there changes nothing).",
                        options: [LibraryOption.option], positionals: [name], examples: ["reel tags add exam"]),
            CommandSpec(name: "rm", summary: "Remove a tag; one still on sessions only with --force.",
                        options: [force, LibraryOption.option], positionals: [name], examples: ["reel tags rm exam --force"]),
            CommandSpec(name: "ls", summary: "List every tag with the number of sessions carrying it.",
                        options: [json, LibraryOption.option], examples: ["reel tags ls --json"]),
            CommandSpec(name: "rename", summary: "Give a tag a new name on every session that has it; a name already taken is refused.",
                        options: [LibraryOption.option], positionals: [name, newName], examples: ["reel tags rename exam exams"]),
        ],
        examples: ["reel tags add exam", "reel tags ls --json", "reel tags rename exam exams", "reel tags rm exam --force"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let verb = arguments.command.name
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
            printSafe("renamed tag '\(old)' to '\(tag.name)'" + (count > 0 ? " (on \(Counted.noun(count, "session")))" : ""))
        case "rm":
            let tagName = try LibraryCommandText.required(arguments, name)
            let count = try library.removeTag(named: tagName, force: arguments.flag(force))
            printSafe("removed tag '\(tagName)'" + (count > 0 ? " (taken off \(Counted.noun(count, "session")))" : ""))
        default:
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
