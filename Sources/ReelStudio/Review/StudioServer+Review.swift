import Foundation
import ReelCore
import ReelExport
import ReelHTTP

/// The review and export pages' routes: a session's face segments and their edits, its
/// pictures (plain, outlined, rendered), the stamp images, and the export or vlog job.
extension StudioServer {
    func answerReview(_ route: ReviewRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .editSegment(let id):
            let answer = try review.edit(id, try decode(body), ifMatch: request.header("If-Match"))
            return json(try Self.encoded(answer), version: StudioVersion.of(answer.segments))
        case .segments(let id):
            let answer = try review.document(id)
            return json(try Self.encoded(answer), version: StudioVersion.of(answer.segments))
        case .frame(let id):
            let (time, view, width) = try Self.frameQuery(request)
            let jpeg = try review.frame(id, at: time, view: view, width: width)
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg")], body: .bytes([UInt8](jpeg)))
        case .addStamp:
            guard let body, !body.isEmpty else { throw StudioRefusal(status: 400, message: "the stamp's PNG is the request's body; it was empty") }
            return json(try Self.encoded(try stamps.add(original: request.decodedQuery("name"), bytes: body)), status: 201)
        case .stamps:
            return json(try Self.encoded(StampsAnswer(stamps: stamps.list())))
        case .stamp(let name):
            return try SessionFile.serve(try stamps.path(of: name), request: request, contentType: "image/png", cacheControl: "private, no-cache")
        case .export:
            let asked = try decode(body) as ExportRequest
            let session = try library.session(try asked.sessionID())
            return json(try Self.encoded(try exports.export(session, size: try asked.exportSize(), caption: asked.caption ?? false)), status: 202)
        case .job:
            return json(try Self.encoded(exports.current))
        case .vlog:
            let asked = try decode(body) as VlogRequest
            let sessions = try library.withOpen { try $0.sessions() } ?? []
            let week = VlogWeek(try asked.choice(), now: Date(), timeZone: .current, sessions: sessions)
            return json(try Self.encoded(try exports.vlog(week, layout: try asked.shape())), status: 202)
        case .stop:
            return json(try Self.encoded(exports.cancel()))
        case .file:
            guard let path = exports.finishedOutput else {
                throw StudioRefusal(status: 404, message: "no finished export or vlog to send (GET /api/export says what the job is doing)")
            }
            let download = request.query("download") == "1"
                ? [("Content-Disposition", "attachment; filename=\"\((path as NSString).lastPathComponent)\"")] : []
            return try SessionFile.serve(path, request: request, contentType: "video/mp4", cacheControl: "private, no-cache", extraHeaders: download)
        }
    }

    /// `?t=SECONDS&view=plain|boxes|mosaic&width=PX` (0, plain, 960 when absent).
    static func frameQuery(_ request: HTTPRequest) throws(StudioRefusal) -> (MediaTime, ReviewFrame.View, Int) {
        let timeText = request.query("t") ?? "0"
        guard let seconds = Double(timeText), seconds.isFinite, seconds >= 0, seconds < 1e7 else {
            throw StudioRefusal(status: 400, message: "t=\(timeText) is not a time in seconds from the start (0 or more)")
        }
        let viewText = request.query("view") ?? "plain"
        guard let view = ReviewFrame.View(rawValue: viewText) else {
            throw StudioRefusal(status: 400, message: "view=\(viewText) is none of plain, boxes, mosaic")
        }
        let widthText = request.query("width") ?? "960"
        guard let width = Int(widthText), (64...1920).contains(width) else {
            throw StudioRefusal(status: 400, message: "width=\(widthText) is not a width from 64 to 1920 pixels")
        }
        return (MediaTime(seconds: seconds), view, width)
    }
}

/// `GET /api/stamps`.
struct StampsAnswer: Encodable {
    var stamps: [StudioStamps.Answer]
}

/// The body of `POST /api/export`: `{"session": ID, "size": "1080p", "caption": true}`.
struct ExportRequest: Decodable {
    var session: String
    var size: String?
    var caption: Bool?

    func sessionID() throws(StudioRefusal) -> UUID {
        guard let id = UUID(uuidString: session) else { throw StudioRefusal(status: 400, message: "session \(session) is not a session's id") }
        return id
    }

    func exportSize() throws(StudioRefusal) -> ExportSettings.Size {
        guard let size else { return .p1080 }
        guard let known = ExportSettings.Size(rawValue: size) else {
            throw StudioRefusal(status: 400, message: "size \(size) is none of \(ExportSettings.Size.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return known
    }
}

/// The body of `POST /api/vlog`: `{"week": "this"|"last", "layout": "vertical"|"horizontal"}`.
struct VlogRequest: Decodable {
    var week: String?
    var layout: String?

    func choice() throws(StudioRefusal) -> VlogWeek.Choice {
        guard let choice = VlogWeek.Choice(rawValue: week ?? "last") else { throw StudioRefusal(status: 400, message: "week \(week ?? "") is neither this nor last") }
        return choice
    }

    func shape() throws(StudioRefusal) -> WeeklyVlog.Layout {
        guard let shape = WeeklyVlog.Layout(rawValue: layout ?? "vertical") else {
            throw StudioRefusal(status: 400, message: "layout \(layout ?? "") is neither vertical nor horizontal")
        }
        return shape
    }
}
