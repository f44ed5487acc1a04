import Foundation
import ReelCore
import ReelStore

/// The study library as the studio reads and changes it: ReelStore's ``StudyLibrary`` and
/// ``SessionTrash``, the same calls `reel sessions` makes, over one connection kept open and
/// used under a lock (a connection is for one thread at a time; requests come on many).
///
/// The connection opens on first use once the library file exists (the first recording makes
/// it); before that the library reads as empty and nothing is created. A recording that ends
/// adds its session through its own connection: SQLite's WAL shows it to the next read here.
final class StudioLibrary: @unchecked Sendable {
    let path: String
    /// The freedesktop Trash that `trash` moves sessions into (`$XDG_DATA_HOME/Trash`).
    let trash: FreedesktopTrash
    /// The connection, once opened; only touched while `lock` is held.
    private var connection: StudyLibrary?
    private let lock = NSLock()

    init(path: String, dataFolder: String) {
        self.path = path
        trash = FreedesktopTrash(dataFolder: dataFolder)
    }

    /// Runs `body` with the open library, opening it first if need be; `nil` (and `body` not
    /// run) while no library file exists and `create` is false.
    func withOpen<T>(create: Bool = false, _ body: (StudyLibrary) throws -> T) throws(StudioRefusal) -> T? {
        do {
            return try lock.withLock { () throws -> T? in
                if connection == nil {
                    guard create || StudyLibrary.exists(at: path) else { return nil }
                    connection = try StudyLibrary(path: path, create: create)
                }
                return try body(connection!)
            }
        } catch let refusal as StudioRefusal {
            throw refusal
        } catch let error as SessionTrash.Error {
            throw StudioRefusal(status: 409, message: error.description)
        } catch let error as StudySession.LookupError {
            throw StudioRefusal(status: 404, message: "\(error)")
        } catch {
            throw StudioRefusal(status: 500, message: "library \(path): \(error)")
        }
    }

    // MARK: Reading

    /// The status panel's part: the count only (one query on the open connection).
    func summary() -> StudioStatus.Library {
        do {
            let count = try withOpen { try $0.sessionCount() }
            return StudioStatus.Library(path: path, sessions: count ?? 0, problem: nil)
        } catch {
            return StudioStatus.Library(path: path, sessions: nil, problem: error.message)
        }
    }

    /// `GET /api/sessions`: the sessions `filter` lets through, newest first, with every tag
    /// and the library's total, as one line of JSON. An unknown tag is refused as
    /// `reel sessions --tag` refuses it.
    func sessionsJSON(_ filter: StudySessionFilter) throws(StudioRefusal) -> String {
        let read: (sessions: [StudySession], tags: [StudyLibrary.TagUsage], total: Int) = try withOpen { library in
            let tags = try library.tags()
            if let name = filter.tag, !tags.contains(where: { $0.name == name }) {
                throw StudioRefusal(status: 400, message: try library.unknownTagMessage(name))
            }
            let all = try library.sessions()
            return (sessions: all.reversed().filter(filter.matches), tags: tags, total: all.count)
        } ?? (sessions: [], tags: [], total: 0)
        // {"sessions":[…],"tags":[…],"total":n}, the sessions written by hand (a thousand in a
        // few milliseconds; JSONEncoder took about 45).
        var out = Array(#"{"sessions":"#.utf8)
        out.reserveCapacity(read.sessions.count * 640 + 256)
        StudySessionJSONWriter.append(read.sessions, to: &out)
        out.append(contentsOf: Array(#","tags":"#.utf8))
        out.append(contentsOf: Array(StudioJSON.line(read.tags.map { TagCount(name: $0.name, sessions: $0.sessionCount) }).utf8))
        out.append(contentsOf: Array(#","total":\#(read.total)}"#.utf8))
        return String(decoding: out, as: UTF8.self)
    }

    /// The session `id`; 404 when the library does not hold it.
    func session(_ id: UUID) throws(StudioRefusal) -> StudySession {
        let found = try withOpen { library in try library.session(id) }
        guard let found = found ?? nil else { throw Self.unknown(id) }
        return found
    }

    /// `GET /api/tags`: every tag with how many sessions carry it.
    func tagsJSON() throws(StudioRefusal) -> String {
        let tags = try withOpen { try $0.tags() } ?? []
        return StudioJSON.line(tags.map { TagCount(name: $0.name, sessions: $0.sessionCount) })
    }

    /// `GET /api/stats`: the week or month containing `day`, as `reel stats` computes it.
    func stats(_ period: StudyStats.Period, containing day: CalendarDay, timeZone: TimeZone = .current) throws(StudioRefusal) -> StudyStats {
        let today = CalendarDay(containing: Date(), in: timeZone)
        let read = try withOpen { library in (try library.sessions(), try library.goals()) }
        return StudyStats(period: period, containing: day, today: today, sessions: read?.0 ?? [], goals: read?.1 ?? [], timeZone: timeZone)
    }

    /// `GET /api/goals`: every goal, oldest first.
    func goals() throws(StudioRefusal) -> [DailyGoal] {
        try withOpen { try $0.goals() } ?? []
    }

    /// `GET /api/materials`: every material, as `reel materials ls`.
    func materials() throws(StudioRefusal) -> [StudyMaterial] {
        try withOpen { try $0.materials() } ?? []
    }

    // MARK: Changing

    /// `POST /api/materials/ID/remove`: the material out of the library (its cover file stays).
    func removeMaterial(_ id: UUID) throws(StudioRefusal) -> StudyMaterial {
        let removed = try withOpen { library -> StudyMaterial in
            guard try library.materials().contains(where: { $0.id == id }) else {
                throw StudioRefusal(status: 404, message: "no material \(id.uuidString.lowercased()) in the library")
            }
            return try library.removeMaterial(id.uuidString.lowercased())
        }
        guard let removed else { throw StudioRefusal(status: 404, message: "no material \(id.uuidString.lowercased()) in the library") }
        return removed
    }

    /// `POST /api/goals`: the goal from its day on, as `reel goal set`; every goal after.
    func setGoal(_ goal: DailyGoal) throws(StudioRefusal) -> [DailyGoal] {
        try withOpen(create: true) { library in
            try library.setGoal(goal)
            return try library.goals()
        } ?? []
    }

    /// `POST /api/tags`: makes the tag (the rule of ``Tag``); whether it is new.
    func addTag(_ name: String) throws(StudioRefusal) -> Bool {
        let tag: Tag
        do { tag = try Tag(name) } catch { throw StudioRefusal(status: 400, message: "'\(name)' cannot be a tag: \(error)") }
        return try withOpen(create: true) { try $0.addTag(tag) } ?? false
    }

    /// `POST /api/sessions/ID/edit`: title and tags in one transaction, as `reel sessions edit`;
    /// refused with 412 when `ifMatch` names another version than the session's (``StudioVersion``).
    func edit(_ id: UUID, _ edit: StudyLibrary.SessionEdit, ifMatch: String? = nil) throws(StudioRefusal) -> StudySession {
        let edited = try withOpen { library throws -> StudySession in
            guard let current = try library.session(id) else { throw Self.unknown(id) }
            try StudioVersion.check(ifMatch, current: StudioVersion.of(current), what: "the session")
            do {
                return try library.editSession(id, edit)
            } catch let error as StudyLibrary.Error {
                throw StudioRefusal(status: 400, message: error.description)
            }
        }
        guard let edited else { throw Self.unknown(id) }
        return edited
    }

    /// `POST /api/sessions/ID/trash`: the session's files and record to the Trash, as
    /// `reel sessions rm`; what went where.
    func moveToTrash(_ id: UUID) throws(StudioRefusal) -> TrashedSession {
        let record = try withOpen { library throws -> TrashedSession in
            guard let found = try library.session(id) else { throw Self.unknown(id) }
            return try SessionTrash(library: library, trash: trash).remove(found)
        }
        guard let record else { throw Self.unknown(id) }
        return record
    }

    /// `POST /api/sessions/ID/untrash`: a session the Trash holds, back in its place, as
    /// `reel sessions untrash`.
    func putBack(_ id: UUID) throws(StudioRefusal) -> StudySession {
        let record = try withOpen(create: true) { library in
            let removals = SessionTrash(library: library, trash: trash)
            guard removals.trashed().contains(where: { $0.record.session.id == id }) else {
                throw StudioRefusal(status: 404, message: "session \(id.uuidString.lowercased()) is not in the Trash (\(trash.homeTrash)): "
                                    + "put back already, or the Trash was emptied")
            }
            return try removals.putBack(id.uuidString.lowercased())
        }
        guard let record else { throw Self.unknown(id) }
        return record.session
    }

    /// `GET /api/trash`: the sessions the Trash holds (as `reel sessions trash` lists them), newest
    /// removal first.
    func trashed() throws(StudioRefusal) -> [StudySessionJSON] {
        let found = try withOpen { library in
            SessionTrash(library: library, trash: trash).trashed().map { StudySessionJSON($0.record.session) }
        } ?? []
        return found.reversed()
    }

    static func unknown(_ id: UUID) -> StudioRefusal {
        StudioRefusal(status: 404, message: "no session \(id.uuidString.lowercased()) in the library (removed, or never recorded here)")
    }
}

/// A tag and how many sessions carry it, in `GET /api/sessions` and `GET /api/tags`.
struct TagCount: Encodable {
    var name: String
    var sessions: Int
}
