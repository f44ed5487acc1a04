import Foundation
import ReelCore

/// What the library commands (`tags`, `tag`, `goal`, `stats`, `materials`) share: the ACTION
/// positional checked as a usage error, JSON output, and tables.
enum LibraryCommandText {
    /// The ACTION word, one of `choices`; anything else is a usage error (exit 64) with a
    /// spelling suggestion.
    static func action(_ arguments: ParsedArguments, _ positional: Positional, choices: [String]) throws(ArgumentParser.Error) -> String {
        let word = arguments.positional(positional) ?? ""
        guard choices.contains(word) else {
            throw .invalidValue(command: arguments.path, option: positional.name, value: word,
                                expected: "one of: " + choices.joined(separator: ", "),
                                suggestion: SpellingSuggestion.nearest(to: word, in: choices))
        }
        return word
    }

    /// The positional's word, required for this action (a usage error when missing).
    static func required(_ arguments: ParsedArguments, _ positional: Positional) throws(ArgumentParser.Error) -> String {
        guard let word = arguments.positional(positional) else { throw .missingArgument(command: arguments.path, name: positional.name) }
        return word
    }

    /// A usage error when the positional was given to an action that takes none.
    static func none(_ arguments: ParsedArguments, _ positional: Positional) throws(ArgumentParser.Error) {
        if let word = arguments.positional(positional) { throw .unexpectedArgument(command: arguments.path, argument: word, takesArguments: true) }
    }

    /// A usage error when an option that `action` does not take was given (`reel sessions ls
    /// --title X`): options belong to the action that uses them.
    static func refuseOthers(_ arguments: ParsedArguments, allowed: [Option], action: String) throws(ArgumentParser.Error) {
        let allowedNames = Set((allowed + [LibraryOption.option]).map(\.name))
        for option in arguments.command.options where !allowedNames.contains(option.name) && arguments.count(option) > 0 {
            throw .conflictingOptions(command: arguments.path, first: option.longForm, second: action)
        }
    }

    /// Pretty JSON with sorted keys; `nil` values must be passed as `NSNull()`.
    static func json(_ value: Any) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: value, options: [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]),
               as: UTF8.self)
    }

    /// Rows padded to each column's widest cell by display width (the last column unpadded),
    /// control characters shown, never obeyed (``TerminalText/table(_:maximumWidths:)``).
    static func table(_ rows: [[String]], maximumWidths: [Int?] = []) -> String {
        TerminalText.table(rows, maximumWidths: maximumWidths)
    }

    /// `date` in local time, `YYYY-MM-DD HH:mm`.
    static func localTime(_ date: Date) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.string(from: date)
    }

    /// A path made absolute against the working folder, `~` expanded from `$HOME`.
    static func absolute(_ path: String) -> String { UserFolders.absolute(path) }
}
