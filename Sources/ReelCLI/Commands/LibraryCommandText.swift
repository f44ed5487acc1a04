import Foundation
import ReelCore

/// What the library commands (`tags`, `tag`, `goal`, `stats`, `materials`) share: positionals
/// checked as usage errors, JSON output, and tables.
enum LibraryCommandText {
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
