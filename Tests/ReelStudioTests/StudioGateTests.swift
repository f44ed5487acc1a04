import Foundation
import ReelCore
import ReelStudio
import ReelTestSupport
import Testing

/// `reel studio` through the binary, on loopback, with the address, token and sign-in link it
/// prints.
final class RunningStudio: @unchecked Sendable {
    let process: LineWatchedProcess
    let folder: TemporaryDirectory
    /// `http://127.0.0.1:PORT` (no slash).
    let base: String
    let token: String
    /// The `open:` line's address.
    let link: String
    var port: Int { Int(base.split(separator: ":").last!)! }

    init(_ extra: [String] = [], environment: [String: String] = [:]) async throws {
        folder = try TemporaryDirectory()
        process = try LineWatchedProcess(try ReelBinary.path(), ["studio", "--port", "0", "--library", folder.path("lib.sqlite"),
                                                                  "--access-log", "none", "--source", "test:160x120@5"] + extra,
                                         environment: ["HOME": folder.url.path, "XDG_DATA_HOME": folder.path("data"),
                                                       "XDG_STATE_HOME": folder.path("state")].merging(environment) { $1 })
        let api = try #require(await process.waitForLine(timeout: .seconds(30)) { $0.contains("api:") }, "the API line is printed")
        let open = try #require(process.linesSoFar.first { $0.contains("open:") })
        link = try #require(open.split(separator: " ").last.map(String.init))
        let words = api.split(separator: " ")
        base = try #require(words.first { $0.hasPrefix("http://") }).components(separatedBy: "/api/")[0]
        token = String(try #require(words.last).dropLast())
    }

    /// Signs in with the token as a browser would; the cookie's header value.
    func signIn() throws -> String {
        let answer = try curl([base + "/?token=" + token])
        let setCookie = try #require(answer.headers["set-cookie"])
        return String(setCookie.prefix { $0 != ";" })
    }

    private var stopped = false

    /// Stops it (SIGTERM, waited for) and removes its folder; once.
    func stop() async {
        guard !stopped else { return }
        stopped = true
        process.send(SIGTERM)
        _ = await process.wait(timeout: .seconds(20))
        folder.cleanup()
    }
}

func withRunningStudio<T>(_ extra: [String] = [], environment: [String: String] = [:],
                          _ body: (RunningStudio) async throws -> T) async throws -> T {
    let studio = try await RunningStudio(extra, environment: environment)
    do {
        let result = try await body(studio)
        await studio.stop()
        return result
    } catch {
        await studio.stop()
        throw error
    }
}

/// The studio's gate, through `reel studio`, against the requests that got through it before:
/// a page on another port of this machine, a script's bearer POST without Origin, requests
/// without credentials that locked the sign-in, and the one-time sign-in link that replaces
/// the token in the browser.
@Suite("Studio gate", .serialized)
struct StudioGateTests {
    /// A page on another local port: same-site, not same-origin.
    static let otherPort = "http://127.0.0.1:8777"

    @Test("a page on another local port gets nothing, on any route, GETs included, though its requests carry the cookie")
    func otherPortRefused() async throws {
        try await withRunningStudio { studio in
            let session = try studio.signIn()
            let cookie = ["-H", "Cookie: \(session)"]
            for path in ["/api/status", "/api/preview", "/api/events", "/"] {
                let sameSite = try curl(cookie + ["--max-time", "5", "-H", "Sec-Fetch-Site: same-site", studio.base + path])
                #expect(sameSite.status == 403 && sameSite.text.contains("another port"), "\(path): \(sameSite.status)")
                let origin = try curl(cookie + ["--max-time", "5", "-H", "Origin: \(Self.otherPort)", studio.base + path])
                #expect(origin.status == 403, "\(path) with a foreign Origin: \(origin.status)")
            }
            let camera = try curl(cookie + ["-H", "Sec-Fetch-Site: same-origin", studio.base + "/api/camera"])
            #expect(camera.status == 200 && camera.text.contains("\"watchers\":0"), "no preview was opened: \(camera.text)")
            // The studio's own page, and clients that send neither header, go on as before.
            #expect(try curl(cookie + ["-H", "Sec-Fetch-Site: same-origin", "-H", "Origin: \(studio.base)", studio.base + "/api/status"]).status == 200)
            #expect(try curl(cookie + ["-H", "Sec-Fetch-Site: none", studio.base + "/"]).status == 200)
            #expect(try curl(cookie + [studio.base + "/api/status"]).status == 200)
            #expect(try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/status"]).status == 200)
        }
    }

    @Test("a script's bearer POST needs no Origin; with another page's Origin or fetch site it is still refused")
    func bearerWithoutOrigin() async throws {
        try await withRunningStudio { studio in
            let bearer = ["-X", "POST", "-H", "Authorization: Bearer \(studio.token)", "-H", "Content-Type: application/json"]
            let made = try curl(bearer + ["--data", #"{"name":"scripted"}"#, studio.base + "/api/tags"])
            #expect(made.status == 201, "\(made.status) \(made.text)")
            let foreign = try curl(bearer + ["-H", "Origin: \(Self.otherPort)", "--data", #"{"name":"foreign"}"#, studio.base + "/api/tags"])
            #expect(foreign.status == 403)
            let sameSite = try curl(bearer + ["-H", "Sec-Fetch-Site: same-site", "--data", #"{"name":"sitewide"}"#, studio.base + "/api/tags"])
            #expect(sameSite.status == 403)
            let wrong = try curl(["-X", "POST", "-H", "Authorization: Bearer wrong-token-0123456789", "--data", #"{"name":"w"}"#,
                                  studio.base + "/api/tags"])
            #expect(wrong.status == 401)
            let tags = try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/tags"]).text
            #expect(tags.contains("scripted") && !tags.contains("foreign") && !tags.contains("sitewide") && !tags.contains("\"w\""), "\(tags)")
            // A cookie alone still needs the studio's Origin to change something (CSRF).
            let session = try studio.signIn()
            #expect(try curl(["-X", "POST", "-H", "Cookie: \(session)", "--data", #"{"name":"c"}"#, studio.base + "/api/tags"]).status == 403)
        }
    }

    @Test("requests without a credential are 401 and never lock the sign-in; wrong tokens still do, right ones never wait")
    func noLockoutFromLoopback() async throws {
        try await withRunningStudio { (studio: RunningStudio) async throws in
            for _ in 0..<12 {
                #expect(try curl([studio.base + "/api/status"]).status == 401)
            }
            for _ in 0..<12 {
                #expect(try curl(["-H", "Cookie: reel_studio_\(studio.port)=left-from-the-last-run", studio.base + "/api/events"]).status == 401)
            }
            #expect(try curl([studio.base + "/?token=" + studio.token]).status == 303, "signing in still works")

            for _ in 0..<10 {
                #expect(try curl(["-H", "Authorization: Bearer wrong-token-0123456789", studio.base + "/api/status"]).status == 401)
            }
            #expect(try curl(["-H", "Authorization: Bearer wrong-token-0123456789", studio.base + "/api/status"]).status == 429)
            #expect(try curl([studio.base + "/?code=0123456789abcdef0123456789abcdef"]).status == 429, "a guessed code waits too")
            #expect(try curl([studio.base + "/api/status"]).status == 401, "no credential: 401, not 429")
            #expect(try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/status"]).status == 200)
            #expect(try curl([studio.base + "/?token=" + studio.token]).status == 303)
            #expect(try curl([studio.link]).status == 303, "the printed link signs in")
        }
    }

    @Test("a sign-in code works once, from any page that opens it (the --open file), and then the page loads with the cookie")
    func signInCodeOnce() async throws {
        try await withRunningStudio { studio in
            let link = studio.link
            #expect(link.contains("?code=") && !link.contains(studio.token), "the link does not carry the token")
            // A page opened from a file (--open's redirect page) navigates as another site.
            let first = try curl(["-H", "Sec-Fetch-Site: cross-site", link])
            #expect(first.status == 200 && first.text.contains("http-equiv=\"refresh\""), "\(first.status) \(first.text)")
            let cookie = try #require(first.headers["set-cookie"])
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict"))
            let session = String(cookie.prefix { $0 != ";" })
            #expect(try curl(["-H", "Cookie: \(session)", "-H", "Sec-Fetch-Site: same-origin", studio.base + "/"]).status == 200)
            let again = try curl([link])
            #expect(again.status == 401 && again.headers["set-cookie"] == nil && again.text.contains("used up"), "spent on first use")
            #expect(try curl([studio.base + "/api/status?code=" + (link.split(separator: "=").last ?? "")]).status == 401)
            // SIGUSR1 prints a new link; another page's request with it is still judged by its Origin.
            studio.process.send(SIGUSR1)
            let line = try #require(await studio.process.waitForLine(timeout: .seconds(10)) { $0.contains("open:") && !$0.hasSuffix(link) })
            let fresh = try #require(line.split(separator: " ").last.map(String.init))
            #expect(fresh != link && fresh.contains("?code="))
            #expect(try curl(["-H", "Origin: \(Self.otherPort)", fresh]).status == 403)
            #expect(try curl(["-H", "Sec-Fetch-Site: none", fresh]).status == 303, "the new link signs in")
        }
    }
}

/// `reel studio --open`: the browser is handed a private page, never the address, and the
/// link in it signs in once.
@Suite("Studio sign-in page", .serialized)
struct StudioSignInPageTests {
    /// A stand-in for xdg-open that records what it was given: its arguments, the file's mode
    /// and a copy of the file.
    static func fakeOpener(in folder: TemporaryDirectory) throws -> String {
        let bin = folder.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            echo "$@" >> \(folder.path("arguments"))
            /usr/bin/stat -c %a "$1" >> \(folder.path("modes"))
            /bin/cat "$1" > \(folder.path("page")).$$ && /bin/mv \(folder.path("page")).$$ \(folder.path("page"))-$(/usr/bin/wc -l < \(folder.path("modes")))

            """
        try script.write(toFile: bin + "/xdg-open", atomically: true, encoding: .utf8)
        chmod(bin + "/xdg-open", 0o755)
        return bin
    }

    @Test("--open hands xdg-open a private page (mode 0600, no token on any command line) that signs in once, then is removed")
    func openHandsAPrivatePage() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.cleanup() }
        let bin = try Self.fakeOpener(in: scratch)
        let runtime = scratch.path("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try await withRunningStudio(["--open"], environment: ["PATH": "\(bin):/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime]) { studio in
            _ = try await eventually("xdg-open ran", within: 20) { FileManager.default.fileExists(atPath: scratch.path("page-1")) ? true : nil }
            let arguments = try String(contentsOfFile: scratch.path("arguments"), encoding: .utf8).trimmingCharacters(in: .newlines)
            #expect(!arguments.contains(studio.token) && !arguments.contains("code=") && !arguments.contains("http"),
                    "xdg-open's command line carries no address: \(arguments)")
            #expect(arguments.hasPrefix(runtime + "/") && arguments.hasSuffix(".html"), "\(arguments)")
            #expect(try String(contentsOfFile: scratch.path("modes"), encoding: .utf8).hasPrefix("600"))
            let page = try String(contentsOfFile: scratch.path("page-1"), encoding: .utf8)
            #expect(!page.contains(studio.token), "the page carries a code, not the token")
            let link = try #require(page.components(separatedBy: "url=").dropFirst().first?.prefix { $0 != "\"" }.description)
            #expect(link.hasPrefix(studio.base + "/?code="))
            // The browser follows the page: a navigation from a file is cross-site.
            let signedIn = try curl(["-H", "Sec-Fetch-Site: cross-site", link])
            #expect(signedIn.status == 200 && signedIn.headers["set-cookie"] != nil)
            _ = try await eventually("removed once used", within: 10) { FileManager.default.fileExists(atPath: arguments) ? nil : true }
            #expect(try curl([link]).status == 401, "spent")

            // A new link (SIGUSR1) opens another page; stopping removes the one not yet used.
            studio.process.send(SIGUSR1)
            _ = try await eventually("xdg-open ran again", within: 20) { FileManager.default.fileExists(atPath: scratch.path("page-2")) ? true : nil }
            let second = try String(contentsOfFile: scratch.path("arguments"), encoding: .utf8).split(separator: "\n").last.map(String.init)
            let secondPath = try #require(second)
            #expect(secondPath != arguments && FileManager.default.fileExists(atPath: secondPath))
            await studio.stop()
            #expect(!FileManager.default.fileExists(atPath: secondPath), "removed when the studio stops")
        }
    }
}
