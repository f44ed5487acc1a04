import Foundation
import ReelCore
import ReelStore

/// `reel tag SESSION NAME [--remove]`: put a tag on a session (or take it off).
enum TagCommand {
    static let session = Positional("SESSION", help: "'last' (the newest session) or at least 4 characters of its id (reel sessions --json).")
    static let name = Positional("NAME", help: "An existing tag (reel tags ls; reel tags add NAME makes one).")
    static let remove = Option.flag("remove", help: "Take the tag off the session instead.")

    static let spec = CommandSpec(
        name: "tag",
        summary: "Tag a study session (or untag it with --remove).",
        discussion: """
            The tag must exist already, so a typo does not make a new tag silently: create it \
            with 'reel tags add NAME'. The session's other tags keep their order; the new one \
            goes last. Tagging twice changes nothing.
            """,
        options: [remove, LibraryOption.option],
        positionals: [session, name],
        examples: ["reel tag last exam", "reel tag 0b8e exam --remove"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let reference = try LibraryOption.sessionReference(arguments, session)
        let tagName = try LibraryCommandText.required(arguments, name)
        let library = try LibraryOption.openExisting(arguments)
        let found = try StudySession.find(reference, in: library.sessions())
        let label = "session \(found.id.uuidString.lowercased().prefix(8))" + (found.title.map { " (\($0))" } ?? "")
        if arguments.flag(remove) {
            printSafe(try library.untag(session: found.id, from: tagName) ? "took '\(tagName)' off \(label)" : "\(label) does not have tag '\(tagName)'")
        } else {
            printSafe(try library.tag(session: found.id, with: tagName) ? "tagged \(label) with '\(tagName)'" : "\(label) already has tag '\(tagName)'")
        }
        return 0
    }
}
