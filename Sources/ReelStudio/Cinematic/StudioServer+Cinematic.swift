import Foundation
import ReelCore
import ReelHTTP

/// The cinematic camera's routes (`/api/cinematic…`, docs/studio.md).
extension StudioServer {
    func answerCinematic(_ route: CinematicRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .command:
            let command: CinematicCommand = try decode(body)
            return json(StudioJSON.line(try cinematic.command(command.command)))
        case .state:
            return json(StudioJSON.line(cinematic.snapshot()))
        case .preview:
            return previewStream(request, feed: cinematic.feed) { [cinematic] in cinematic.tick() }
        case .record:
            let asked: CinematicRecordRequest = body?.isEmpty ?? true ? CinematicRecordRequest() : try decode(body)
            return json(StudioJSON.line(try cinematic.startClip(editable: asked.editable ?? true)), status: 201)
        case .stopRecord:
            return json(StudioJSON.line(try cinematic.stopClip()))
        case .still:
            return json(StudioJSON.line(try cinematic.still()), status: 201)
        case .clips:
            return json(StudioJSON.line(cinematicClips.list(excluding: cinematic.clip.recordingName)))
        case .clip(let name):
            return try SessionFile.serve(try cinematicClips.clipPath(name), request: request, contentType: "video/mp4", cacheControl: "no-store",
                                         extraHeaders: request.query("download") == "1" ? [("Content-Disposition", "attachment; filename=\"\(name)\"")] : [])
        case .timeline(let name):
            return json(StudioJSON.line(try cinematicClips.timeline(name)))
        case .stillFile(let name):
            return try SessionFile.serve(try cinematicClips.stillPath(name), request: request, contentType: "image/jpeg", cacheControl: "no-store")
        case .refocus:
            return json(StudioJSON.line(try cinematicClips.refocus(try decode(body))), status: 202)
        case .refocusJob:
            return json(StudioJSON.line(cinematicClips.refocusJob))
        case .stopRefocus:
            return json(StudioJSON.line(try cinematicClips.stopRefocus()))
        }
    }
}
