import Foundation
import ReelCore
import ReelRecord
import ReelStore
import ReelStudio
import ReelTestSupport
import Testing

/// A running studio on loopback, its library in a temporary folder.
final class TestStudio: @unchecked Sendable {
    let folder: TemporaryDirectory
    let server: StudioServer
    var base: String { "http://127.0.0.1:\(server.port)" }
    var token: String { server.token.text }
    var host: String { "127.0.0.1:\(server.port)" }

    init(configure: (inout StudioSettings) -> Void = { _ in }) throws {
        folder = try TemporaryDirectory()
        var settings = StudioSettings(port: 0, libraryPath: folder.path("library.sqlite"))
        settings.version = "test"
        settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": folder.path("data"), "XDG_STATE_HOME": folder.path("state"),
                                                        "XDG_CACHE_HOME": folder.path("cache")], accountHome: folder.url.path)
        settings.keepAwake = false
        settings.faceTracking = { _ in ({ NoFaceTracker() }, nil) }
        configure(&settings)
        server = try StudioServer(settings: settings)
        try server.start()
    }

    func close() async {
        await server.stop()
        folder.cleanup()
    }

    /// Signs in as a browser would (the token exchanged for the cookie); the cookie's header value.
    func signIn() throws -> String {
        let answer = try curl([base + "/?token=" + token])
        let setCookie = try #require(answer.headers["set-cookie"])
        return String(setCookie.prefix { $0 != ";" })
    }
}

func withStudio<T>(configure: (inout StudioSettings) -> Void = { _ in }, _ body: (TestStudio) async throws -> T) async throws -> T {
    let studio = try TestStudio(configure: configure)
    do {
        let result = try await body(studio)
        await studio.close()
        return result
    } catch {
        await studio.close()
        throw error
    }
}

/// The studio's server through curl on loopback: sign-in, the gate's refusals, the API, the
/// event stream, bounds, and a clean stop.
@Suite("Studio server", .serialized)
struct StudioServerTests {
    @Test("the token is exchanged for an HttpOnly SameSite=Strict cookie, then the page, assets and API answer with it")
    func signIn() async throws {
        try await withStudio { studio in
            let exchange = try curl([studio.base + "/?token=" + studio.token])
            #expect(exchange.status == 303)
            #expect(exchange.headers["location"] == "/")
            let cookie = try #require(exchange.headers["set-cookie"])
            #expect(cookie.hasPrefix("reel_studio_\(studio.server.port)="))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
            let session = String(cookie.prefix { $0 != ";" })
            #expect(!session.contains(studio.token), "the cookie is a session of its own, not the token")

            let page = try curl(["-H", "Cookie: \(session)", studio.base + "/"])
            #expect(page.status == 200 && page.headers["content-type"]?.hasPrefix("text/html") == true)
            #expect(page.text.contains("/assets/app.js") && !page.text.contains("<script>"), "no inline script")
            let csp = try #require(page.headers["content-security-policy"])
            #expect(csp.contains("script-src 'self'") && !csp.contains("unsafe-inline"))
            #expect(page.headers["x-frame-options"] == "DENY" && page.headers["x-content-type-options"] == "nosniff")
            #expect(page.headers.keys.allSatisfy { !$0.hasPrefix("access-control-") }, "no CORS")
            for (name, type) in [("app.js", "text/javascript"), ("style.css", "text/css"), ("icon.svg", "image/svg+xml")] {
                let asset = try curl(["-H", "Cookie: \(session)", studio.base + "/assets/" + name])
                #expect(asset.status == 200 && asset.headers["content-type"]?.hasPrefix(type) == true, "\(name)")
            }
            let status = try curl(["-H", "Cookie: \(session)", studio.base + "/api/status"])
            #expect(status.status == 200)
            let decoded = try JSONDecoder().decode(StudioStatus.self, from: status.body)
            #expect(decoded.version == "test" && decoded.library.sessions == 0 && (decoded.disk.freeBytes ?? 0) > 0)
        }
    }

    @Test("the status counts the library's sessions, read with the library's own code")
    func statusCountsSessions() async throws {
        try await withStudio { studio in
            let library = try StudyLibrary(path: studio.server.settings.libraryPath, create: true)
            for index in 0..<3 {
                let start = Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 3600)
                _ = try library.add(StudySession(id: UUID(), startedAt: start, endedAt: start.addingTimeInterval(600), activeSeconds: 600,
                                                 videoSeconds: 20, mode: .timelapse, intervalSeconds: 1, filePath: "/tmp/x\(index).mp4",
                                                 thumbnailPath: nil, faceTrackPath: nil, title: nil, tags: []))
            }
            let status = try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/status"])
            #expect(try JSONDecoder().decode(StudioStatus.self, from: status.body).library.sessions == 3)
        }
    }

    @Test("refused, each with its status and nothing changed: no token, a wrong one, another Host, another Origin, another site")
    func refusals() async throws {
        try await withStudio { studio in
            let session = try studio.signIn()
            #expect(try curl([studio.base + "/api/status"]).status == 401)
            #expect(try curl([studio.base + "/"]).status == 401)
            #expect(try curl([studio.base + "/?token=00" + studio.token.dropFirst(2)]).status == 401)
            #expect(try curl(["-H", "Authorization: Bearer wrong-token-0123456789", studio.base + "/api/status"]).status == 401)
            #expect(try curl([studio.base + "/api/status?token=" + studio.token]).status == 401, "the token only signs in on the page")
            let rebound = try curl(["-H", "Cookie: \(session)", "-H", "Host: evil.example:\(studio.server.port)", studio.base + "/api/status"])
            #expect(rebound.status == 403 && rebound.text.contains("evil.example"))
            let crossSite = try curl(["-H", "Sec-Fetch-Site: cross-site", studio.base + "/?token=" + studio.token])
            #expect(crossSite.status == 403 && crossSite.headers["set-cookie"] == nil, "a link on another site does not sign in")
            // A forged sign-out: another Origin, or none. The session must survive both.
            for origin in [["-H", "Origin: http://evil.example"], []] {
                let forged = try curl(["-X", "POST", "-H", "Cookie: \(session)"] + origin + [studio.base + "/api/sign-out"])
                #expect(forged.status == 403)
            }
            #expect(try curl(["-H", "Cookie: \(session)", studio.base + "/api/status"]).status == 200, "still signed in")
            let preflight = try curl(["-X", "OPTIONS", "-H", "Cookie: \(session)", "-H", "Origin: http://evil.example",
                                      "-H", "Access-Control-Request-Method: POST", studio.base + "/api/sign-out"])
            #expect(preflight.status == 403 && preflight.headers["access-control-allow-origin"] == nil)
        }
    }

    @Test("ten wrong tokens a minute from one address: 429 for further guesses, while a signed-in browser and the right token go on")
    func failuresThrottled() async throws {
        try await withStudio { studio in
            let session = try studio.signIn()
            for _ in 0..<10 {
                #expect(try curl(["-H", "Authorization: Bearer wrong-token-0123456789", studio.base + "/api/status"]).status == 401)
            }
            let next = try curl(["-H", "Authorization: Bearer wrong-token-0123456789", studio.base + "/api/status"])
            #expect(next.status == 429 && next.text.contains("try again"))
            #expect(try curl([studio.base + "/?token=00" + studio.token.dropFirst(2)]).status == 429, "no more guesses from there for a while")
            #expect(try curl([studio.base + "/?token=" + studio.token]).status == 303, "the right token never waits")
            #expect(try curl(["-H", "Cookie: \(session)", studio.base + "/api/status"]).status == 200)
        }
    }

    @Test("sign-out with the studio's Origin ends that session only, and closes its event streams")
    func signOut() async throws {
        try await withStudio { studio in
            let first = try studio.signIn(), second = try studio.signIn()
            let firstStream = try EventStreamReader(url: studio.base + "/api/events", headers: ["Cookie: \(first)"])
            defer { firstStream.stop() }
            let secondStream = try EventStreamReader(url: studio.base + "/api/events", headers: ["Cookie: \(second)"])
            defer { secondStream.stop() }
            #expect(await firstStream.waitForEvents(named: "status", count: 1, timeout: .seconds(10)) != nil)
            #expect(await secondStream.waitForEvents(named: "status", count: 1, timeout: .seconds(10)) != nil)
            let out = try curl(["-X", "POST", "-H", "Cookie: \(first)", "-H", "Origin: \(studio.base)", studio.base + "/api/sign-out"])
            #expect(out.status == 204 && out.headers["set-cookie"]?.contains("Max-Age=0") == true)
            #expect(try curl(["-H", "Cookie: \(first)", studio.base + "/api/status"]).status == 401)
            #expect(try curl(["-H", "Cookie: \(second)", studio.base + "/api/status"]).status == 200)
            #expect(await firstStream.waitForEnd(timeout: .seconds(5)), "the signed-out session's stream is closed")
            #expect(!(await secondStream.waitForEnd(timeout: .milliseconds(300))), "the other session's stream stays open")
        }
    }

    @Test("no path reaches past the compiled-in files; wrong methods are 405 with Allow")
    func paths() async throws {
        try await withStudio { studio in
            let session = try studio.signIn()
            for path in ["/assets/../../etc/passwd", "/assets/%2e%2e/%2e%2e/etc/passwd", "/assets/..%2f..%2fetc%2fpasswd",
                         "/assets//etc/passwd", "/../../etc/passwd", "/assets/app.js%00.png", "/api/../assets/app.js",
                         "/api/stamps/../../../../etc/passwd", "/api/stamps/..%2f..%2f..%2fetc%2fpasswd", "/api/stamps/%2e%2e.png",
                         "/api/export/file/../../etc/passwd", "/api/export/..%2ffile"] {
                let answer = try curl(["--path-as-is", "-H", "Cookie: \(session)", studio.base + path])
                #expect(answer.status == 404 && !answer.text.contains("root:"), "\(path)")
            }
            let wrong = try curl(["-X", "DELETE", "-H", "Cookie: \(session)", "-H", "Origin: \(studio.base)", studio.base + "/api/status"])
            #expect(wrong.status == 405 && wrong.headers["allow"] == "GET, HEAD")
        }
    }

    @Test("bodies are bounded before a byte is read: 413 over the limit, 411 chunked")
    func bodies() async throws {
        try await withStudio(configure: { $0.maxBodyBytes = 1024 }) { studio in
            let session = try studio.signIn()
            let folder = try TemporaryDirectory()
            defer { folder.cleanup() }
            let big = folder.path("big")
            try Data(count: 1 << 20).write(to: URL(fileURLWithPath: big))
            let common = ["-X", "POST", "-H", "Cookie: \(session)", "-H", "Origin: \(studio.base)"]
            #expect(try curl(common + ["--data-binary", "@" + big, studio.base + "/api/sign-out"]).status == 413)
            #expect(try curl(common + ["-H", "Transfer-Encoding: chunked", "--data-binary", "x", studio.base + "/api/sign-out"]).status == 411)
            #expect(try curl(["-H", "Cookie: \(session)", studio.base + "/api/status"]).status == 200, "the refused bodies changed nothing")
            let unsigned = try curl(["-X", "POST", "-H", "Origin: \(studio.base)", "--data-binary", "@" + big, studio.base + "/api/sign-out"])
            #expect(unsigned.status == 401, "the gate answers first")
        }
    }

    @Test("the event stream sends the status at once and again each interval; too many streams are 503; stop ends them")
    func events() async throws {
        try await withStudio(configure: { $0.statusInterval = 0.2; $0.maxEventStreams = 2 }) { studio in
            let stream = try EventStreamReader(url: studio.base + "/api/events", headers: ["Authorization: Bearer \(studio.token)"])
            defer { stream.stop() }
            let first = try #require(await stream.waitForEvents(named: "status", count: 2, timeout: .seconds(10)))
            let status = try JSONDecoder().decode(StudioStatus.self, from: Data(first.last!.utf8))
            #expect(status.version == "test")
            let second = try EventStreamReader(url: studio.base + "/api/events", headers: ["Authorization: Bearer \(studio.token)"])
            defer { second.stop() }
            _ = await second.waitForEvents(named: "status", count: 1, timeout: .seconds(10))
            let third = try curl(["--max-time", "3", "-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/events"])
            #expect(third.status == 503)
            let started = ContinuousClock.now
            await studio.server.stop()
            #expect(ContinuousClock.now - started < .seconds(3), "open streams do not hold the stop")
            #expect(await stream.waitForEnd(timeout: .seconds(5)), "the stream ended with the studio")
        }
    }

    @Test("another address than loopback needs --remote")
    func remoteNeedsFlag() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        #expect(throws: StudioServer.StartError.self) {
            _ = try StudioServer(settings: StudioSettings(host: "0.0.0.0", port: 0, libraryPath: folder.path("l.sqlite")))
        }
        let remote = try StudioServer(settings: StudioSettings(host: "0.0.0.0", port: 0, remote: true, libraryPath: folder.path("l.sqlite")))
        try remote.start()
        let session = try curl(["-H", "Authorization: Bearer \(remote.token.text)", "http://127.0.0.1:\(remote.port)/api/status"])
        #expect(session.status == 200)
        #expect(try curl(["http://127.0.0.1:\(remote.port)/api/status"]).status == 401, "the token is still needed")
        await remote.stop()
    }
}

/// An `/api/events` stream read by curl (`-N`, no buffering), its events parsed from the lines
/// as they come.
final class EventStreamReader: Sendable {
    private let curl: LineWatchedProcess

    init(url: String, headers: [String]) throws {
        curl = try LineWatchedProcess("/usr/bin/curl", ["-s", "-N", "--max-time", "60"] + headers.flatMap { ["-H", $0] } + [url])
    }

    /// The data of every complete event `name` so far.
    func events(named name: String) -> [String] {
        let blocks = curl.linesSoFar.split(separator: "", omittingEmptySubsequences: true)
        // A block is complete once the empty line after it has arrived.
        let complete = curl.linesSoFar.last == "" ? blocks : blocks.dropLast()
        return complete.compactMap { block in
            guard block.contains("event: \(name)"), let data = block.first(where: { $0.hasPrefix("data: ") }) else { return nil }
            return String(data.dropFirst(6))
        }
    }

    func waitForEvents(named name: String, count: Int, timeout: Duration) async -> [String]? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            let found = events(named: name)
            if found.count >= count { return found }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return nil
    }

    /// Whether the stream ends (the server closed it) within `timeout`; curl keeps running otherwise.
    func waitForEnd(timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if curl.outputHasEnded { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Ends curl: SIGKILL, since a child of the test runner may inherit SIGTERM blocked (curl
    /// then ran on to its --max-time).
    func stop() { curl.send(SIGKILL) }
}
