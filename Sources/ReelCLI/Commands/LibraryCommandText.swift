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

    /// A path made absolute against the working folder, `~` expanded from `$HOME`.
    static func absolute(_ path: String) -> String { UserFolders.absolute(path) }
}
