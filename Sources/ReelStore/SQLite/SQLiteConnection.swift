import CSQLite
import Foundation

/// One connection to an SQLite database file. Not shared between threads: the owner uses it
/// from one thread at a time (SQLite is built thread-safe, and the connection is opened with
/// `SQLITE_OPEN_NOMUTEX` only because Reel never shares one).
///
/// Every value reaches SQL as a bound parameter (``SQLiteStatement/bind(_:)``); errors carry
/// SQLite's own message (``SQLiteError``).
public final class SQLiteConnection {
    let handle: OpaquePointer
    /// The database file.
    public let path: String

    /// How to open.
    public enum Mode: Sendable {
        /// Read and write, created when missing.
        case create
        /// Read and write, must exist.
        case readWrite
        /// Read only, must exist.
        case readOnly
    }

    /// Opens (or creates) the database at `path`; waits up to `busyTimeout` seconds for a
    /// lock another connection holds.
    public init(path: String, mode: Mode = .create, busyTimeout: Double = 5) throws(SQLiteError) {
        var db: OpaquePointer?
        let flags: Int32 = switch mode {
        case .create: SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readWrite: SQLITE_OPEN_READWRITE
        case .readOnly: SQLITE_OPEN_READONLY
        }
        let code = sqlite3_open_v2(path, &db, flags | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE, nil)
        guard code == SQLITE_OK, let db else {
            let error = SQLiteError(db, code: code, context: "opening \(path)")
            sqlite3_close_v2(db)
            throw error
        }
        handle = db
        self.path = path
        sqlite3_busy_timeout(db, Int32(busyTimeout * 1000))
        sqlite3_extended_result_codes(db, 1)
    }

    deinit { sqlite3_close_v2(handle) }

    /// Prepares one statement.
    public func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        try SQLiteStatement(connection: self, sql: sql)
    }

    /// Runs one statement with `values` bound to its parameters.
    public func run(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) {
        try prepare(sql).run(values)
    }

    /// Runs one query with `values` bound and returns its rows.
    public func rows(_ sql: String, _ values: [any SQLiteBindable] = []) throws(SQLiteError) -> [[SQLiteValue]] {
        try prepare(sql).rows(values)
    }

    /// Runs one query over `table` with `values` bound and returns its rows, columns read by
    /// name (``SQLiteRow``); `keyColumn` names a row in errors.
    public func namedRows(_ sql: String, _ values: [any SQLiteBindable] = [], table: String,
                          keyColumn: String = "id") throws(SQLiteError) -> [SQLiteRow] {
        try prepare(sql).namedRows(values, table: table, keyColumn: keyColumn)
    }

    /// Runs a script of several statements without parameters (migrations, pragmas).
    public func executeScript(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: text, context: "running script")
        }
    }

    /// Runs `body` in a transaction: committed when it returns, rolled back when it throws.
    /// `immediate` takes the write lock at the start (a writer never fails half-way on a lock).
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try executeScript(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let value = try body()
            try executeScript("COMMIT")
            return value
        } catch {
            try? executeScript("ROLLBACK")
            throw error
        }
    }

    /// Rows changed by the last insert, update or delete.
    public var changes: Int { Int(sqlite3_changes(handle)) }

    /// Whether a transaction is open.
    public var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

    /// The SQLite library's version, e.g. "3.40.1".
    public static var libraryVersion: String { String(cString: sqlite3_libversion()) }
}
