import Foundation
import ReelCore
import ReelStudio
import Testing

/// What a path names in the studio (``StudioRoute``): whole known paths only, each with its methods.
@Suite("Studio routes")
struct StudioRouteTests {
    @Test("routes are whole known paths: no traversal, no encoding reaches an asset")
    func routes() {
        #expect(StudioRoute(path: "/") == .page)
        #expect(StudioRoute(path: "/assets/app.js") == .asset("app.js"))
        for path in ["/assets/../app.js", "/assets/%2e%2e/x", "/assets/", "/assets/app.js/", "//assets/app.js",
                     "/assets/APP.JS", "/api/status/", "/index.html", "/assets/..%2fapp.js"] {
            #expect(StudioRoute(path: path) == nil, "\(path)")
        }
        #expect(StudioRoute.signOut.methods == ["POST"])
    }

    @Test("the record routes: controls by name, each a POST; reads are GET; nothing else under /api/recording/")
    func recordRoutes() {
        #expect(StudioRoute(path: "/api/recording") == .recording)
        #expect(StudioRoute(path: "/api/recording/start") == .startRecording)
        for control in RecordingStateMachine.Control.allCases {
            #expect(StudioRoute(path: "/api/recording/\(control.rawValue)") == .controlRecording(control))
            #expect(StudioRoute.controlRecording(control).methods == ["POST"])
        }
        for path in ["/api/recording/", "/api/recording/Pause", "/api/recording/pause/", "/api/recording/../status", "/api/preview/x"] {
            #expect(StudioRoute(path: path) == nil, "\(path)")
        }
        #expect(StudioRoute(path: "/api/preview") == .preview)
        #expect(StudioRoute(path: "/api/preview.jpg") == .previewPicture)
        #expect(StudioRoute.preview.methods == ["GET", "HEAD"])
        #expect(StudioRoute(path: "/api/source") == .chooseSource && StudioRoute.chooseSource.methods == ["POST"])
        #expect(StudioRoute(path: "/api/sources") == .sources && StudioRoute(path: "/api/camera") == .camera)
    }

    @Test("the library routes: a session is named by its whole lowercase id; reads are GET, changes POST; nothing else matches")
    func libraryRoutes() throws {
        let id = try #require(UUID(uuidString: "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"))
        let text = "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"
        #expect(StudioRoute(path: "/api/sessions") == .sessions && StudioRoute.sessions.methods == ["GET", "HEAD"])
        #expect(StudioRoute(path: "/api/tags") == .tags && StudioRoute.tags.methods == ["GET", "HEAD", "POST"])
        #expect(StudioRoute(path: "/api/sessions/\(text)") == .session(id, .record))
        for part in StudioRoute.SessionPart.allCases where part != .record {
            #expect(StudioRoute(path: "/api/sessions/\(text)/\(part.rawValue)") == .session(id, part))
        }
        #expect(StudioRoute.session(id, .video).methods == ["GET", "HEAD"] && StudioRoute.session(id, .thumbnail).methods == ["GET", "HEAD"])
        #expect(StudioRoute.session(id, .edit).methods == ["POST"] && StudioRoute.session(id, .trash).methods == ["POST"])
        for path in ["/api/sessions/", "/api/sessions/\(text.uppercased())", "/api/sessions/\(text.prefix(8))", "/api/sessions/\(text)/",
                     "/api/sessions/\(text)//video", "/api/sessions/\(text)/video/", "/api/sessions/\(text)/../video", "/api/sessions/\(text)x",
                     "/api/sessions/\(text)/Video", "/api/sessions/\(text.replacingOccurrences(of: "-", with: ""))xxxx/video",
                     "/api/sessions/../status", "/api/sessions/%30b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"] {
            #expect(StudioRoute(path: path) == nil, "\(path)")
        }
        #expect(StudioRoute(path: "/api/materials") == .materials && StudioRoute.materials.methods == ["GET", "HEAD", "POST"])
        #expect(StudioRoute(path: "/api/materials/scan") == .scanBarcode && StudioRoute.scanBarcode.methods == ["POST"])
        #expect(StudioRoute(path: "/api/materials/\(text)/cover") == .materialCover(id) && StudioRoute.materialCover(id).methods == ["GET", "HEAD"])
        #expect(StudioRoute(path: "/api/materials/\(text)/remove") == .removeMaterial(id) && StudioRoute.removeMaterial(id).methods == ["POST"])
        for path in ["/api/materials/\(text)", "/api/materials/\(text.uppercased())/cover", "/api/materials/\(text)/cover/", "/api/materials/scan/"] {
            #expect(StudioRoute(path: path) == nil, "\(path)")
        }
        #expect(StudioRoute(path: "/api/stats") == .stats && StudioRoute(path: "/api/stats.svg") == .statsChart && StudioRoute(path: "/api/goals") == .goals)
        #expect(StudioRoute(path: "/api/backup") == .backup && StudioRoute(path: "/api/restore") == .restore && StudioRoute.restore.methods == ["POST"])
    }

    @Test("the review and export routes: review reads and edits, frames are read; a stamp is named only as StampName allows")
    func reviewRoutes() throws {
        let id = try #require(UUID(uuidString: "0b8e4f2a-1c3d-4e5f-8a9b-0c1d2e3f4a5b"))
        #expect(StudioRoute.session(id, .review).methods == ["GET", "HEAD", "POST"] && StudioRoute.session(id, .frame).methods == ["GET", "HEAD"])
        #expect(StudioRoute(path: "/api/stamps") == .stamps && StudioRoute.stamps.methods == ["GET", "HEAD", "POST"])
        #expect(StudioRoute(path: "/api/stamps/smiley-2.png") == .stamp("smiley-2.png") && StudioRoute.stamp("x.png").methods == ["GET", "HEAD"])
        for path in ["/api/stamps/", "/api/stamps/..png", "/api/stamps/../x.png", "/api/stamps/%2e%2e.png", "/api/stamps/Smiley.png",
                     "/api/stamps/a/b.png", "/api/stamps/.upload-1.png", "/api/stamps/-x.png", "/api/stamps/x.png/", "/api/stamps/x.jpg",
                     "/api/stamps/x.png%00", "/api/stamps/" + String(repeating: "a", count: 49) + ".png"] {
            #expect(StudioRoute(path: path) == nil, "\(path)")
        }
        #expect(StudioRoute(path: "/api/export") == .export && StudioRoute.export.methods == ["GET", "HEAD", "POST"])
        #expect(StudioRoute(path: "/api/vlog") == .vlog && StudioRoute(path: "/api/export/stop") == .stopExport
                && StudioRoute.vlog.methods == ["POST"] && StudioRoute.stopExport.methods == ["POST"])
        #expect(StudioRoute(path: "/api/export/file") == .exportFile && StudioRoute.exportFile.methods == ["GET", "HEAD"])
        #expect(StudioRoute(path: "/api/export/file/") == nil && StudioRoute(path: "/api/export/../status") == nil)
        #expect(StudioRoute(path: "/api/live") == .live && StudioRoute.live.methods == ["GET", "HEAD", "POST"])
        #expect(StudioRoute(path: "/api/live/stop") == .stopLive && StudioRoute.stopLive.methods == ["POST"])
        #expect(StudioRoute(path: "/api/live/") == nil && StudioRoute(path: "/api/live/start") == nil)
    }

    @Test("the overlay routes: ids whole and lowercase, photo names only")
    func overlayRoutes() throws {
        let id = try #require(UUID(uuidString: "3F2C1A9B-0D4E-4A53-9D1C-2F6F9D0C0002"))
        let lower = id.uuidString.lowercased()
        #expect(StudioRoute(path: "/api/overlay") == .overlay)
        #expect(StudioRoute(path: "/api/overlay/preview") == .overlayPreview)
        #expect(StudioRoute(path: "/api/overlay/assets/\(lower)") == .overlayAsset(id))
        #expect(StudioRoute(path: "/api/overlay/assets/\(lower)/remove") == .removeOverlayAsset(id))
        #expect(StudioRoute(path: "/api/overlay/assets/\(id.uuidString)") == nil)
        #expect(StudioRoute(path: "/api/overlay/assets/\(lower)/x") == nil)
        #expect(StudioRoute(path: "/api/overlay/photos/photo-1.jpg") == .overlayPhoto("photo-1.jpg"))
        #expect(StudioRoute(path: "/api/overlay/photos/photo-1.jpg/view") == .overlayPhotoView("photo-1.jpg"))
        #expect(StudioRoute(path: "/api/overlay/photos/..%2fx.jpg") == nil)
        #expect(StudioRoute(path: "/api/overlay/photos/../x.jpg") == nil)
        #expect(StudioRoute(path: "/assets/overlay.js") == .asset("overlay.js"))
        #expect(StudioRoute.overlayShoot.methods == ["POST"] && StudioRoute.overlay.methods.contains("POST"))
    }
}
