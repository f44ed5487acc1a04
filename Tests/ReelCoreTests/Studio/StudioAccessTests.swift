import Foundation
import ReelCore
import Testing

/// The studio's gate (``StudioAccess``): host, fetch site, origin and session, in that order.
@Suite("Studio access rules")
struct StudioAccessTests {
    static let token = try! OriginToken("0123456789abcdef0123456789abcdef")
    static let session = "feedfacefeedfacefeedfacefeedface"
    let loopback = StudioAccess(boundHost: "127.0.0.1", port: 8090)

    func verdict(_ access: StudioAccess, _ request: StudioAccess.Request) -> StudioAccess.Verdict {
        access.verdict(request, token: Self.token, isSession: { $0 == Self.session })
    }

    func request(_ method: String = "GET", _ path: String = "/api/status", host: String? = "127.0.0.1:8090",
                 origin: String? = nil, site: String? = nil, cookie: String? = "reel_studio_8090=\(session)",
                 authorization: String? = nil, token: String? = nil) -> StudioAccess.Request {
        StudioAccess.Request(method: method, path: path, host: host, origin: origin, fetchSite: site, cookie: cookie,
                             authorization: authorization, token: token)
    }

    func status(_ verdict: StudioAccess.Verdict) -> Int {
        switch verdict {
        case .pass: 200
        case .exchange: 303
        case .refuse(let status, _): status
        }
    }

    @Test("a session cookie passes on every loopback name of this port, and only this port's cookie counts")
    func sessionPasses() {
        for host in ["127.0.0.1:8090", "localhost:8090", "LOCALHOST:8090"] {
            #expect(verdict(loopback, request(host: host)) == .pass, "\(host)")
        }
        let v6 = StudioAccess(boundHost: "::1", port: 8090)
        #expect(verdict(v6, request(host: "[::1]:8090")) == .pass)
        #expect(status(verdict(loopback, request(cookie: "reel_studio_8091=\(Self.session)"))) == 401, "another studio's cookie")
        #expect(status(verdict(loopback, request(cookie: "reel_studio_8090=feedface"))) == 401, "not a session")
        #expect(status(verdict(loopback, request(cookie: "a=1; reel_studio_8090=\(Self.session); b=2"))) == 200)
    }

    @Test("a foreign or missing Host is refused before anything else (DNS rebinding), even with a session")
    func foreignHost() {
        for host in ["evil.example:8090", "127.0.0.1:8091", "127.0.0.1", "localhost", "127.0.0.1.evil.example:8090", ""] {
            #expect(status(verdict(loopback, request(host: host))) == 403, "\(host)")
        }
        #expect(status(verdict(loopback, request(host: nil))) == 403)
        // Bound to every interface (--remote): IP literals with the port, never names.
        let remote = StudioAccess(boundHost: "0.0.0.0", port: 8090)
        #expect(verdict(remote, request(host: "192.168.1.20:8090")) == .pass)
        #expect(verdict(remote, request(host: "[fe80::1]:8090")) == .pass)
        #expect(status(verdict(remote, request(host: "desk.example:8090"))) == 403)
        #expect(status(verdict(remote, request(host: "300.1.1.1:8090"))) == 403)
    }

    @Test("a request another site's page made is refused, whatever it carries")
    func crossSite() {
        #expect(status(verdict(loopback, request(site: "cross-site"))) == 403)
        #expect(status(verdict(loopback, request("GET", "/", site: "cross-site", cookie: nil, token: Self.token.text))) == 403)
        #expect(verdict(loopback, request(site: "same-origin")) == .pass)
    }

    @Test("anything but GET and HEAD needs this studio's own Origin (CSRF)")
    func origin() {
        #expect(verdict(loopback, request("POST", "/api/sign-out", origin: "http://127.0.0.1:8090")) == .pass)
        #expect(verdict(loopback, request("DELETE", "/api/x", origin: "http://localhost:8090")) == .pass)
        for origin in [nil, "null", "http://evil.example", "http://127.0.0.1:8091", "https://127.0.0.1:8090", "http://127.0.0.1:8090/x"] {
            #expect(status(verdict(loopback, request("POST", "/api/sign-out", origin: origin))) == 403, "\(origin ?? "none")")
        }
        #expect(verdict(loopback, request("GET", origin: "http://evil.example")) == .pass, "a GET changes nothing")
    }

    @Test("the token is exchanged only on the page, by GET, opened directly or from the studio itself")
    func tokenExchange() {
        let token = Self.token.text
        #expect(verdict(loopback, request("GET", "/", cookie: nil, token: token)) == .exchange)
        #expect(verdict(loopback, request("GET", "/", site: "none", cookie: nil, token: token)) == .exchange)
        #expect(verdict(loopback, request("GET", "/", site: "same-origin", cookie: nil, token: token)) == .exchange)
        #expect(status(verdict(loopback, request("GET", "/", site: "same-site", cookie: nil, token: token))) == 403)
        #expect(status(verdict(loopback, request("GET", "/api/status", cookie: nil, token: token))) == 401, "not on the API")
        #expect(status(verdict(loopback, request("GET", "/", cookie: nil, token: "0123456789abcdef0123456789abcdee"))) == 401)
        #expect(status(verdict(loopback, request("GET", "/", cookie: nil))) == 401)
    }

    @Test("scripts: the bearer token passes, a wrong one is 401")
    func bearer() {
        #expect(verdict(loopback, request(cookie: nil, authorization: "Bearer \(Self.token.text)")) == .pass)
        #expect(status(verdict(loopback, request(cookie: nil, authorization: "Bearer nope"))) == 401)
        #expect(status(verdict(loopback, request(cookie: nil, authorization: "Basic \(Self.token.text)"))) == 401)
    }

    @Test("the cookie is HttpOnly and SameSite=Strict, named for the port")
    func cookie() {
        #expect(loopback.setCookie(session: "abc") == "reel_studio_8090=abc; Path=/; HttpOnly; SameSite=Strict")
        #expect(loopback.clearCookie.hasSuffix("Max-Age=0"))
        #expect(StudioAccess.cookie(named: "x", in: "x=") == nil)
        #expect(StudioAccess.cookie(named: "x", in: "xx=1; x=2") == "2")
    }

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

    @Test("stamp names: made from any file name, safe, numbered when taken, always valid")
    func stampNames() {
        #expect(StampName.from(original: "My Smiley (2).PNG") == "my-smiley-2.png")
        #expect(StampName.from(original: "../../etc/passwd") == "passwd.png")
        #expect(StampName.from(original: "笑顔.png") == "stamp.png")
        #expect(StampName.from(original: "") == "stamp.png")
        #expect(StampName.from(original: "--a--b--.png") == "a-b.png")
        let long = StampName.from(original: String(repeating: "x", count: 100) + ".png")
        #expect(long.count == StampName.maxStem + 4 && StampName.isValid(long))
        #expect(StampName.numbered("smiley.png", 1) == "smiley.png" && StampName.numbered("smiley.png", 12) == "smiley-12.png")
        #expect(StampName.isValid(StampName.numbered(long, 999)))
        for name in ["a.png", "0-x.png", "smiley-2.png"] { #expect(StampName.isValid(name), "\(name)") }
        for name in [".png", "-a.png", "A.png", "a.PNG", "a b.png", "a/b.png", "a.png.png", "é.png", "a_b.png"] {
            #expect(!StampName.isValid(name), "\(name)")
        }
    }

    @Test("a PNG's header is judged before decoding: not a PNG, no size, too large")
    func pngHeader() {
        func header(width: UInt32, height: UInt32) -> [UInt8] {
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
            return bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0]
        }
        #expect(PNGHeader.size(header(width: 300, height: 2)) ?? (0, 0) == (300, 2))
        #expect(PNGHeader.stampProblem(header(width: 2048, height: 2048)) == nil)
        #expect(PNGHeader.stampProblem(header(width: 2049, height: 10))?.contains("2049x10") == true)
        #expect(PNGHeader.stampProblem(header(width: 0, height: 10))?.contains("no size") == true)
        #expect(PNGHeader.stampProblem(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40))?.contains("not a PNG") == true)
        #expect(PNGHeader.stampProblem(Array(header(width: 5, height: 5).prefix(20)))?.contains("not a PNG") == true)
    }
}
