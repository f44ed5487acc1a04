import Foundation
import ReelCore

/// The study library (docs/behaviour.md §1, Library and backup): one SQLite file, default
/// `$XDG_DATA_HOME/reel/library.sqlite`, in WAL mode with foreign keys on, its schema made by
/// ``LibraryMigrations`` (named, append-only). Every write is one `BEGIN IMMEDIATE`
/// transaction, so writers (the recorder finishing, `reel recover`) take turns and a reader
/// never sees half a session.
///
/// One connection, used from one thread at a time (open one per command).
public final class StudyLibrary {
    /// The database file.
    public let path: String
    /// The connection (for the library's own types and tests).
    public let connection: SQLiteConnection

    /// A library that cannot be used, with the path and what to do.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
        /// The library file does not exist (opened without `create`).
        public var isMissing = false
    }

    /// `$XDG_DATA_HOME/reel/library.sqlite`.
    public static func defaultPath(_ folders: XDGDirectories) -> String { folders.data + "/reel/library.sqlite" }

    /// Opens the library at `path`, applying every migration it lacks. With `create`, a missing
    /// file and its folder are made; without it, a missing library is an error that says so
    /// (``Error/isMissing``) and nothing is created. A library written by a newer Reel (a
    /// migration this one does not know) is refused, untouched.
    public init(path: String, create: Bool = true) throws(Error) {
        self.path = path
        if !create, !FileManager.default.fileExists(atPath: path) {
            throw Error(description: "library \(path) does not exist", isMissing: true)
        }
        let folder = (path as NSString).deletingLastPathComponent
        if create, !folder.isEmpty, !FileManager.default.fileExists(atPath: folder) {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Error(description: "library \(path): cannot create its folder (\((error as NSError).localizedFailureReason ?? error.localizedDescription))")
            }
        }
        do {
            connection = try SQLiteConnection(path: path, mode: create ? .create : .readWrite)
            try configure(journal: "wal")
        } catch let error as Error {
            throw error
        } catch {
            throw Error(description: "library \(path): \(error)")
        }
    }

    /// An empty library in memory, with the current schema: what a command that only reads
    /// sees where the default library does not exist yet (nothing is written to disk).
    public static func empty() throws(Error) -> StudyLibrary { try StudyLibrary(inMemory: ()) }

    private init(inMemory: Void) throws(Error) {
        path = ":memory:"
        do {
            connection = try SQLiteConnection(path: path, mode: .create)
            try configure(journal: "memory")
        } catch let error as Error {
            throw error
        } catch {
            throw Error(description: "an empty library in memory: \(error)")
        }
    }

    /// Whether a library file exists at `path`.
    public static func exists(at path: String) -> Bool { FileManager.default.fileExists(atPath: path) }

    private func configure(journal expected: String) throws {
        let mode = try connection.rows("PRAGMA journal_mode = WAL").first?.first?.text
        guard mode == expected else { throw SQLiteError(code: 0, message: "journal mode is \(mode ?? "unknown"), not \(expected)", context: "opening \(path)") }
        try connection.executeScript("PRAGMA foreign_keys = ON; PRAGMA synchronous = FULL")
        try migrate()
    }

    /// Names of the migrations applied, in order.
    public func appliedMigrations() throws(SQLiteError) -> [String] {
        var names: [String] = []
        for row in try connection.namedRows("SELECT position, name FROM schema_migration ORDER BY position",
                                            table: "schema_migration", keyColumn: "position") {
            names.append(try row.text("name"))
        }
        return names
    }

    private func migrate() throws {
        try connection.transaction {
            try connection.run("""
                CREATE TABLE IF NOT EXISTS schema_migration (
                    position INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, applied_at TEXT NOT NULL) STRICT
                """)
            let applied = try appliedMigrations()
            let known = LibraryMigrations.all.map(\.name)
            guard applied.count <= known.count, Array(known.prefix(applied.count)) == applied else {
                let unknown = applied.filter { !known.contains($0) }
                throw Error(description: "library \(path) was changed by a newer Reel (migrations \(unknown.isEmpty ? applied.joined(separator: ", ") : unknown.joined(separator: ", ")) unknown to this one); update Reel — the library is left as it is")
            }
            for (index, migration) in LibraryMigrations.all.enumerated().dropFirst(applied.count) {
                try connection.executeScript(migration.sql)
                try connection.run("INSERT INTO schema_migration (position, name, applied_at) VALUES (?, ?, ?)",
                                   [index + 1, migration.name, StudyLibrary.timestamp(Date())])
            }
        }
    }

    /// The schema as SQLite holds it (tables and indexes, sorted by name), for the golden file.
    public func schemaDump() throws(SQLiteError) -> String {
        try connection.rows("SELECT sql FROM sqlite_schema WHERE sql IS NOT NULL ORDER BY type DESC, name")
            .compactMap { $0.first?.text.map { $0 + ";\n" } }.joined(separator: "\n")
    }

    // MARK: Sessions

    /// Adds `session` with its tags (tags created by name when new). Returns false, changing
    /// nothing, when a session with its id is already there (so registering twice is safe).
    @discardableResult
    public func add(_ session: StudySession) throws(SQLiteError) -> Bool {
        do {
            return try connection.transaction {
                guard try connection.rows("SELECT 1 FROM study_session WHERE id = ?", [StudyLibrary.key(session.id)]).isEmpty else { return false }
                try insertSession(session)
                return true
            }
        } catch let error as SQLiteError {
            throw error
        } catch {
            throw SQLiteError(code: 1, message: "\(error)", context: "adding session \(session.id)")
        }
    }

    /// Inserts `session` and its tags (tags created by name when new), inside the caller's
    /// transaction; the id must not be in the library.
    func insertSession(_ session: StudySession) throws(SQLiteError) {
        try connection.run("""
            INSERT INTO study_session (id, started_at, ended_at, active_seconds, video_seconds, mode, interval_seconds,
                                       file_path, thumbnail_path, face_track_path, title, recovered,
                                       cpu_share, peak_celsius, eased_seconds, reduced_seconds, load_reasons)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """, [StudyLibrary.key(session.id), StudyLibrary.timestamp(session.startedAt), StudyLibrary.timestamp(session.endedAt),
                  session.activeSeconds, session.videoSeconds, session.mode.rawValue, session.intervalSeconds,
                  session.filePath, session.thumbnailPath, session.faceTrackPath, session.title, session.recovered,
                  session.load?.cpuShare, session.load?.peakCelsius, session.load?.easedSeconds, session.load?.reducedSeconds,
                  session.load.map { $0.reasons.joined(separator: ",") }])
        let addTag = try connection.prepare("INSERT INTO tag (name) VALUES (?) ON CONFLICT (name) DO NOTHING")
        let link = try connection.prepare("""
            INSERT INTO study_session_tag (session_id, tag_id, position) SELECT ?, id, ? FROM tag WHERE name = ?
            """)
        for (position, name) in session.tags.enumerated() {
            try addTag.run([name])
            try link.run([StudyLibrary.key(session.id), position, name])
        }
    }

    /// Whether a session with `id` is in the library.
    public func contains(_ id: UUID) throws(SQLiteError) -> Bool {
        try !connection.rows("SELECT 1 FROM study_session WHERE id = ?", [StudyLibrary.key(id)]).isEmpty
    }

    /// How many sessions the library holds (one query, no rows read).
    public func sessionCount() throws(SQLiteError) -> Int {
        guard case .integer(let count)? = try connection.rows("SELECT count(*) FROM study_session").first?.first else { return 0 }
        return Int(count)
    }

    /// Every session, oldest first, with its tags. A row that cannot be read is an error
    /// naming the table, the row's id and the column (``SQLiteRow``), never a row left out.
    public func sessions() throws(SQLiteError) -> [StudySession] {
        try sessions(where: nil)
    }

    /// The session `id` with its tags, nil when the library does not hold it (one row read).
    public func session(_ id: UUID) throws(SQLiteError) -> StudySession? {
        try sessions(where: StudyLibrary.key(id)).first
    }

    private func sessions(where id: String?) throws(SQLiteError) -> [StudySession] {
        let only = id == nil ? "" : " WHERE st.session_id = ?"
        let tagRows = try connection.namedRows("""
            SELECT st.session_id, t.name FROM study_session_tag st JOIN tag t ON t.id = st.tag_id\(only) ORDER BY st.session_id, st.position
            """, id.map { [$0] } ?? [], table: "study_session_tag", keyColumn: "session_id")
        var tags: [String: [String]] = [:]
        for row in tagRows { tags[try row.text("session_id"), default: []].append(try row.text("name")) }
        var sessions: [StudySession] = []
        for row in try connection.namedRows("""
            SELECT id, started_at, ended_at, active_seconds, video_seconds, mode, interval_seconds,
                   file_path, thumbnail_path, face_track_path, title, recovered,
                   cpu_share, peak_celsius, eased_seconds, reduced_seconds, load_reasons
            FROM study_session\(id == nil ? "" : " WHERE id = ?") ORDER BY started_at, id
            """, id.map { [$0] } ?? [], table: "study_session") {
            sessions.append(try Self.session(row, tags: tags[try row.text("id")] ?? []))
        }
        return sessions
    }

    /// One `study_session` row as a session.
    static func session(_ row: SQLiteRow, tags: [String]) throws(SQLiteError) -> StudySession {
        let eased = try row.optionalDouble("eased_seconds")
        let load = try eased.map { eased throws(SQLiteError) in
            RecordingLoad(cpuShare: try row.optionalDouble("cpu_share"), peakCelsius: try row.optionalDouble("peak_celsius"),
                          easedSeconds: eased, reducedSeconds: try row.optionalDouble("reduced_seconds") ?? 0,
                          reasons: (try row.optionalText("load_reasons") ?? "").split(separator: ",").map(String.init))
        }
        return StudySession(
            id: try row.parsed("id", as: "a UUID", UUID.init(uuidString:)),
            startedAt: try row.parsed("started_at", as: "a date", StudyLibrary.date),
            endedAt: try row.parsed("ended_at", as: "a date", StudyLibrary.date),
            activeSeconds: try row.optionalDouble("active_seconds") ?? 0, videoSeconds: try row.optionalDouble("video_seconds") ?? 0,
            mode: try row.parsed("mode", as: "a recording mode", RecordingMode.init(rawValue:)),
            intervalSeconds: try row.optionalDouble("interval_seconds"), filePath: try row.text("file_path"),
            thumbnailPath: try row.optionalText("thumbnail_path"), faceTrackPath: try row.optionalText("face_track_path"),
            title: try row.optionalText("title"), tags: tags, recovered: try row.optionalInteger("recovered") == 1, load: load)
    }

    /// Every tag name, sorted.
    public func tagNames() throws(SQLiteError) -> [String] {
        var names: [String] = []
        for row in try connection.namedRows("SELECT id, name FROM tag ORDER BY name", table: "tag") { names.append(try row.text("name")) }
        return names
    }

    // MARK: Encoding

    /// Ids are stored as lowercase UUID text.
    static func key(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// Dates are stored as ISO 8601 UTC text with milliseconds (sorts as text), rounded to the
    /// nearest: a session read and written again (put back from the Trash, restored) keeps its
    /// text to the millisecond.
    static func timestamp(_ date: Date) -> String { StudySessionJSON.timestamp(date) }

    static func date(_ text: String) -> Date? {
        try? Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!).parse(text)
    }
}
