import Foundation
import ReelCore
import ReelHTTP

/// The cinematic camera's routes (`/api/cinematic…`, docs/studio.md).
extension StudioServer {
    func answerCinematic(_ route: StudioRoute, request: HTTPRequest, body: [UInt8]?) -> HTTPResponse {
        do throws(StudioRefusal) {
            let post = request.method == "POST"
            switch route {
            case .cinematic where post:
                let command: CinematicCommand = try decode(body)
                return json(StudioJSON.line(try cinematic.command(command.command)))
            case .cinematic:
                return json(StudioJSON.line(cinematic.snapshot()))
            case .cinematicPreview:
                return previewStream(request, feed: cinematic.feed) { [cinematic] in cinematic.tick() }
            case .cinematicRecord:
                let asked: CinematicRecordRequest = body?.isEmpty ?? true ? CinematicRecordRequest() : try decode(body)
                return json(StudioJSON.line(try cinematic.startClip(editable: asked.editable ?? true)), status: 201)
            case .cinematicRecordStop:
                return json(StudioJSON.line(try cinematic.stopClip()))
            case .cinematicStill:
                return json(StudioJSON.line(try cinematic.still()), status: 201)
            case .cinematicClips:
                return json(StudioJSON.line(cinematicClips.list(excluding: cinematic.clip.recordingName)))
            case .cinematicClip(let name):
                return try SessionFile.serve(try cinematicClips.clipPath(name), request: request, contentType: "video/mp4", cacheControl: "no-store",
                                             extraHeaders: request.query("download") == "1" ? [("Content-Disposition", "attachment; filename=\"\(name)\"")] : [])
            case .cinematicTimeline(let name):
                return json(StudioJSON.line(try cinematicClips.timeline(name)))
            case .cinematicStillFile(let name):
                return try SessionFile.serve(try cinematicClips.stillPath(name), request: request, contentType: "image/jpeg", cacheControl: "no-store")
            case .cinematicRefocus where post:
                return json(StudioJSON.line(try cinematicClips.refocus(try decode(body))), status: 202)
            case .cinematicRefocus:
                return json(StudioJSON.line(cinematicClips.refocusJob))
            case .cinematicRefocusStop:
                return json(StudioJSON.line(try cinematicClips.stopRefocus()))
            default:
                return .text(404, "no such API")
            }
        } catch {
            return .text(error.status, error.message)
        }
    }
}
