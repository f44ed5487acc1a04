import CSQLite
import Foundation

/// A prepared statement of one ``SQLiteConnection``, finalized when released. Parameters are
/// bound by position (`?`), never spliced into the SQL.
public final class SQLiteStatement {
    let handle: OpaquePointer
    private let connection: SQLiteConnection
    /// The SQL, for messages.
    public let sql: String

    init(connection: SQLiteConnection, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        // The rest after the first statement, read while the C string SQLite parsed is alive
        // (`tail` points into it; a String passed directly is a temporary copy, gone after the call).
        let (code, rest) = sql.withCString { text -> (Int32, String) in
            var tail: UnsafePointer<CChar>?
            let code = sqlite3_prepare_v2(connection.handle, text, -1, &statement, &tail)
            return (code, tail.map { String(cString: $0) } ?? "")
        }
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(connection.handle, code: code, context: "preparing \(sql)")
        }
        if !rest.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            sqlite3_finalize(statement)
            throw SQLiteError(code: SQLITE_MISUSE, message: "more than one statement", context: "preparing \(sql)")
        }
        handle = statement
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    /// Resets the statement and binds `values` to its parameters, in order.
    public func bind(_ values: [any SQLiteBindable]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        let expected = Int(sqlite3_bind_parameter_count(handle))
        guard values.count == expected else {
            throw SQLiteError(code: SQLITE_RANGE, message: "\(values.count) values for \(expected) parameters", context: "binding \(sql)")
        }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value.sqliteValue {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let v): code = sqlite3_bind_int64(handle, index, v)
            case .real(let v): code = sqlite3_bind_double(handle, index, v)
            case .text(let v): code = sqlite3_bind_text(handle, index, v, -1, reel_sqlite_transient())
            case .blob(let v):
                code = v.withUnsafeBytes { raw in
                    sqlite3_bind_blob64(handle, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), sqlite3_uint64(raw.count), reel_sqlite_transient())
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(connection.handle, code: code, context: "binding parameter \(index) of \(sql)") }
        }
    }

    /// Runs the statement to its end (an insert, update, delete or DDL).
    public func run(_ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    /// Runs a query and returns every row, each as its columns' values.
    public func rows(_ values: [any SQLiteBindable] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try bind(values)
        var rows: [[SQLiteValue]] = []
        while try step() { rows.append(currentRow()) }
        return rows
    }

    /// Runs a query over `table` and returns every row with its columns named (see
    /// ``SQLiteRow``); `keyColumn` is the column that names a row in errors.
    public func namedRows(_ values: [any SQLiteBindable] = [], table: String, keyColumn: String) throws(SQLiteError) -> [SQLiteRow] {
        try bind(values)
        var names: [String: Int] = [:]
        for column in 0..<sqlite3_column_count(handle) {
            if let name = sqlite3_column_name(handle, column) { names[String(cString: name)] = Int(column) }
        }
        var rows: [SQLiteRow] = []
        while try step() { rows.append(SQLiteRow(table: table, keyColumn: keyColumn, names: names, values: currentRow())) }
        return rows
    }

    /// Advances one row: true when a row is available.
    public func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            let error = SQLiteError(connection.handle, code: code, context: "running \(sql)")
            sqlite3_reset(handle)
            throw error
        }
    }

    /// The columns of the current row.
    public func currentRow() -> [SQLiteValue] {
        (0..<sqlite3_column_count(handle)).map { column in
            switch sqlite3_column_type(handle, column) {
            case SQLITE_INTEGER: .integer(sqlite3_column_int64(handle, column))
            case SQLITE_FLOAT: .real(sqlite3_column_double(handle, column))
            case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(handle, column)))
            case SQLITE_BLOB:
                .blob(Data(bytes: sqlite3_column_blob(handle, column) ?? UnsafeRawPointer(bitPattern: 1)!,
                           count: Int(sqlite3_column_bytes(handle, column))))
            default: .null
            }
        }
    }
}
