import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

@Suite("Study library: tags, goals, materials")
struct LibraryRecordsTests {
    func session(_ id: UUID = UUID(), tags: [String] = [], start: Double = 1_790_000_000) -> StudySession {
        StudySession(id: id, startedAt: Date(timeIntervalSince1970: start), endedAt: Date(timeIntervalSince1970: start + 600),
                     activeSeconds: 500, videoSeconds: 10, mode: .timelapse, intervalSeconds: 5,
                     filePath: "/v/a.mp4", thumbnailPath: nil, faceTrackPath: nil, title: nil, tags: tags)
    }

    @Test("tags: add once, list with session counts, tag and untag a session (order kept, twice changes nothing)")
    func tags() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        let a = session(tags: ["chem"]), b = session(tags: ["chem", "exam"], start: 1_790_001_000)
        do {
            let library = try StudyLibrary(path: path)
            try library.add(a)
            try library.add(b)
            #expect(try library.addTag(Tag("maths")))
            #expect(try !library.addTag(Tag("maths")))
            #expect(try library.addTag(Tag("Maths")), "exact spelling: another tag")
            #expect(try library.tag(session: a.id, with: "maths"))
            #expect(try library.tag(session: a.id, with: "exam"))
            #expect(try !library.tag(session: a.id, with: "exam"))
        }
        let library = try StudyLibrary(path: path)
        #expect(try library.tags() == [.init(name: "Maths", sessionCount: 0), .init(name: "chem", sessionCount: 2),
                                       .init(name: "exam", sessionCount: 2), .init(name: "maths", sessionCount: 1)])
        #expect(try library.sessions().first?.tags == ["chem", "maths", "exam"])
        #expect(try library.untag(session: a.id, from: "maths"))
        #expect(try !library.untag(session: a.id, from: "maths"))
        #expect(try library.sessions().first?.tags == ["chem", "exam"])
        #expect(try library.sessions().count == 2)
    }

    @Test("removing tags: unknown → error with a suggestion; in use → refused with the count unless forced; sessions stay")
    func removeTags() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let library = try StudyLibrary(path: dir.path("library.sqlite"))
        try library.add(session(tags: ["exam"]))
        try library.add(session(tags: ["exam"], start: 1_790_002_000))
        try library.addTag(Tag("spare"))
        #expect { try library.removeTag(named: "exma") } throws: { "\($0)" == "no tag 'exma' (did you mean 'exam'?)" }
        #expect { try library.removeTag(named: "exam") } throws: { "\($0)".contains("tag 'exam' is on 2 sessions; add --force") }
        #expect(try library.tags().map(\.name) == ["exam", "spare"], "a refusal changes nothing")
        #expect(try library.removeTag(named: "spare") == 0)
        #expect(try library.removeTag(named: "exam", force: true) == 2)
        #expect(try library.tags().isEmpty)
        #expect(try library.sessions().map(\.tags) == [[], []])
        #expect { try library.tag(session: library.sessions()[0].id, with: "exam") } throws: { "\($0)".contains("create it first: reel tags add 'exam'") }
        try library.addTag(Tag("exam"))
        #expect { try library.tag(session: UUID(), with: "exam") } throws: { "\($0)".contains("no session") }
    }

    @Test("goals: one per date, set again replaces, read back in date order")
    func goals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        do {
            let library = try StudyLibrary(path: path)
            try library.setGoal(DailyGoal(date: CalendarDay("2026-11-20"), minutes: 120))
            try library.setGoal(DailyGoal(date: CalendarDay("2026-11-01"), minutes: 90))
            try library.setGoal(DailyGoal(date: CalendarDay("2026-11-20"), minutes: 0))
        }
        let goals = try StudyLibrary(path: path).goals()
        #expect(goals == [try DailyGoal(date: CalendarDay("2026-11-01"), minutes: 90), try DailyGoal(date: CalendarDay("2026-11-20"), minutes: 0)])
        // The table itself refuses what the type refuses.
        let raw = try SQLiteConnection(path: path)
        #expect(throws: SQLiteError.self) { try raw.run("INSERT INTO daily_goal VALUES ('2026-1-1', 10)") }
        #expect(throws: SQLiteError.self) { try raw.run("INSERT INTO daily_goal VALUES ('2026-12-01', 2000)") }
    }

    @Test("materials: round trip, unique ISBN (several without one), remove by ISBN or id prefix")
    func materials() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        let book = try StudyMaterial(isbn: "978-0-306-40615-7", title: "Signals", author: "A. Author", publisher: "Plenum",
                                     coverPath: "/covers/a.jpg", addedAt: Date(timeIntervalSince1970: 1_790_000_000.5))
        let notes = try StudyMaterial(isbn: nil, title: "Lecture notes", addedAt: Date(timeIntervalSince1970: 1_790_000_100))
        let handout = try StudyMaterial(isbn: nil, title: "Handout", addedAt: Date(timeIntervalSince1970: 1_790_000_200))
        do {
            let library = try StudyLibrary(path: path)
            #expect(try library.addMaterial(book))
            #expect(try !library.addMaterial(book), "the same id twice changes nothing")
            #expect(try library.addMaterial(notes) && library.addMaterial(handout))
            let again = try StudyMaterial(isbn: "9780306406157", title: "Signals (copy)", addedAt: Date())
            #expect { try library.addMaterial(again) } throws: { "\($0)".contains("ISBN 9780306406157 is already in the library as 'Signals'") }
        }
        let library = try StudyLibrary(path: path)
        #expect(try library.materials() == [book, notes, handout])
        #expect(try library.removeMaterial("978-0-306-40615-7") == book)
        #expect(try library.removeMaterial(String(notes.id.uuidString.lowercased().prefix(6))) == notes)
        #expect { try library.removeMaterial("abc") } throws: { "\($0)".contains("at least 4 characters") }
        #expect { try library.removeMaterial("9780306406157") } throws: { "\($0)".contains("no material has the ISBN") }
        #expect(try library.materials() == [handout])
    }

    @Test("a library at migration 0002 with data migrates with no loss and gains goals and materials")
    func migratesSecondSchema() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("library.sqlite")
        // The library as an early Reel made it: migrations 0001 and 0002, a session with load, tags.
        do {
            #expect(LibraryMigrations.all.prefix(2).map(\.name) == ["0001-study-sessions-and-tags", "0002-session-load"])
            let raw = try OldLibrary.make(at: path, migrations: 2, appliedAt: "2026-11-20T00:00:00.000Z")
            try raw.run("""
                INSERT INTO study_session VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0002', '2026-11-20T09:00:00.000Z',
                    '2026-11-20T10:00:00.000Z', 3300, 66, 'full', NULL, '/v/b.mp4', NULL, NULL, NULL, 0, 0.42, 91.5, 12, 30.5, 'hot,behind real time')
                """)
            try raw.run("INSERT INTO tag (name) VALUES ('exam')")
            try raw.run("INSERT INTO study_session_tag VALUES ('0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0002', 1, 0)")
        }
        let library = try StudyLibrary(path: path)
        #expect(try library.appliedMigrations() == LibraryMigrations.all.map(\.name))
        let s = try #require(try library.sessions().first)
        #expect(s.id == UUID(uuidString: "0b8e2a1c-5a49-4a53-9d1c-2f6f9d0c0002") && s.mode == .full && s.intervalSeconds == nil)
        #expect(s.activeSeconds == 3300 && s.tags == ["exam"] && !s.recovered)
        #expect(s.load == RecordingLoad(cpuShare: 0.42, peakCelsius: 91.5, easedSeconds: 12, reducedSeconds: 30.5, reasons: ["hot", "behind real time"]))
        #expect(try library.tags() == [.init(name: "exam", sessionCount: 1)])
        #expect(try library.goals().isEmpty && library.materials().isEmpty)
        try library.setGoal(DailyGoal(date: CalendarDay("2026-11-21"), minutes: 60))
        #expect(try library.goals().count == 1)
        let fresh = try StudyLibrary(path: dir.path("fresh.sqlite"))
        // The same tables and indexes as a library made new (schema_migration aside: this test wrote its own).
        func dump(_ library: StudyLibrary) throws -> [String] {
            try library.schemaDump().components(separatedBy: "\n\n").filter { !$0.contains("schema_migration") }
        }
        #expect(try dump(library) == dump(fresh))
        #expect(try dump(library).count == 11)
    }
}
