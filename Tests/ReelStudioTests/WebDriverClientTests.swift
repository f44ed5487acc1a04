import Foundation
import ReelTestSupport
import Testing

/// ReelHarness's WebDriver client against a real page in Debian's chromium (through
/// chromedriver): finding, clicking, typing, focus, scripts, cookies, screenshots, failures,
/// and that quitting leaves no process behind. The page comes from a small loopback server
/// (Debian's python3), since chromium keeps no cookies for `file://` pages.
@Suite("WebDriver client", .serialized)
struct WebDriverClientTests {
    static let page = """
        <!doctype html><html><head><meta charset="utf-8"><title>WebDriver probe</title></head><body>
        <label for="name">Name</label> <input id="name" type="text">
        <button id="go" type="button">Go</button>
        <a id="more" href="#more">More</a>
        <p id="status">waiting</p>
        <ul><li class="item">one</li><li class="item">two</li><li class="item">three</li></ul>
        <script>
        document.cookie = "script=hello; path=/; SameSite=Lax";
        let clicks = 0;
        document.getElementById("go").addEventListener("click", () => {
          clicks += 1;
          document.getElementById("status").textContent = "clicked " + clicks;
        });
        </script>
        </body></html>
        """

    @Test func findsClicksAndReadsText() async throws {
        try await withPage { driver, url in
            #expect(try await driver.title == "WebDriver probe")
            #expect(try await driver.currentURL == url.absoluteString)
            let label = try await driver.findElement(css: "label[for=name]")
            #expect(try await label.text == "Name")
            #expect(try await label.attribute("for") == "name")
            #expect(try await label.attribute("data-missing") == nil)
            #expect(try await driver.findElement(css: "#name").tagName == "input")
            let items = try await driver.findElements(css: "li.item")
            var texts: [String] = []
            for item in items { texts.append(try await item.text) }
            #expect(texts == ["one", "two", "three"])
            #expect(try await driver.findElements(css: ".absent").isEmpty)

            let status = try await driver.findElement(css: "#status")
            #expect(try await status.text == "waiting")
            try await driver.findElement(css: "#go").click()
            try await driver.waitUntil("the status says clicked 1", timeout: .seconds(5)) { try await status.text == "clicked 1" }
        }
    }

    @Test func typesAndMovesTheFocusWithTabAndSpace() async throws {
        try await withPage { driver, _ in
            let input = try await driver.findElement(css: "#name")
            try await input.sendKeys("Ada")
            #expect(try await input.property("value") == "Ada")
            #expect(try await driver.activeElement.attribute("id") == "name")

            // Tab from the input: the button has the focus; Space presses it.
            try await input.sendKeys(WebDriver.Key.tab)
            let focused = try await driver.activeElement
            #expect(try await focused.attribute("id") == "go")
            try await focused.sendKeys(WebDriver.Key.space)
            _ = try await driver.waitUntil(script: "return document.getElementById('status').textContent === 'clicked 1'",
                                           timeout: .seconds(5))

            // Key actions go to whatever has the focus: Tab again reaches the link.
            try await driver.pressKeys(WebDriver.Key.tab)
            #expect(try await driver.activeElement.attribute("id") == "more")

            try await input.clear()
            try await input.sendKeys("x\(WebDriver.Key.backspace)ok")
            #expect(try await input.property("value").string == "ok")
        }
    }

    @Test func scriptsReturnJSON() async throws {
        try await withPage { driver, _ in
            #expect(try await driver.executeScript("return 6 * 7") == 42)
            #expect(try await driver.executeScript("return 0.5").number == 0.5)
            #expect(try await driver.executeScript("return 'a' + 'b'") == "ab")
            #expect(try await driver.executeScript("return null") == .null)
            #expect(try await driver.executeScript("return 1 < 2") == true)
            #expect(try await driver.executeScript("return {n: 1, list: [true, null, 'x'], inner: {s: 's'}}")
                == ["n": 1, "list": [true, nil, "x"], "inner": ["s": "s"]])
            #expect(try await driver.executeScript("return arguments[0] + arguments[1].n", args: [40, ["n": 2]]).int == 42)

            let button = try await driver.findElement(css: "#go")
            #expect(try await driver.executeScript("return arguments[0].id", args: [button.json]) == "go")
            let returned = try #require(driver.element(try await driver.executeScript("return document.getElementById('status')")))
            #expect(try await returned.text == "waiting")

            let asyncValue = try await driver.executeAsyncScript(
                "const done = arguments[arguments.length - 1]; setTimeout(() => done(document.title + ' ' + arguments[0]), 0);",
                args: ["late"])
            #expect(asyncValue == "WebDriver probe late")

            // A value that appears later: polled, with a bound.
            try await driver.executeScript("setTimeout(() => { document.body.dataset.later = 'yes'; }, 30)")
            #expect(try await driver.waitUntil(script: "return document.body.dataset.later", timeout: .seconds(5)) == "yes")

            let thrown = await #expect(throws: WebDriver.Failure.self) { try await driver.executeScript("throw new Error('boom')") }
            #expect(thrown?.error == "javascript error")
            #expect(thrown?.description.contains("boom") == true)
        }
    }

    @Test func cookiesIncludeHttpOnlyOnes() async throws {
        try await withPage { driver, _ in
            // The page's script cookie is set as the page loads; the server's came with it.
            #expect(try await driver.executeScript("return document.cookie") == "script=hello")
            let cookies = try await driver.cookies().sorted { $0.name < $1.name }
            #expect(cookies.map(\.name) == ["script", "server"])
            let script = try #require(cookies.first), server = try #require(cookies.last)
            #expect(script.value == "hello" && script.path == "/" && !script.httpOnly && script.sameSite == "Lax")
            #expect(server.value == "1" && server.path == "/" && server.httpOnly && server.sameSite == "Strict")
            #expect(try await driver.cookie(named: "server")?.httpOnly == true)
            #expect(try await driver.cookie(named: "absent") == nil)
        }
    }

    @Test func screenshotIsAPNGOfTheViewport() async throws {
        try await withPage(windowSize: (1024, 700)) { driver, _ in
            let png = try await driver.screenshot()
            #expect(png.starts(with: WebDriver.pngSignature))
            let size = try #require(WebDriver.pngSize(png))
            #expect(size.width > 0 && size.height > 0)
            let viewport = try await driver.executeScript(
                "return [innerWidth * devicePixelRatio, innerHeight * devicePixelRatio, outerWidth, outerHeight]")
            #expect(viewport == [.number(Double(size.width)), .number(Double(size.height)), 1024, 700])
        }
    }

    @Test func failuresNameTheCommandAndWebDriversError() async throws {
        try await withPage { driver, _ in
            let missing = await #expect(throws: WebDriver.Failure.self) { try await driver.findElement(css: "#missing") }
            #expect(missing?.error == "no such element")
            #expect(missing?.status == 404)
            let text = missing.map(String.init(describing:)) ?? ""
            #expect(text.contains("no such element"))
            #expect(text.contains("findElement(css: \"#missing\")"))
            #expect(text.contains("Unable to locate element"))

            let timedOut = await #expect(throws: WebDriver.Failure.self) {
                try await driver.waitUntil(script: "return false", timeout: .milliseconds(100))
            }
            #expect(timedOut?.error == "timeout")
            #expect(timedOut?.description.contains("last the value false") == true)
        }
    }

    @Test func aHungDriverFailsTheCommandInsteadOfHangingIt() async throws {
        try await withWebDriver { driver in
            driver.requestTimeout = 0.5
            kill(driver.driverProcessID, SIGSTOP)  // quit() kills it, stopped or not
            let started = ContinuousClock.now
            let hung = await #expect(throws: WebDriver.Failure.self) { try await driver.title }
            #expect(hung?.error == "no answer")
            #expect(hung?.description.contains("title") == true)
            #expect(ContinuousClock.now - started < .seconds(5))
        }
    }

    @Test func quitEndsEverythingAndIsSafeTwice() async throws {
        let driver = try await WebDriver()
        let group = driver.driverProcessID, profile = driver.profileDirectory
        let browser = try #require(driver.capabilities["goog:processID"]?.int)
        #expect(driver.capabilities["browserName"] == "chrome")
        #expect(try await driver.currentURL == "about:blank")  // not Debian's New Tab Page
        #expect(driver.leftoverProcesses.contains(group))
        #expect(driver.leftoverProcesses.contains(Int32(browser)))
        await driver.quit()
        #expect(WebDriver.leftoverProcesses(group: group, profile: profile) == [])
        #expect(!FileManager.default.fileExists(atPath: profile))
        await driver.quit()
        let after = await #expect(throws: WebDriver.Failure.self) { try await driver.title }
        #expect(after?.error == "session quit")
    }

    @Test func aDriverDroppedWithoutQuitEndsItsProcesses() async throws {
        var driver: WebDriver? = try await WebDriver()
        let group = try #require(driver?.driverProcessID), profile = try #require(driver?.profileDirectory)
        #expect(try await driver?.executeScript("return 1") == 1)
        #expect(!WebDriver.leftoverProcesses(group: group, profile: profile).isEmpty)
        driver = nil
        #expect(WebDriver.leftoverProcesses(group: group, profile: profile) == [])
    }

    @Test func aThrowingBodyStillQuits() async throws {
        struct Planned: Error {}
        var started: (group: Int32, profile: String)?
        await #expect(throws: Planned.self) {
            try await withWebDriver { driver in
                started = (driver.driverProcessID, driver.profileDirectory)
                throw Planned()
            }
        }
        let (group, profile) = try #require(started)
        #expect(WebDriver.leftoverProcesses(group: group, profile: profile) == [])
    }

    // MARK: -

    /// Serves ``page`` on loopback, opens it in a new driver, runs `body`, then quits and
    /// checks that nothing the driver started still runs.
    private func withPage(windowSize: (width: Int, height: Int) = (1280, 800),
                          _ body: (WebDriver, URL) async throws -> Void) async throws {
        let server = try await PageServer(page: Self.page)
        var started: (group: Int32, profile: String)?
        do {
            try await withWebDriver(windowSize: windowSize) { driver in
                started = (driver.driverProcessID, driver.profileDirectory)
                try await driver.navigate(to: server.url)
                try await body(driver, server.url)
            }
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let (group, profile) = try #require(started)
        #expect(WebDriver.leftoverProcesses(group: group, profile: profile) == [])
    }
}

/// One HTML page on 127.0.0.1 (Debian's python3 `http.server`): `GET /` answers it with an
/// HttpOnly, SameSite=Strict cookie `server=1`; anything else is 404.
private final class PageServer {
    let url: URL
    private let process: BackgroundProcess
    private let folder: TemporaryDirectory

    private static let script = #"""
        import http.server, sys
        port, page = int(sys.argv[1]), open(sys.argv[2], 'rb').read()
        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass
            def do_GET(self):
                if self.path != '/':
                    self.send_response(404)
                    self.send_header('Content-Length', '0')
                    self.end_headers()
                    return
                self.send_response(200)
                self.send_header('Content-Type', 'text/html; charset=utf-8')
                self.send_header('Set-Cookie', 'server=1; Path=/; HttpOnly; SameSite=Strict')
                self.send_header('Content-Length', str(len(page)))
                self.end_headers()
                self.wfile.write(page)
        http.server.ThreadingHTTPServer(('127.0.0.1', port), Handler).serve_forever()
        """#

    init(page: String) async throws {
        folder = try TemporaryDirectory()
        try page.write(toFile: folder.path("page.html"), atomically: true, encoding: .utf8)
        let port = try Loopback.freePort()
        url = URL(string: "http://127.0.0.1:\(port)/")!
        process = try BackgroundProcess("/usr/bin/python3", ["-c", Self.script, String(port), folder.path("page.html")])
        let client = TestHTTPClient(timeout: 2)
        let deadline = ContinuousClock.now + .seconds(10)
        while (try? await client.send("GET", url))?.status != 200 {
            guard ContinuousClock.now < deadline, process.isRunning else {
                await stop()
                throw WebDriver.Failure(command: "serve the test page", error: "not ready",
                                        message: "python3 http.server on port \(port) did not answer")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    func stop() async {
        process.send(SIGKILL)
        _ = await process.wait(timeout: .seconds(5))
        folder.cleanup()
    }
}
