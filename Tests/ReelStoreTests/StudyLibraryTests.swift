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

    @Test("heat and load round-trip with a session; a session without them reads back as not measured")
    func load() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try StudyLibrary(path: dir.path("library.sqlite"))
        var hot = session(tags: [])
        hot.load = RecordingLoad(cpuShare: 0.42, peakCelsius: 91.5, easedSeconds: 12, reducedSeconds: 30.5, reasons: ["hot", "behind real time"])
        var calm = session(tags: [], start: 1_790_000_100)
        calm.load = RecordingLoad(cpuShare: 0.05)
        let unmeasured = session(tags: [], start: 1_790_000_200)
        for s in [hot, calm, unmeasured] { #expect(try library.add(s)) }
        let back = try library.sessions()
        #expect(back == [hot, calm, unmeasured])
        #expect(back[1].load?.reasons == [] && back[1].load?.wasAdapted == false)
        #expect(back[2].load == nil)
    }

    @Test("a library made by the first migration alone migrates with no loss")
    func migratesFirstSchema() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        // The library as the first Reel with sessions made it: migration 0001 only, one session, two tags.
        do {
            #expect(LibraryMigrations.all[0].name == "0001-study-sessions-and-tags")
            let raw = try OldLibrary.make(at: path, migrations: 1)
            try raw.run("""
                INSERT INTO study_session VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001', '2026-11-01T09:00:00.000Z',
                    '2026-11-01T10:00:00.250Z', 3000.5, 60.1, 'timelapse', 5, '/v/a.mp4', '/v/a.jpg', '/v/a.faces.json', 'Chemistry', 1)
                """)
            try raw.run("INSERT INTO tag (name) VALUES ('exam'), ('chem')")
            try raw.run("INSERT INTO study_session_tag VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001', 2, 0), ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001', 1, 1)")
        }
        let library = try StudyLibrary(path: path)
        #expect(try library.appliedMigrations() == LibraryMigrations.all.map(\.name))
        let sessions = try library.sessions()
        #expect(sessions.count == 1)
        let s = try #require(sessions.first)
        #expect(s.id == UUID(uuidString: "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0001"))
        #expect(s.startedAt == Date(timeIntervalSince1970: 1_793_523_600))
        #expect(s.endedAt == Date(timeIntervalSince1970: 1_793_527_200.25))
        #expect(s.activeSeconds == 3000.5 && s.videoSeconds == 60.1 && s.mode == .timelapse && s.intervalSeconds == 5)
        #expect(s.filePath == "/v/a.mp4" && s.thumbnailPath == "/v/a.jpg" && s.faceTrackPath == "/v/a.faces.json")
        #expect(s.title == "Chemistry" && s.tags == ["chem", "exam"] && s.recovered)
        #expect(s.load == nil, "not measured before migration 0002")
        let fresh = try StudyLibrary(path: dir.path("fresh.sqlite"))
        for table in ["study_session", "tag", "study_session_tag", "daily_goal", "study_material"] {
            #expect(try library.connection.rows("PRAGMA table_info(\(table))") == fresh.connection.rows("PRAGMA table_info(\(table))"),
                    "\(table): the same columns as a library made new")
        }
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
