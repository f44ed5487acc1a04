import Foundation
import ReelCore
import ReelHTTP
import ReelStore

/// The library page's routes: the sessions, their pictures and videos, tags, edits, the Trash.
extension StudioServer {
    func answerLibrary(_ route: LibraryRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .sessions:
            return json(try library.sessionsJSON(try Self.filter(request)))
        case .addTag:
            let made = try library.addTag((try decode(body) as TagRequest).name)
            libraryChanged()
            return json(try library.tagsJSON(), status: made ? 201 : 200)
        case .tags:
            return json(try library.tagsJSON())
        case .session(let id):
            let session = try library.session(id)
            return json(StudioJSON.line(SessionAnswer(session: session)), version: StudioVersion.of(session))
        case .thumbnail(let id):
            let session = try library.session(id)
            guard let path = session.thumbnailPath else { throw StudioRefusal(status: 404, message: "session \(id.uuidString.lowercased()) has no thumbnail") }
            return try SessionFile.serve(path, request: request, contentType: "image/jpeg",
                                         cacheControl: "private, max-age=3600")
        case .video(let id):
            return try SessionFile.serve(try library.session(id).filePath, request: request, contentType: "video/mp4",
                                         cacheControl: "private, no-cache")
        case .edit(let id):
            let edited = try library.edit(id, try (decode(body) as EditRequest).edit(), ifMatch: request.header("If-Match"))
            libraryChanged()
            return json(StudioJSON.line(SessionAnswer(session: edited)), version: StudioVersion.of(edited))
        case .trash(let id):
            let record = try library.moveToTrash(id)
            libraryChanged()
            return json(StudioJSON.line(TrashAnswer(session: StudySessionJSON(record.session), files: record.files.map(\.originalPath))))
        case .untrash(let id):
            let session = try library.putBack(id)
            libraryChanged()
            return json(StudioJSON.line(SessionAnswer(session: session)))
        case .trashed:
            return json(StudioJSON.line(TrashListAnswer(sessions: try library.trashed())))
        case .stats:
            let (period, day) = try Self.period(request)
            return json(try Self.encoded(StudyStatsJSON(try library.stats(period, containing: day))))
        case .statsChart:
            let (period, day) = try Self.period(request)
            let svg = StudyStatsChart(try library.stats(period, containing: day)).svg()
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/svg+xml")], body: .bytes(Array(svg.utf8)))
        case .setGoal:
            let request = try decode(body) as GoalRequest
            let day = try request.day()
            let goal: DailyGoal
            do { goal = try DailyGoal(date: day, minutes: request.minutes) } catch {
                throw StudioRefusal(status: 400, message: error.description)
            }
            let goals = try library.setGoal(goal)
            libraryChanged()
            return json(StudioJSON.line(goals.map(GoalAnswer.init)))
        case .goals:
            return json(StudioJSON.line(try library.goals().map(GoalAnswer.init)))
        }
    }

    /// `?tag=NAME&since=YYYY-MM-DD&until=YYYY-MM-DD` (days local to the studio, both included),
    /// checked as `reel sessions --tag --since --until` checks them.
    static func filter(_ request: HTTPRequest) throws(StudioRefusal) -> StudySessionFilter {
        func day(_ name: String) throws(StudioRefusal) -> CalendarDay? {
            guard let text = request.query(name), !text.isEmpty else { return nil }
            do { return try CalendarDay(text) } catch {
                throw StudioRefusal(status: 400, message: "\(name)=\(text) is not a day (YYYY-MM-DD): \(error)")
            }
        }
        var tag: String?
        if let text = request.decodedQuery("tag"), !text.isEmpty {
            do { tag = try Tag(text).name } catch { throw StudioRefusal(status: 400, message: "tag=\(text) is not a tag name: \(error)") }
        }
        let filter = StudySessionFilter(tag: tag, since: try day("since"), until: try day("until"), timeZone: .current)
        if filter.isEmptyRange { throw StudioRefusal(status: 400, message: "until is before since: the range holds no day") }
        return filter
    }

    /// `?period=week|month` (week when absent) and `?date=YYYY-MM-DD` (today when absent).
    static func period(_ request: HTTPRequest) throws(StudioRefusal) -> (StudyStats.Period, CalendarDay) {
        let text = request.query("period") ?? "week"
        guard let period = StudyStats.Period(rawValue: text) else {
            throw StudioRefusal(status: 400, message: "period=\(text) is neither week nor month")
        }
        guard let dayText = request.query("date"), !dayText.isEmpty else { return (period, CalendarDay(containing: Date(), in: .current)) }
        do { return (period, try CalendarDay(dayText)) } catch {
            throw StudioRefusal(status: 400, message: "date=\(dayText) is not a day (YYYY-MM-DD): \(error)")
        }
    }

    static func encoded(_ value: some Encodable) throws(StudioRefusal) -> String {
        do { return String(decoding: try StudySessionJSON.encoder(pretty: false).encode(value), as: UTF8.self) } catch {
            throw StudioRefusal(status: 500, message: "the answer could not be written as JSON: \(error)")
        }
    }

    /// A JSON answer with the version it shows (`ETag`), which an edit of it sends back as `If-Match`.
    func json(_ text: String, version: EntityTag) -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("ETag", version.headerValue)],
                     body: .bytes(Array(text.utf8)))
    }

    /// Tells every tab the library changed (it reloads what it shows).
    func libraryChanged() {
        events.publish(.library, data: "{}")
    }
}

/// A file of a session sent from its descriptor: the whole, or the one byte range asked for
/// (a `<video>` element seeks with ranges).
enum SessionFile {
    static func serve(_ path: String, request: HTTPRequest, contentType: String, cacheControl: String,
                      extraHeaders: [(String, String)] = []) throws(StudioRefusal) -> HTTPResponse {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let reason = String(cString: strerror(errno))
            throw StudioRefusal(status: errno == ENOENT ? 404 : 500, message: "\(path) cannot be read: \(reason)")
        }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw StudioRefusal(status: 404, message: "\(path) is not a file")
        }
        let size = Int64(info.st_size)
        let headers = [("Content-Type", contentType), ("Accept-Ranges", "bytes"), ("Cache-Control", cacheControl)] + extraHeaders
        let rangeHeader = request.header("Range")
        let range = ByteRange(header: rangeHeader, length: size)
        switch range {
        case .whole:
            guard size > 0 else {
                close(fd)
                return HTTPResponse(status: 200, headers: headers)
            }
            return HTTPResponse(status: 200, headers: headers, body: .file(fd: fd, offset: 0, count: size))
        case .partial(let offset, let count):
            return HTTPResponse(status: 206, headers: headers + [("Content-Range", range.contentRange(length: size)!)],
                                body: .file(fd: fd, offset: offset, count: count))
        case .unsatisfiable:
            close(fd)
            return .text(416, "the Range \(rangeHeader ?? "") is outside the \(size) bytes of \(path)",
                         headers: [("Content-Range", range.contentRange(length: size)!)])
        }
    }
}

/// `GET /api/sessions/ID` and the answer of an edit or a putting back.
struct SessionAnswer: Encodable {
    var session: StudySessionJSON

    init(session: StudySession) { self.session = StudySessionJSON(session) }
}

/// `POST /api/sessions/ID/trash`: the session as it was and the files that went to the Trash.
struct TrashAnswer: Encodable {
    var session: StudySessionJSON
    var files: [String]
}

/// `GET /api/trash`: the sessions the Trash holds, newest removal first.
struct TrashListAnswer: Encodable {
    var sessions: [StudySessionJSON]
}

/// The body of `POST /api/goals`: `{"minutes": 90, "date": "YYYY-MM-DD"}` (date: today when
/// left out); 0 minutes means no goal from that day.
struct GoalRequest: Decodable {
    var minutes: Int
    var date: String?

    func day() throws(StudioRefusal) -> CalendarDay {
        guard let date, !date.isEmpty else { return CalendarDay(containing: Date(), in: .current) }
        do { return try CalendarDay(date) } catch {
            throw StudioRefusal(status: 400, message: "\(date) is not a day (YYYY-MM-DD): \(error)")
        }
    }
}

/// One goal, as `reel goal ls --json` writes it.
struct GoalAnswer: Encodable {
    var date: String
    var minutes: Int

    init(_ goal: DailyGoal) {
        date = goal.date.description
        minutes = goal.minutes
    }
}

/// The body of `POST /api/tags`.
struct TagRequest: Decodable {
    var name: String
}

/// The body of `POST /api/sessions/ID/edit`: `{"title": "…" | null, "addTags": [], "removeTags": []}`;
/// a key left out changes nothing, `"title": null` removes the title.
struct EditRequest: Decodable {
    var title: String??
    var addTags: [String]?
    var removeTags: [String]?

    enum CodingKeys: String, CodingKey { case title, addTags, removeTags }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = c.contains(.title) ? .some(try c.decodeNil(forKey: .title) ? nil : try c.decode(String.self, forKey: .title)) : nil
        addTags = try c.decodeIfPresent([String].self, forKey: .addTags)
        removeTags = try c.decodeIfPresent([String].self, forKey: .removeTags)
    }

    /// The library's edit, each name checked by the rule `reel sessions edit` uses; an empty
    /// edit is refused.
    func edit() throws(StudioRefusal) -> StudyLibrary.SessionEdit {
        var edit = StudyLibrary.SessionEdit()
        if let title {
            if let text = title, !text.isEmpty {
                do { edit.title = .some(try LibraryName.validate(text, as: .title)) } catch {
                    throw StudioRefusal(status: 400, message: "the title cannot be used: \(error)")
                }
            } else {
                edit.title = .some(nil)
            }
        }
        for name in addTags ?? [] {
            do { edit.addTags.append(try Tag(name).name) } catch { throw StudioRefusal(status: 400, message: "'\(name)' is not a tag name: \(error)") }
        }
        edit.removeTags = removeTags ?? []
        guard !edit.isEmpty else { throw StudioRefusal(status: 400, message: "the edit changes nothing: give title, addTags or removeTags") }
        return edit
    }
}
