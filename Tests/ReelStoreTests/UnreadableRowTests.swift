import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// A row the library cannot read is an error naming the table, the row and the column,
/// never a row silently left out. Each case damages one value in a real SQLite
/// file with a second, raw connection, as another program, a newer Reel or a bad restore
/// would (the tables are STRICT, so only values of the right storage class can get in).
@Suite("Unreadable library rows")
struct UnreadableRowTests {
    let good = UUID(uuidString: "11111111-2222-3333-4444-555555555555")!
    let bad = UUID(uuidString: "aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee")!

    func session(_ id: UUID, start: Double) -> StudySession {
        StudySession(id: id, startedAt: Date(timeIntervalSince1970: start), endedAt: Date(timeIntervalSince1970: start + 600),
                     activeSeconds: 500, videoSeconds: 20, mode: .timelapse, intervalSeconds: 5,
                     filePath: "/v/\(id).mp4", thumbnailPath: nil, faceTrackPath: nil, title: "Maths", tags: ["math"])
    }

    /// A library holding two sessions, then `damage` run on the file through its own connection.
    func library(in dir: TemporaryDirectory, damage sql: String) throws -> StudyLibrary {
        let path = dir.path("library.sqlite")
        let library = try StudyLibrary(path: path)
        _ = try library.add(session(good, start: 1_790_000_000))
        _ = try library.add(session(bad, start: 1_790_010_000))
        #expect(try library.sessions().count == 2)
        let raw = try SQLiteConnection(path: path)
        try raw.executeScript("PRAGMA foreign_keys = OFF; PRAGMA ignore_check_constraints = ON")
        try raw.run(sql, [bad.uuidString.lowercased()])
        return try StudyLibrary(path: path)
    }

    @Test("a session row with a bad value is an error naming the table, row and column", arguments: [
        ("UPDATE study_session SET started_at = 'yesterday' WHERE id = ?", "started_at", "'yesterday', not a date"),
        ("UPDATE study_session SET ended_at = '2026-13-45T99:00:00.000Z' WHERE id = ?", "ended_at", "not a date"),
        // A mode a newer Reel might write (the CHECK constraint set aside, as its schema would).
        ("UPDATE study_session SET mode = 'slowmotion' WHERE id = ?", "mode", "'slowmotion', not a recording mode"),
    ])
    func damagedSession(sql: String, column: String, shown: String) throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try library(in: dir, damage: sql)
        #expect {
            try library.sessions()
        } throws: { error in
            let text = "\(error)"
            return text.contains("study_session") && text.contains(bad.uuidString.lowercased())
                && text.contains("column \(column)") && text.contains(shown)
        }
    }

    @Test("an undamaged library still reads every session, with the same values")
    func undamaged() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try library(in: dir, damage: "UPDATE study_session SET title = 'Physics' WHERE id = ?")
        let sessions = try library.sessions()
        #expect(sessions.map(\.id) == [good, bad])
        #expect(sessions[1].title == "Physics" && sessions[1].tags == ["math"] && sessions[1].mode == .timelapse)
        #expect(sessions[0] == session(good, start: 1_790_000_000))
    }

    @Test("a session id that is not a UUID stops restore's key scan instead of being skipped")
    func damagedKey() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try library(in: dir, damage: "UPDATE study_session SET id = 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz' WHERE id = ?")
        #expect { try library.restoreKeys() } throws: { error in
            "\(error)".contains("study_session row zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz") && "\(error)".contains("column id holds 'zzzzzzzz-zzzz-zzzz-zzzz-zzzzzzzzzzzz', not a UUID")
        }
        #expect { try library.sessions() } throws: { "\($0)".contains("zzzzzzzz-zzzz") }
    }
}
