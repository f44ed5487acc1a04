import Foundation
import ReelCore
import ReelStudio
import Testing

/// What a method and path name in the studio (``StudioRoute``): whole known paths only, parsed
/// once into an area's route; a path that names nothing is 404, a known path with a method it
/// does not answer 405.
@Suite("Studio routes")
struct StudioRouteTests {
    static let id = UUID(uuidString: "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b")!
    static let text = "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"

    /// Every route of the studio, one of each kind.
    static let every: [StudioRoute] = {
        let id = Self.id
        let app: [AppRoute] = [.page, .status, .events, .signOut] + StudioRoute.assetNames.sorted().map(AppRoute.asset)
        let camera: [CameraRoute] = [.sources, .camera, .chooseSource, .preview, .previewPicture, .recording, .startRecording, .unfinished, .recover]
            + RecordingStateMachine.Control.allCases.map(CameraRoute.control)
        let library: [LibraryRoute] = [.sessions, .tags, .addTag, .session(id), .thumbnail(id), .video(id), .edit(id), .trash(id), .untrash(id),
                                       .stats, .statsChart, .goals, .setGoal]
        let materials: [MaterialsRoute] = [.materials, .add, .scan, .cover(id), .remove(id)]
        let backup: [BackupRoute] = [.state, .start, .restore]
        let review: [ReviewRoute] = [.segments(id), .editSegment(id), .frame(id), .stamps, .addStamp, .stamp("smiley-2.png"), .job, .export,
                                     .vlog, .stop, .file]
        let live: [LiveRoute] = [.state, .start, .stop]
        let overlay: [OverlayRoute] = [.state, .change, .preview, .shoot, .source, .assets, .importAsset, .asset(id), .removeAsset(id),
                                       .photos, .photo("photo-1.jpg"), .photoView("photo-1.jpg"), .cutout]
        let cinematic: [CinematicRoute] = [.state, .command, .preview, .record, .stopRecord, .still, .clips,
                                           .clip("cinematic-20261203-101500.mp4"), .timeline("cinematic-20261203-101500.mp4"),
                                           .stillFile("cinematic-20261203-101500.jpg"), .refocusJob, .refocus, .stopRefocus]
        return app.map(StudioRoute.app) + camera.map(StudioRoute.camera) + library.map(StudioRoute.library)
            + materials.map(StudioRoute.materials) + backup.map(StudioRoute.backup) + review.map(StudioRoute.review)
            + live.map(StudioRoute.live) + overlay.map(StudioRoute.overlay) + cinematic.map(StudioRoute.cinematic)
    }()

    func parse(_ method: String, _ path: String) -> Result<StudioRoute, StudioRoute.Refusal> {
        Result { () throws(StudioRoute.Refusal) in try StudioRoute(method: method, path: path) }
    }

    @Test("every route is parsed back from its own method and path (HEAD as GET), and no two routes share both")
    func roundTrip() {
        for route in Self.every {
            #expect(parse(route.method.rawValue, route.path) == .success(route), "\(route.method.rawValue) \(route.path)")
            if route.method == .get { #expect(parse("HEAD", route.path) == .success(route), "HEAD \(route.path)") }
        }
        let keys = Self.every.map { "\($0.method.rawValue) \($0.path)" }
        #expect(Set(keys).count == keys.count)
        #expect(Set(Self.every).count == Self.every.count)
    }

    @Test("a known path asked with another method is 405 with what it answers; an unknown path is 404 whatever the method")
    func methods() {
        #expect(parse("GET", "/api/sign-out") == .failure(.methodNotAllowed(allowed: ["POST"])))
        #expect(parse("POST", "/api/status") == .failure(.methodNotAllowed(allowed: ["GET", "HEAD"])))
        #expect(parse("POST", "/") == .failure(.methodNotAllowed(allowed: ["GET", "HEAD"])))
        for method in ["PUT", "DELETE", "OPTIONS", "PATCH", "get", "post"] {
            #expect(parse(method, "/api/live") == .failure(.methodNotAllowed(allowed: ["GET", "HEAD", "POST"])), "\(method)")
            #expect(parse(method, "/api/nothing") == .failure(.notFound), "\(method)")
        }
        #expect(parse("GET", "/api/sessions/\(Self.text)/edit") == .failure(.methodNotAllowed(allowed: ["POST"])))
        #expect(parse("POST", "/api/sessions/\(Self.text)/video") == .failure(.methodNotAllowed(allowed: ["GET", "HEAD"])))
        #expect(parse("POST", "/api/sessions/\(Self.text)/review") == .success(.review(.editSegment(Self.id))))
        #expect(parse("GET", "/api/sessions/\(Self.text)/review") == .success(.review(.segments(Self.id))))
        for control in RecordingStateMachine.Control.allCases {
            #expect(parse("GET", "/api/recording/\(control.rawValue)") == .failure(.methodNotAllowed(allowed: ["POST"])))
        }
        for route in Self.every {
            let other = route.method == .get ? "POST" : "GET"
            guard case .failure(.methodNotAllowed(let allowed)) = parse(other, route.path) else { continue }
            #expect(allowed.contains(route.method.rawValue), "\(route.path)")
        }
    }

    @Test("paths are matched whole as received: no traversal, no encoding, no case, no doubled or trailing slash")
    func traversal() {
        let id = Self.text
        let refused = [
            "", "/index.html", "/assets/../app.js", "/assets/%2e%2e/x", "/assets/", "/assets/app.js/", "//assets/app.js", "/assets/APP.JS",
            "/assets/..%2fapp.js", "/api/status/", "/api/", "/api", "/API/status", "/api/status?x", "/api/./status",
            "/api/recording/", "/api/recording/Pause", "/api/recording/pause/", "/api/recording/../status", "/api/preview/x",
            "/api/sessions/", "/api/sessions/\(id.uppercased())", "/api/sessions/\(id.prefix(8))", "/api/sessions/\(id)/",
            "/api/sessions/\(id)//video", "/api/sessions/\(id)/video/", "/api/sessions/\(id)/../video", "/api/sessions/\(id)x",
            "/api/sessions/\(id)/Video", "/api/sessions/\(id.replacingOccurrences(of: "-", with: ""))xxxx/video",
            "/api/sessions/../status", "/api/sessions/%30b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b",
            "/api/materials/\(id)", "/api/materials/\(id.uppercased())/cover", "/api/materials/\(id)/cover/", "/api/materials/scan/",
            "/api/stamps/", "/api/stamps/..png", "/api/stamps/../x.png", "/api/stamps/%2e%2e.png", "/api/stamps/Smiley.png",
            "/api/stamps/a/b.png", "/api/stamps/.upload-1.png", "/api/stamps/-x.png", "/api/stamps/x.png/", "/api/stamps/x.jpg",
            "/api/stamps/x.png%00", "/api/stamps/" + String(repeating: "a", count: 49) + ".png",
            "/api/export/file/", "/api/export/../status", "/api/live/", "/api/live/start",
            "/api/overlay/assets/\(id.uppercased())", "/api/overlay/assets/\(id)/x", "/api/overlay/photos/..%2fx.jpg",
            "/api/overlay/photos/../x.jpg", "/api/overlay/photos/", "/api/overlay/photos/view", "/api/overlay/photos/x.jpg/view/",
            "/api/cinematic/clips/", "/api/cinematic/clips/../x.mp4", "/api/cinematic/clips/x.jpg", "/api/cinematic/clips/x.mp4/timeline/",
            "/api/cinematic/stills/x.mp4", "/api/cinematic/stills/%2e%2e.jpg", "/api/cinematic/stills/",
        ]
        for path in refused {
            #expect(parse("GET", path) == .failure(.notFound), "GET \(path)")
            #expect(parse("POST", path) == .failure(.notFound), "POST \(path)")
        }
    }

    @Test("names and ids in paths are the ones their files and records take")
    func names() {
        #expect(parse("GET", "/api/stamps/smiley-2.png") == .success(.review(.stamp("smiley-2.png"))))
        #expect(parse("GET", "/api/overlay/photos/photo-1.jpg/view") == .success(.overlay(.photoView("photo-1.jpg"))))
        #expect(parse("GET", "/api/overlay/assets/\(Self.text)") == .success(.overlay(.asset(Self.id))))
        #expect(parse("GET", "/api/cinematic/clips/a-b.mp4/timeline") == .success(.cinematic(.timeline("a-b.mp4"))))
        #expect(parse("GET", "/api/materials/\(Self.text)/cover") == .success(.materials(.cover(Self.id))))
        #expect(StudioRoute.library(.video(Self.id)).path == "/api/sessions/\(Self.text)/video")
    }
}
