import CSQLite

/// A failed SQLite call: what Reel was doing, SQLite's result code and its own message.
public struct SQLiteError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The (extended) result code, e.g. `SQLITE_CONSTRAINT_UNIQUE`.
    public var code: Int32
    /// SQLite's message (`sqlite3_errmsg`).
    public var message: String
    /// What was being done: "opening /path", "preparing …", "running …".
    public var context: String

    public var description: String { "\(context): \(message) (SQLite error \(code))" }

    /// The primary result code (`SQLITE_CONSTRAINT`, `SQLITE_BUSY`, …).
    public var primaryCode: Int32 { code & 0xff }

    init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    init(_ handle: OpaquePointer?, code: Int32, context: String) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: handle.map { sqlite3_extended_errcode($0) } ?? code, message: message, context: context)
    }
}
