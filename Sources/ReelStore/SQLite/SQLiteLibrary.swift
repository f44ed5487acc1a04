import CSQLite

/// The SQLite library the study library is stored with, as loaded at run time (for `reel --version`).
public enum SQLiteLibrary {
    /// `sqlite3_libversion()`: `3.40.1`.
    public static var version: String { String(cString: sqlite3_libversion()) }
}
