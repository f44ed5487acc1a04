import CSQLite
import Foundation

/// One result row whose columns are read by name, never by position: a query can list its
/// columns in any order, and a value that is missing or cannot be read is an error naming
/// the table, the row (by its key) and the column — never a row silently left out.
public struct SQLiteRow: Sendable {
    /// The table the row comes from (for errors).
    public let table: String
    /// The row's key as text (its id), for errors.
    public let key: String
    private let names: [String: Int]
    private let values: [SQLiteValue]

    /// A row of `values` named by `names` (column name → index), from `table`, whose key
    /// column is `keyColumn`.
    init(table: String, keyColumn: String, names: [String: Int], values: [SQLiteValue]) {
        self.table = table
        self.names = names
        self.values = values
        let keyValue = names[keyColumn].map { values[$0] } ?? .null
        switch keyValue {
        case .text(let text): key = text
        case .integer(let number): key = String(number)
        default: key = "?"
        }
    }

    /// The raw value of `column` (`.null` for NULL).
    public func value(_ column: String) throws(SQLiteError) -> SQLiteValue {
        guard let index = names[column] else { throw unreadable(column, "is not in the query") }
        return values[index]
    }

    /// Text, required.
    public func text(_ column: String) throws(SQLiteError) -> String {
        guard let text = try optionalText(column) else { throw unreadable(column, "is NULL") }
        return text
    }

    /// Text or NULL; any other kind is an error.
    public func optionalText(_ column: String) throws(SQLiteError) -> String? {
        switch try value(column) {
        case .null: return nil
        case .text(let text): return text
        case let other: throw unreadable(column, "holds \(Self.describe(other)), not text")
        }
    }

    /// A number (integer or real), required.
    public func double(_ column: String) throws(SQLiteError) -> Double {
        guard let number = try optionalDouble(column) else { throw unreadable(column, "is NULL") }
        return number
    }

    /// A number or NULL; any other kind is an error.
    public func optionalDouble(_ column: String) throws(SQLiteError) -> Double? {
        let value = try value(column)
        if value == .null { return nil }
        guard let number = value.double else { throw unreadable(column, "holds \(Self.describe(value)), not a number") }
        return number
    }

    /// An integer, required.
    public func integer(_ column: String) throws(SQLiteError) -> Int64 {
        guard let number = try optionalInteger(column) else { throw unreadable(column, "is NULL") }
        return number
    }

    /// An integer or NULL; any other kind is an error.
    public func optionalInteger(_ column: String) throws(SQLiteError) -> Int64? {
        let value = try value(column)
        if value == .null { return nil }
        guard let number = value.integer else { throw unreadable(column, "holds \(Self.describe(value)), not an integer") }
        return number
    }

    /// Text turned into `T` by `parse`, required; `kind` names what was expected ("a date").
    public func parsed<T>(_ column: String, as kind: String, _ parse: (String) -> T?) throws(SQLiteError) -> T {
        let text = try text(column)
        guard let value = parse(text) else { throw unreadable(column, "holds '\(text)', not \(kind)") }
        return value
    }

    /// Text or NULL turned into `T` by `parse`; text it cannot parse is an error.
    public func optionalParsed<T>(_ column: String, as kind: String, _ parse: (String) -> T?) throws(SQLiteError) -> T? {
        guard let text = try optionalText(column) else { return nil }
        guard let value = parse(text) else { throw unreadable(column, "holds '\(text)', not \(kind)") }
        return value
    }

    /// The error for a column that cannot be read: `SQLITE_MISMATCH`, with the table, row
    /// and column in the message.
    func unreadable(_ column: String, _ problem: String) -> SQLiteError {
        SQLiteError(code: SQLITE_MISMATCH, message: "column \(column) \(problem)",
                    context: "reading \(table) row \(key)")
    }

    private static func describe(_ value: SQLiteValue) -> String {
        switch value {
        case .null: "NULL"
        case .integer(let number): "the integer \(number)"
        case .real(let number): "the number \(number)"
        case .text(let text): "the text '\(text)'"
        case .blob(let data): "a \(data.count)-byte blob"
        }
    }
}
