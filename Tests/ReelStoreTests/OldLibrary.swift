import Foundation
import ReelStore

/// A library as an earlier Reel left it: the first `count` migrations applied (each with its
/// row in `schema_migration`, as `StudyLibrary` writes them), for the tests that check a
/// library made by an older schema migrates with no loss.
enum OldLibrary {
    /// Creates the library at `path` with the first `count` migrations and returns the raw
    /// connection (the caller fills it with that schema's rows).
    static func make(at path: String, migrations count: Int, appliedAt: String = "2026-11-01T00:00:00.000Z") throws -> SQLiteConnection {
        let raw = try SQLiteConnection(path: path)
        try raw.run("CREATE TABLE schema_migration (position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL) STRICT")
        for (index, migration) in LibraryMigrations.all.prefix(count).enumerated() {
            try raw.executeScript(migration.sql)
            try raw.run("INSERT INTO schema_migration VALUES (?, ?, ?)", [index + 1, migration.name, appliedAt])
        }
        return raw
    }
}
