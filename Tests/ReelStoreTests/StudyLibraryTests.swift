import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

@Suite("Study library")
struct StudyLibraryTests {
    func session(_ id: UUID = UUID(), tags: [String], title: String? = "Chemistry", start: Double = 1_790_000_000) -> StudySession {
        StudySession(id: id, startedAt: Date(timeIntervalSince1970: start), endedAt: Date(timeIntervalSince1970: start + 3600.25),
                     activeSeconds: 3000.5, videoSeconds: 60.1, mode: .timelapse, intervalSeconds: 5,
                     filePath: "/v/a.mp4", thumbnailPath: "/v/a.jpg", faceTrackPath: "/v/a.faces.json", title: title, tags: tags)
    }

    @Test("the schema the migrations make matches the golden file")
    func schemaGolden() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try StudyLibrary(path: dir.path("lib/library.sqlite"))
        try GoldenFile.expect(try library.schemaDump(), matches: "library-schema.sql")
        #expect(try library.appliedMigrations() == LibraryMigrations.all.map(\.name))
        #expect(try library.connection.rows("PRAGMA journal_mode").first?.first?.text == "wal")
        #expect(try library.connection.rows("PRAGMA foreign_keys").first?.first?.integer == 1)
    }

    @Test("sessions round-trip with their tags; tags are shared by name; adding an id twice changes nothing")
    func sessions() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        let a = session(tags: ["exam", "chem"]), b = session(tags: ["exam"], title: nil, start: 1_790_100_000)
        do {
            let library = try StudyLibrary(path: path)
            #expect(try library.add(b))
            #expect(try library.add(a))
            #expect(try !library.add(a))
        }
        let reopened = try StudyLibrary(path: path)
        #expect(try reopened.sessions() == [a, b])
        #expect(try reopened.tagNames() == ["chem", "exam"])
        #expect(try reopened.contains(a.id) && !reopened.contains(UUID()))
        #expect(try reopened.appliedMigrations().count == LibraryMigrations.all.count, "opening again applies nothing")
    }

    @Test("foreign keys hold: a tag link to no session is refused")
    func foreignKeys() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try StudyLibrary(path: dir.path("library.sqlite"))
        #expect { try library.connection.run("INSERT INTO study_session_tag VALUES (?, 1, 0)", [UUID().uuidString.lowercased()]) } throws: {
            "\($0)".contains("FOREIGN KEY constraint failed")
        }
    }

    @Test("a library from a newer Reel, or one that cannot be created, is a clear error")
    func refusals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        _ = try StudyLibrary(path: path)
        let raw = try SQLiteConnection(path: path)
        try raw.run("INSERT INTO schema_migration (position, name, applied_at) VALUES (?, ?, ?)", [99, "0099-from-the-future", "now"])
        #expect { try StudyLibrary(path: path) } throws: { "\($0)".contains("newer Reel") && "\($0)".contains("0099-from-the-future") }
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir.path("afile")))
        #expect { try StudyLibrary(path: dir.path("afile/library.sqlite")) } throws: { "\($0)".contains(dir.path("afile/library.sqlite")) }
        try Data("not a database, just text that is long enough to look like a header........".utf8).write(to: URL(fileURLWithPath: dir.path("junk.sqlite")))
        #expect { try StudyLibrary(path: dir.path("junk.sqlite")) } throws: { "\($0)".contains("not a database") }
    }
}
