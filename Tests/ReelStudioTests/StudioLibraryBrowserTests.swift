import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The library view in chromium: a recording made in the page shows up with its thumbnail,
/// plays, is tagged, renamed, moved to the Trash and put back; the filter; the keyboard.
@Suite("Studio library in chromium", .serialized)
struct StudioLibraryBrowserTests {
    static func count(_ browser: WebDriver) async throws -> String? {
        try await browser.executeScript("return document.body.dataset.libraryCount ?? null").string
    }

    static func waitForCount(_ count: Int, _ browser: WebDriver) async throws {
        try await browser.waitUntil(script: "return document.body.dataset.libraryCount === arguments[0]", args: [.string(String(count))],
                                    timeout: .seconds(20))
    }

    @Test("stop a recording made in the page: it appears in the library with its thumbnail; it plays; tag, rename, Trash and undo")
    func recordedSessionInTheLibrary() async throws {
        try await withStudio(configure: StudioRecordBrowserTests.configure) { studio in
            let library = { try StudyLibrary(path: studio.server.settings.libraryPath, create: false) }
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.findElement(css: "#title").sendKeys("Physics")
                let interval = try await browser.findElement(css: "#interval")
                try await interval.clear()
                try await interval.sendKeys("0.3")
                try await StudioRecordBrowserTests.startRecording(browser)
                try await browser.waitUntil(script: "return Number(document.getElementById('rec-frames').textContent) >= 4", timeout: .seconds(20))
                try await browser.findElement(css: "#stop").click()
                try await StudioRecordBrowserTests.waitForState("finished", browser)

                try await browser.findElement(css: "#nav-library").click()
                try await Self.waitForCount(1, browser)
                #expect(try await browser.executeScript("return document.getElementById('view-record').hidden").bool == true)
                #expect(try await browser.executeScript("return location.hash").string == "#library")
                #expect(try await browser.findElement(css: ".card .card-title").text == "Physics")
                try await browser.waitUntil(script: "const i = document.querySelector('.card img'); return i !== null && i.complete && i.naturalWidth > 0")

                // Play it: the <video> reads the file through byte ranges and decodes it.
                try await browser.findElement(css: ".card").click()
                try await browser.waitUntil(script: "return document.getElementById('session-dialog').open")
                try await browser.waitUntil(script: "const v = document.getElementById('session-video'); return v.readyState >= 2",
                                            timeout: .seconds(20))
                #expect(try await browser.executeScript("return document.getElementById('session-video').videoWidth").int == 1920)
                _ = try await browser.executeScript("const v = document.getElementById('session-video'); v.muted = true; v.play()")
                try await browser.waitUntil(script: "const v = document.getElementById('session-video'); return v.currentTime > 0 || v.ended",
                                            timeout: .seconds(20))

                // Tag it with a tag that does not exist yet (made, as `reel tags add` would), rename it.
                try await browser.findElement(css: "#session-new-tag").sendKeys("biology" + WebDriver.Key.enter)
                try await browser.waitUntil(script: "return document.querySelector('#session-tags .chip span')?.textContent === 'biology'")
                let title = try await browser.findElement(css: "#session-title")
                try await title.clear()
                try await title.sendKeys("Physics II")
                try await browser.findElement(css: "#session-save").click()
                // The tag's edit already said "Saved.": wait for the title in the library itself.
                let edited = try await eventually("the title saved in the library") {
                    (try? library().sessions().first).flatMap { $0?.title == "Physics II" ? $0 : nil }
                }
                try await browser.waitUntil(script: "return document.getElementById('session-message').textContent === 'Saved.'")
                #expect(edited.tags == ["biology"])
                try await browser.waitUntil(script: "return document.querySelector('.card .card-title').textContent === 'Physics II'")

                // To the Trash: the card goes, the files go; Undo (focused, so Enter) brings both back.
                try await browser.findElement(css: "#session-trash").click()
                try await Self.waitForCount(0, browser)
                #expect(try await browser.executeScript("return document.getElementById('session-dialog').open").bool == false)
                #expect(!FileManager.default.fileExists(atPath: edited.filePath))
                #expect(try library().sessionCount() == 0)
                #expect(try await browser.activeElement.attribute("id") == "library-undo")
                try await browser.pressKeys(WebDriver.Key.enter)
                try await Self.waitForCount(1, browser)
                #expect(FileManager.default.fileExists(atPath: edited.filePath) && FileManager.default.fileExists(atPath: edited.thumbnailPath ?? "/none"))
                #expect(try library().sessions() == [edited])
                #expect(try await browser.executeScript("return document.getElementById('library-undo').hidden").bool == true)
                #expect(try await browser.activeElement.attribute("class") == "card", "focus back on the card put back")
            }
        }
    }

    @Test("the library by keyboard: names and Tab order, the filter by tag and day, a card opens with Enter and Escape returns to it; changes elsewhere show")
    func filterAndKeyboard() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#library")
                try await Self.waitForCount(3, browser)
                try await browser.waitUntil(script: "return [...document.querySelectorAll('.card img')].every((i) => i.complete && i.naturalWidth > 0)")
                try await StudioBrowserTests.screenshot(browser, "studio-library")
                let unnamed = try await browser.executeScript("""
                    return [...document.querySelectorAll('#view-library button, #view-library input, #view-library select')]
                      .filter((e) => !(e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim())
                      .map((e) => e.outerHTML)
                    """)
                #expect(unnamed.array?.isEmpty == true, "controls without a name: \(unnamed)")
                let ids = fixture.sessions.reversed().map { "card-" + $0.id.uuidString.lowercased() }
                let controls = try await browser.executeScript("""
                    return [...document.querySelectorAll('button, input, select, a[href]')]
                      .filter((e) => !e.disabled && e.offsetParent !== null).map((e) => e.dataset.id ? 'card-' + e.dataset.id : e.id)
                    """).array?.compactMap(\.string) ?? []
                #expect(controls == ["nav-record", "nav-live", "nav-overlay", "nav-cinematic", "nav-library", "nav-stats", "nav-materials", "nav-exports", "nav-backup", "sign-out", "filter-tag", "filter-since", "filter-until", "filter-clear"] + ids)
                // A date field takes a Tab stop for each of its parts: count each control once.
                var reached: [String] = []
                for _ in 0..<(controls.count * 4) where reached.last != controls.last {
                    try await browser.pressKeys(WebDriver.Key.tab)
                    let id = try await browser.executeScript(
                        "const e = document.activeElement; return e.dataset.id ? 'card-' + e.dataset.id : e.id").string ?? ""
                    if id != reached.last { reached.append(id) }
                }
                #expect(reached == controls, "Tab walks the controls in document order")

                // The newest card, opened by Enter (focus is on the last card: go back to the first).
                _ = try await browser.executeScript("document.querySelector('.card').focus()")
                try await browser.pressKeys(WebDriver.Key.enter)
                try await browser.waitUntil(script: "return document.getElementById('session-dialog').open")
                #expect(try await browser.activeElement.attribute("id") == "session-title")
                try await browser.pressKeys(WebDriver.Key.escape)
                try await browser.waitUntil(script: "return !document.getElementById('session-dialog').open")
                #expect(try await browser.executeScript("return document.activeElement.dataset.id").string == String(ids[0].dropFirst(5)))

                // The filter: a tag, then a day range, then all again.
                _ = try await browser.executeScript("""
                    const s = document.getElementById('filter-tag'); s.value = 'exam'; s.dispatchEvent(new Event('change'))
                    """)
                try await Self.waitForCount(2, browser)
                #expect(try await browser.findElement(css: "#library-count").text == "2 of 3 sessions match.")
                _ = try await browser.executeScript("""
                    const d = document.getElementById('filter-until'); d.value = '2026-11-03'; d.dispatchEvent(new Event('change'))
                    """)
                try await Self.waitForCount(1, browser)
                #expect(try await browser.findElement(css: ".card .card-title").text == "Chemistry")
                #expect(try await browser.findElement(css: "#library-count").text == "1 of 3 sessions matches.", "one is one")
                try await browser.findElement(css: "#filter-clear").click()
                try await Self.waitForCount(3, browser)

                // A change made elsewhere (a script with the token) reaches the page through the event stream.
                let renamed = try curl(["-X", "POST", "-H", "Authorization: Bearer \(studio.token)", "-H", "Origin: \(studio.base)",
                                        "-H", "Content-Type: application/json", "--data-binary", #"{"title":"Renamed elsewhere"}"#,
                                        studio.base + "/api/sessions/\(fixture.sessions[2].id.uuidString.lowercased())/edit"])
                #expect(renamed.status == 200)
                try await browser.waitUntil(script: "return document.querySelector('.card .card-title').textContent === 'Renamed elsewhere'")
            }
        }
    }

    @Test("a large library: the first cards drawn at once, the rest as the page scrolls down to them; every one reachable")
    func largeLibraryDrawsAsItScrolls() async throws {
        try await withStudio { studio in
            let library = try StudyLibrary(path: studio.server.settings.libraryPath)
            let start = Date(timeIntervalSince1970: 1_793_613_600)
            for n in 0..<150 {
                try library.add(StudySession(id: UUID(), startedAt: start + Double(n) * 3600, endedAt: start + Double(n) * 3600 + 1800,
                                             activeSeconds: 1500, videoSeconds: 10, mode: .full, intervalSeconds: nil, filePath: "/nowhere/\(n).mp4",
                                             thumbnailPath: nil, faceTrackPath: nil, title: "Session \(n)", tags: []))
            }
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#library")
                try await Self.waitForCount(150, browser)
                #expect(try await browser.executeScript("return document.querySelectorAll('.card').length").int == 48)
                #expect(try await browser.findElement(css: ".card .card-title").text == "Session 149", "newest first")
                try await browser.waitUntil(script: "window.scrollTo(0, document.body.scrollHeight); return document.querySelectorAll('.card').length === 150")
                #expect(try await browser.executeScript("return document.querySelectorAll('.card')[149].dataset.id").string != nil)
                #expect(try await browser.findElement(css: ".sessions li:last-child .card-title").text == "Session 0")
            }
        }
    }
}
