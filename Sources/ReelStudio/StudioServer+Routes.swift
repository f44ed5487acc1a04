import Foundation
import ReelCore
import ReelHTTP
import ReelMedia
import ReelRuntime

/// What each route answers. Everything passes ``StudioAccess`` first; a request with a body is
/// judged (gate, length) before any body byte is read.
extension StudioServer {
    /// Headers on every answer: a Content Security Policy without inline script or style
    /// (the page's code is `/assets/app.js`), no framing, no sniffing, no referrer; nothing
    /// for CORS, ever.
    static let securityHeaders: [(String, String)] = [
        ("Content-Security-Policy", "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
            + "media-src 'self' blob:; connect-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; "
            + "form-action 'self'"),
        ("X-Content-Type-Options", "nosniff"),
        ("X-Frame-Options", "DENY"),
        ("Referrer-Policy", "no-referrer"),
        ("Cross-Origin-Opener-Policy", "same-origin"),
        ("Cross-Origin-Resource-Policy", "same-origin"),
        ("Cache-Control", "no-store"),
    ]

    public func begin(_ request: HTTPRequest) -> HTTPStart {
        if let refusal = admit(request) { return .respond(secured(refusal)) }
        if request.header("Content-Length").map({ $0.trimmingCharacters(in: .whitespaces) != "0" }) ?? false
            || request.header("Transfer-Encoding") != nil {
            // A stamp and an artwork are pictures (each with its own bound); everything else is a
            // little JSON. A body is held in memory up to its bound.
            let policy = switch try? StudioRoute(method: request.method, path: request.path) {
            case .review(.addStamp): stampUploads
            case .overlay(.importAsset): assetUploads
            default: uploads
            }
            switch policy.decide(contentLength: request.header("Content-Length"), transferEncoding: request.header("Transfer-Encoding")) {
            case .accept(let length): return .receive(BoundedBody(capacity: length))
            case .lengthRequired: return .respond(secured(.text(411, "a request body needs a Content-Length (no chunked bodies)")))
            case .tooLarge: return .respond(secured(.text(413, "a request body may have at most \(policy.maxBodyBytes) bytes")))
            case .invalidLength: return .respond(secured(.text(400, "the Content-Length is not a number")))
            }
        }
        return .respond(secured(answer(request, body: nil)))
    }

    public func finishUpload(_ upload: any HTTPUpload, request: HTTPRequest) -> HTTPResponse {
        secured(answer(request, body: (upload as? BoundedBody)?.bytes))
    }

    /// The gate: nil lets the request through; else the refusal (or the exchange of a token or
    /// sign-in code for a session). Only wrong tokens and codes count against their address:
    /// after too many lately, further wrong ones get 429. A request with no credential is 401
    /// and never counted, and a right token or code is never throttled (everything on loopback
    /// shares 127.0.0.1: no other process must be able to lock the browser out).
    func admit(_ request: HTTPRequest) -> HTTPResponse? {
        let head = StudioAccess.Request(method: request.method, path: request.path, host: request.header("Host"),
                                        origin: request.header("Origin"), fetchSite: request.header("Sec-Fetch-Site"),
                                        cookie: request.header("Cookie"), authorization: request.header("Authorization"),
                                        token: request.query("token"), code: request.query("code"))
        switch access.verdict(head, token: token, isSession: isSession, spendCode: spendSignInCode) {
        case .pass:
            return nil
        case .exchange:
            let session = newSession()
            return HTTPResponse(status: 303, headers: [("Location", "/"), ("Set-Cookie", access.setCookie(session: session.text))])
        case .exchangeCode:
            let session = newSession()
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8"),
                                                       ("Set-Cookie", access.setCookie(session: session.text))],
                                body: .bytes(Self.signedInPage))
        case .wrongToken(let reason):
            if let wait = countWrongToken(from: request.client) {
                return .text(429, "too many wrong tokens from \(request.client); try again in \(Int(wait.rounded(.up))) s")
            }
            return .text(401, reason)
        case .refuse(let status, let reason):
            return .text(status, reason)
        }
    }

    /// The answer to a spent sign-in code: a page that loads `/` by itself (a same-origin
    /// navigation, which carries the new cookie), with a link for a browser that does not.
    static let signedInPage = Array("""
        <!DOCTYPE html><html><head><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=/">\
        <title>Reel Studio</title></head><body><p><a href="/">Signed in: open Reel Studio</a></p></body></html>

        """.utf8)

    /// The route's answer for a request that passed the gate.
    func answer(_ request: HTTPRequest, body: [UInt8]?) -> HTTPResponse {
        let route: StudioRoute
        do { route = try StudioRoute(method: request.method, path: request.path) } catch {
            switch error {
            case .notFound:
                return .text(404, "no such page or API: the studio serves /, /assets/… and the API under /api/ that docs/studio.md lists")
            case .methodNotAllowed(let allowed):
                let methods = allowed.joined(separator: ", ")
                return .text(405, "\(request.method) is not answered here; use \(methods)", headers: [("Allow", methods)])
            }
        }
        do throws(StudioRefusal) {
            switch route {
            case .app(let route): return answerApp(route, request: request)
            case .camera(let route): return try answerCamera(route, request: request, body: body)
            case .library(let route): return try answerLibrary(route, request: request, body: body)
            case .materials(let route): return try answerMaterials(route, request: request, body: body)
            case .backup(let route): return try answerBackup(route, body: body)
            case .review(let route): return try answerReview(route, request: request, body: body)
            case .live(let route): return try answerLive(route, body: body)
            case .overlay(let route): return try answerOverlay(route, request: request, body: body)
            case .cinematic(let route): return try answerCinematic(route, request: request, body: body)
            }
        } catch {
            return .text(error.status, error.message)
        }
    }

    /// The page, its files, the state, the events, signing out.
    func answerApp(_ route: AppRoute, request: HTTPRequest) -> HTTPResponse {
        switch route {
        case .page:
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/html; charset=utf-8")], body: .bytes(StudioPage.html))
        case .asset(let name):
            guard let asset = StudioPage.assets[name] else { return .text(404, "no asset \(name)") }
            return HTTPResponse(status: 200, headers: [("Content-Type", asset.contentType)], body: .bytes(asset.bytes))
        case .status:
            return json(status().json)
        case .events:
            guard request.method == "GET" else {
                return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream")])
            }
            let session = StudioAccess.cookie(named: access.cookieName, in: request.header("Cookie")).flatMap { isSession($0) ? String($0) : nil }
            guard let subscription = events.subscribe(owner: session) else {
                return .text(503, "too many event streams are open (\(settings.maxEventStreams)); close a studio tab", headers: [("Retry-After", "5")])
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("X-Accel-Buffering", "no")],
                                body: .stream(subscription))
        case .signOut:
            if let value = StudioAccess.cookie(named: access.cookieName, in: request.header("Cookie")) { endSession(value) }
            return HTTPResponse(status: 204, headers: [("Set-Cookie", access.clearCookie)])
        }
    }

    /// The record page's routes: sources, preview, recording.
    func answerCamera(_ route: CameraRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .sources:
            return json(StudioJSON.line(SourcesAnswer(cameras: CameraList.devices(), chosen: camera.camera.source)))
        case .camera:
            return json(StudioJSON.line(camera.camera))
        case .chooseSource:
            let choice: SourceChoice = try decode(body)
            try camera.choose(choice.source)
            return json(StudioJSON.line(camera.camera))
        case .preview:
            return previewStream(request, feed: camera.feed) { [camera] in camera.tick() }
        case .previewPicture:
            guard let picture = camera.feed.latest else {
                return .text(404, "no preview picture yet: open /api/preview (or the page) to start the preview")
            }
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/jpeg"), ("X-Reel-Sequence", "\(picture.sequence)")],
                                body: .bytes(picture.jpeg))
        case .recording:
            return json(camera.recording.json)
        case .startRecording:
            let started = try camera.start(try decode(body) as RecordRequest)
            return json(started.json, status: 202)
        case .control(let action):
            try camera.control(action)
            return json(camera.recording.json)
        case .unfinished:
            return json(StudioJSON.line(["recordings": recovery.unfinished()]))
        case .recover:
            let answer = try recovery.recover()
            if answer.recovered > 0 { events.publish(.library, data: "{}") }
            return json(StudioJSON.line(answer))
        }
    }

    /// A JSON body as `T`; a 400 refusal saying what is wrong otherwise.
    func decode<T: Decodable>(_ body: [UInt8]?) throws(StudioRefusal) -> T {
        guard let body, !body.isEmpty else { throw .init(status: 400, message: "this request needs a JSON body (docs/studio.md)") }
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch DecodingError.keyNotFound(let key, _) {
            throw .init(status: 400, message: "the JSON body lacks \"\(key.stringValue)\"")
        } catch DecodingError.typeMismatch(_, let context) {
            throw .init(status: 400, message: "the JSON body's \"\(context.codingPath.map(\.stringValue).joined(separator: "."))\" has the wrong type")
        } catch {
            throw .init(status: 400, message: "the body is not the JSON this request takes (docs/studio.md)")
        }
    }

    /// `GET /api/preview` (and the overlay camera's previews): a stream of `feed`'s JPEGs, at
    /// most ``StudioSettings/maxPreviewStreams`` at once in all; `started` is called once the
    /// stream watches (to start the capture feeding it).
    func previewStream(_ request: HTTPRequest, feed: PreviewFeed, started: () -> Void) -> HTTPResponse {
        guard request.method == "GET" else { return HTTPResponse(status: 200, headers: [("Content-Type", PreviewStream.contentType)]) }
        let admitted = previewStreams.withLock { count -> Bool in
            guard count < settings.maxPreviewStreams else { return false }
            count += 1
            return true
        }
        guard admitted else {
            return .text(503, "too many previews are open (\(settings.maxPreviewStreams)); close a studio tab", headers: [("Retry-After", "5")])
        }
        let stream = PreviewStream(feed: feed, resend: settings.previewResend) { [previewStreams] in
            previewStreams.withLock { $0 -= 1 }
        }
        started()
        return HTTPResponse(status: 200, headers: [("Content-Type", PreviewStream.contentType)], body: .stream(stream))
    }

    func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: .bytes(Array(text.utf8)))
    }

    /// `response` with ``securityHeaders`` (those it does not set itself).
    func secured(_ response: HTTPResponse) -> HTTPResponse {
        var response = response
        let own = Set(response.headers.map { $0.0.lowercased() })
        response.headers += Self.securityHeaders.filter { !own.contains($0.0.lowercased()) }
        return response
    }
}

/// A request body of a declared length, kept in memory (at most
/// ``StudioSettings/maxBodyBytes``, checked before the first byte is read).
final class BoundedBody: HTTPUpload, @unchecked Sendable {
    // One request's handler calls are serial: nothing else touches it.
    private(set) var bytes: [UInt8] = []
    private let capacity: Int
    private(set) var received = 0

    init(capacity: Int) {
        self.capacity = capacity
        bytes.reserveCapacity(capacity)
    }

    func write(_ data: UnsafeRawPointer, count: Int) {
        received += count
        let room = max(0, capacity - bytes.count)
        bytes.append(contentsOf: UnsafeRawBufferPointer(start: data, count: min(count, room)))
    }

    func discard() { bytes = [] }
}

/// `GET /api/sources`: the cameras found now, and the source chosen.
struct SourcesAnswer: Encodable {
    var cameras: [CameraDevice]
    /// The synthetic source (`test`, or `test:WxH@FPS`) and a video file (`file:/PATH`).
    var test = "test"
    var file = "file:/PATH"
    var chosen: String?
}

/// The body of `POST /api/source`.
struct SourceChoice: Decodable {
    var source: String
}
