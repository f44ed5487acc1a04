import Foundation
import ReelStudio
import ReelTestSupport
import Testing

/// The studio in a real browser: Debian's chromium driven by chromedriver over W3C WebDriver.
@Suite("Studio in chromium", .serialized)
struct StudioBrowserTests {
    /// Where a screenshot of the page goes when `REEL_UPDATE_SCREENSHOTS=1` (the README shows it).
    static let screenshotFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../docs/screenshots").standardized

    /// Saves the page as `docs/screenshots/NAME.png` when `REEL_UPDATE_SCREENSHOTS=1`.
    static func screenshot(_ browser: WebDriver, _ name: String) async throws {
        guard ProcessInfo.processInfo.environment["REEL_UPDATE_SCREENSHOTS"] == "1" else { return }
        try FileManager.default.createDirectory(at: screenshotFolder, withIntermediateDirectories: true)
        try await browser.screenshot().write(to: screenshotFolder.appendingPathComponent(name + ".png"))
    }

    @Test("the address with the token signs in: an HttpOnly SameSite=Strict cookie, the token gone from the address bar, the page live")
    func signInAndLivePage() async throws {
        try await withStudio(configure: { $0.statusInterval = 0.3; $0.source = "test" }) { studio in
            try await withWebDriver(windowSize: (1024, 760)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                #expect(try await browser.currentURL == studio.base + "/", "sent on to / without the token")
                let cookie = try #require(try await browser.cookie(named: "reel_studio_\(studio.server.port)"))
                #expect(cookie.httpOnly && cookie.sameSite == "Strict" && cookie.path == "/")
                let scriptSees = try await browser.executeScript("return document.cookie").string ?? ""
                #expect(!scriptSees.contains("reel_studio"), "the page's script cannot read the session")

                // The page fills from the event stream, and follows it.
                try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
                try await browser.waitUntil(script: "return document.getElementById('library-sessions').textContent === '0'")
                #expect(try await browser.findElement(css: "#source").text == "Test pattern (test)", "the status names the source as the source lists do")
                #expect(try await browser.findElement(css: "#version").text == "test")
                let first = try await browser.executeScript("return Number(document.body.dataset.updated)").number ?? 0
                try await browser.waitUntil(script: "return Number(document.body.dataset.updated) > arguments[0]", args: [.number(first)])
                #expect(try await browser.executeScript("return document.querySelectorAll('script:not([src]), [style]').length").number == 0,
                        "no inline script or style (the CSP allows none)")

                try await StudioBrowserTests.screenshot(browser, "studio-status")
                let shot = try await browser.screenshot()
                #expect(shot.starts(with: [0x89, 0x50, 0x4E, 0x47]), "a PNG")
            }
        }
    }

    @Test("the keyboard reaches every control, each with a name; sign-out by keyboard ends the session")
    func keyboardAndSignOut() async throws {
        try await withStudio { studio in
            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
                let unnamed = try await browser.executeScript("""
                    return [...document.querySelectorAll('button, input, select, textarea, a[href]')]
                      .filter((e) => !(e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim())
                      .map((e) => e.outerHTML)
                    """)
                #expect(unnamed.array?.isEmpty == true, "controls without a name: \(unnamed)")
                // Every view's controls, hidden ones included, each with a name too.
                let unnamedAnywhere = try await browser.executeScript("""
                    return [...document.querySelectorAll('main button, main input, main select, main textarea, main a[href], main progress, main img')]
                      .filter((e) => e.tagName === 'IMG' ? e.getAttribute('alt') === null
                        : !(e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim())
                      .map((e) => e.id || e.outerHTML)
                    """)
                #expect(unnamedAnywhere.array?.isEmpty == true, "controls without a name: \(unnamedAnywhere)")
                // What Tab should reach: every enabled, shown control in document order, a radio
                // group once (at its checked radio).
                let controls = try await browser.executeScript("""
                    return [...document.querySelectorAll('button, input, select, textarea, a[href]')]
                      .filter((e) => !e.disabled && e.offsetParent !== null && (e.type !== 'radio' || e.checked)).map((e) => e.id)
                    """).array?.compactMap(\.string) ?? []
                #expect(controls == ["nav-record", "nav-live", "nav-overlay", "nav-cinematic", "nav-library", "nav-stats", "nav-materials", "nav-exports", "nav-backup", "sign-out", "source-choice", "mode-timelapse", "interval", "title", "tags", "output-folder", "min-hours", "start"])
                var reached: [String] = []
                for _ in controls {
                    try await browser.pressKeys(WebDriver.Key.tab)
                    reached.append(try await browser.activeElement.attribute("id") ?? "")
                }
                #expect(reached == controls, "Tab walks the controls in document order")

                // Sign-out comes after the nine views: from a fresh page, Tab ×10 then Enter.
                try await browser.navigate(to: studio.base + "/")
                try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
                for _ in 0..<10 { try await browser.pressKeys(WebDriver.Key.tab) }
                #expect(try await browser.activeElement.attribute("id") == "sign-out")
                try await browser.pressKeys(WebDriver.Key.enter)
                try await browser.waitUntil(script: "return !document.getElementById('signed-out').hidden")
                #expect(try await browser.cookie(named: "reel_studio_\(studio.server.port)") == nil, "the cookie is cleared")
                try await browser.navigate(to: studio.base + "/")
                #expect(try await browser.executeScript("return document.body.innerText").string?.contains("401 Unauthorized") == true)
            }
        }
    }

    @Test("a session signed out elsewhere: its event stream ends and the page says so instead of retrying")
    func signedOutElsewhere() async throws {
        try await withStudio { studio in
            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
                let cookie = try #require(try await browser.cookie(named: "reel_studio_\(studio.server.port)"))
                let out = try curl(["-X", "POST", "-H", "Cookie: \(cookie.name)=\(cookie.value)", "-H", "Origin: \(studio.base)",
                                    studio.base + "/api/sign-out"])
                #expect(out.status == 204)
                try await browser.waitUntil(script: "return !document.getElementById('signed-out').hidden", timeout: .seconds(10))
                #expect(try await browser.findElement(css: "#connection").text == "Signed out")
            }
        }
    }

    /// (Headless chromium makes a window at least 500 px wide: the page is 500 wide here.)
    @Test("at phone width every view fits: no sideways scrolling, the facts in one column")
    func phoneWidth() async throws {
        try await withStudio { studio in
            try LibraryFixture(studio)
            try await withWebDriver(windowSize: (390, 844)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
                for view in ["record", "live", "library", "stats", "materials", "exports", "backup"] {
                    _ = try await browser.executeScript("location.hash = arguments[0]", args: [.string(view)])
                    try await browser.waitUntil(script: "return !document.getElementById('view-' + arguments[0]).hidden", args: [.string(view)])
                    if view == "library" { try await browser.waitUntil(script: "return document.body.dataset.libraryCount === '3'") }
                    if view == "stats" { try await browser.waitUntil(script: "return document.body.dataset.statsFrom !== undefined") }
                    let fits = try await browser.executeScript("return document.documentElement.scrollWidth <= window.innerWidth")
                    let wide = try await browser.executeScript("""
                        return [...document.querySelectorAll('body *')].filter((e) => e.offsetParent !== null
                          && e.getBoundingClientRect().right > window.innerWidth + 0.5).slice(0, 5).map((e) => (e.id || e.className || e.tagName) + ' ends at ' + e.getBoundingClientRect().right + ' of ' + window.innerWidth)
                        """)
                    #expect(fits == .bool(true), "the \(view) view is wider than the screen: \(wide)")
                    let columns = try await browser.executeScript(
                        "return getComputedStyle(document.querySelector('#view-' + arguments[0] + ' .facts') ?? document.querySelector('[aria-labelledby=status-title] .facts')).gridTemplateColumns.split(' ').length",
                        args: [.string(view)])
                    #expect(columns.number == 1, "\(view)")
                }
            }
        }
    }
}
