import Foundation
import ReelStore
import ReelTestSupport
import Testing

@Suite("SQLite wrapper")
struct SQLiteConnectionTests {
    @Test("bound parameters round-trip every storage class, including text that looks like SQL")
    func bindings() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let db = try SQLiteConnection(path: dir.path("t.sqlite"))
        try db.run("CREATE TABLE t (a, b, c, d, e)")
        let evil = "x'); DROP TABLE t; --"
        try db.run("INSERT INTO t VALUES (?, ?, ?, ?, ?)", [42, 1.5, evil, Data([0, 1, 2]), SQLiteValue.null])
        let rows = try db.rows("SELECT a, b, c, d, e FROM t WHERE c = ?", [evil])
        #expect(rows == [[.integer(42), .real(1.5), .text(evil), .blob(Data([0, 1, 2])), .null]])
    }

    @Test("one statement per prepare: long single statements always prepare, a second statement after the first is refused")
    func oneStatement() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let db = try SQLiteConnection(path: dir.path("t.sqlite"))
        try db.run("CREATE TABLE goal (date TEXT PRIMARY KEY, minutes INTEGER NOT NULL)")
        // Long enough to live in a heap buffer: SQLite's pointer to the rest must be read while
        // that buffer is alive (it was not, and the check then read freed memory).
        for minutes in 0..<200 {
            try db.run("INSERT INTO goal (date, minutes) VALUES (?, ?) ON CONFLICT (date) DO UPDATE SET minutes = excluded.minutes   ",
                       ["2026-11-30", minutes])
        }
        #expect(try db.rows("SELECT minutes FROM goal") == [[.integer(199)]])
        #expect { try db.run("SELECT 1; DROP TABLE goal") } throws: { "\($0)".contains("more than one statement") }
        #expect(try db.rows("SELECT count(*) FROM goal") == [[.integer(1)]], "the second statement never ran")
    }

    @Test("errors carry SQLite's message and what was being done")
    func errors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let db = try SQLiteConnection(path: dir.path("t.sqlite"))
        #expect { try db.run("SELEC 1") } throws: { error in
            "\(error)".contains("syntax error") && "\(error)".contains("preparing SELEC 1")
        }
        try db.run("CREATE TABLE u (name TEXT UNIQUE)")
        try db.run("INSERT INTO u VALUES (?)", ["a"])
        #expect { try db.run("INSERT INTO u VALUES (?)", ["a"]) } throws: { error in
            (error as? SQLiteError)?.primaryCode == 19 && "\(error)".contains("UNIQUE constraint failed: u.name")
        }
        #expect { try db.run("INSERT INTO u VALUES (?)", []) } throws: { "\($0)".contains("0 values for 1 parameters") }
        #expect { try db.run("SELECT 1; SELECT 2") } throws: { "\($0)".contains("more than one statement") }
        #expect { try SQLiteConnection(path: dir.path("missing/x.sqlite")) } throws: { "\($0)".contains("unable to open") }
    }

    @Test("a transaction commits when its body returns and rolls back when it throws")
    func transactions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let db = try SQLiteConnection(path: dir.path("t.sqlite"))
        try db.run("CREATE TABLE t (a INTEGER)")
        try db.transaction { try db.run("INSERT INTO t VALUES (?)", [1]) }
        struct Boom: Error {}
        #expect(throws: Boom.self) {
            try db.transaction {
                try db.run("INSERT INTO t VALUES (?)", [2])
                throw Boom()
            }
        }
        #expect(!db.isInTransaction)
        #expect(try db.rows("SELECT a FROM t") == [[.integer(1)]])
    }
}
