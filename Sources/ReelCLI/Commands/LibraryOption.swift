import Foundation
import ReelCore
import ReelStore

/// `--library PATH`, shared by every command that touches the study library, and the two ways
/// a command opens it: to add to it (created when missing) or to read it (never created).
enum LibraryOption {
    static let option = Option.value("library", placeholder: "PATH",
                                     help: "The study library (SQLite; default: reel/library.sqlite in the XDG data folder, ~/.local/share/reel/library.sqlite).")

    /// The library path: `--library` (absolute, `~` expanded from `$HOME`) or the default.
    static func path(_ arguments: ParsedArguments) -> String {
        arguments.string(option).map(UserFolders.absolute) ?? StudyLibrary.defaultPath(UserFolders.current)
    }

    /// For a command that adds to the library (record, tags add, goal set, materials add,
    /// restore): the library at ``path(_:)``, created with its folder when missing.
    static func openOrCreate(_ arguments: ParsedArguments) throws -> StudyLibrary {
        try StudyLibrary(path: path(arguments), create: true)
    }

    /// For a command that reads the library or removes from it: nothing is ever created. The
    /// default library that does not exist yet reads as an empty one (a new user's first
    /// `reel sessions`); a `--library` that does not exist is an error (a typo must not look
    /// like an empty library).
    static func openExisting(_ arguments: ParsedArguments) throws -> StudyLibrary {
        let path = path(arguments)
        do {
            return try StudyLibrary(path: path, create: false)
        } catch where error.isMissing {
            guard arguments.string(option) == nil else { throw MissingLibrary(path: path) }
            return try StudyLibrary.empty()
        }
    }

    /// The session reference the positional holds (`last` or the start of an id), its form
    /// checked before any library is opened: a malformed one is a usage error (exit 64).
    static func sessionReference(_ arguments: ParsedArguments, _ positional: Positional) throws -> String {
        let reference = try LibraryCommandText.required(arguments, positional)
        do {
            try StudySession.checkReference(reference)
        } catch {
            throw ArgumentParser.Error.invalidValue(command: arguments.path, option: positional.name, value: reference,
                                                    expected: "'last' or at least 4 hexadecimal digits of a session id (reel sessions --json lists them)",
                                                    suggestion: nil)
        }
        return reference
    }

    /// A library command's failure; the text says what and what to do (exit 1).
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// A `--library` that names no file.
    struct MissingLibrary: Error, CustomStringConvertible {
        let path: String
        var description: String {
            "the library \(path) does not exist (nothing was created); check --library, or start one with 'reel record' or 'reel restore'"
        }
    }
}
