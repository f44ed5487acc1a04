import Foundation
import ReelCore
import ReelStore
import ReelStudio
import ReelTestSupport
import Testing

/// The page's connection and messages in chromium: an event stream refused while all are taken
/// comes back by itself; a refusal says its reason, not its number; a stale message goes with
/// the filter that caused it; a date being typed asks for nothing until it is a whole day.
@Suite("Studio page repairs in chromium", .serialized)
struct StudioPageRepairBrowserTests {
    static let connectionState = "return document.getElementById('connection').dataset.state"

    @Test("every event stream taken when the page loads: it says the connection is lost, then comes back live by itself once they are freed")
    func reconnectsAfterAllStreamsWereTaken() async throws {
        try await withStudio(configure: { $0.statusInterval = 0.3 }) { studio in
            var readers: [EventStreamReader] = []
            defer { for reader in readers { reader.stop() } }
            for _ in 0..<studio.server.settings.maxEventStreams {
                let reader = try EventStreamReader(url: studio.base + "/api/events", headers: ["Authorization: Bearer \(studio.token)"])
                readers.append(reader)
                #expect(await reader.waitForEvents(named: "status", count: 1, timeout: .seconds(10)) != nil)
            }
            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: Self.connectionState + " === 'lost'")
                for reader in readers { reader.stop() }
                try await browser.waitUntil(script: Self.connectionState + " === 'live'", timeout: .seconds(40))
                // Live means the stream delivers again: the status comes, and the server counts this tab's stream.
                try await browser.waitUntil(script: "return document.getElementById('streams').textContent === '1'", timeout: .seconds(20))
            }
        }
    }

    @Test("a refusal says its reason phrase over HTTP (422 Unprocessable Content), and the page shows the message without the number")
    func refusalsSayTheirReason() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let id = fixture.sessions[0].id.uuidString.lowercased()
            let review = try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + "/api/sessions/\(id)/review"])
            #expect(review.status == 422)
            #expect(review.text.hasPrefix("422 Unprocessable Content: this session has no face positions"), "\(review.text)")
            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#review/\(id)")
                try await browser.waitUntil(script: "return document.getElementById('review-message').textContent.includes('face positions')")
                let message = try await browser.findElement(css: "#review-message").text
                #expect(message.hasPrefix("this session has no face positions"), "\(message)")
            }
        }
    }

    @Test("the library: a filter's refusal goes when Show all clears the filter; a date typed digit by digit asks only for whole days")
    func libraryFilterMessagesAndDates() async throws {
        try await withStudio { studio in
            try LibraryFixture(studio)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#library")
                try await StudioLibraryBrowserTests.waitForCount(3, browser)
                _ = try await browser.executeScript("""
                    const u = document.getElementById('filter-until'); u.value = '2026-11-01'; u.dispatchEvent(new Event('change'));
                    const s = document.getElementById('filter-since'); s.value = '2026-11-10'; s.dispatchEvent(new Event('change'))
                    """)
                try await browser.waitUntil(script: "return document.getElementById('library-message').dataset.tone === 'bad'")
                #expect(try await browser.findElement(css: "#library-message").text.hasPrefix("until is before since"))
                try await browser.findElement(css: "#filter-clear").click()
                try await StudioLibraryBrowserTests.waitForCount(3, browser)
                try await browser.waitUntil(script: "return document.getElementById('library-message').textContent === ''")

                // Typed as a person types it: month, day, then the year digit by digit.
                _ = try await browser.executeScript("performance.clearResourceTimings()")
                try await browser.findElement(css: "#filter-since").sendKeys("11092026")
                try await StudioLibraryBrowserTests.waitForCount(2, browser)
                let asked = try await browser.executeScript("""
                    return performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.includes('/api/sessions?'))
                    """).array?.compactMap(\.string) ?? []
                #expect(!asked.isEmpty && asked.allSatisfy { $0.hasSuffix("since=2026-11-09") }, "\(asked)")
                #expect(try await browser.findElement(css: "#library-message").text == "")
            }
        }
    }

    /// Opens the library's dialog of `id` in `browser` (signed in first).
    static func openDialog(_ studio: TestStudio, _ browser: WebDriver, _ id: String) async throws {
        try await browser.navigate(to: studio.server.signInURL)
        try await browser.navigate(to: studio.base + "/#library")
        try await StudioLibraryBrowserTests.waitForCount(3, browser)
        try await browser.findElement(css: ".card[data-id='\(id)']").click()
        try await browser.waitUntil(script: "return document.getElementById('session-dialog').open")
    }

    @Test("two tabs edit one session: the second save, made on the older version, is refused; the tab says so and shows the other tab's title")
    func twoTabsEditOneSession() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let session = fixture.sessions[0]
            let id = session.id.uuidString.lowercased()
            try await withWebDriver { tabA in
                try await withWebDriver { tabB in
                    try await Self.openDialog(studio, tabA, id)
                    try await Self.openDialog(studio, tabB, id)
                    let titleB = try await tabB.findElement(css: "#session-title")
                    try await titleB.clear()
                    try await titleB.sendKeys("From B")

                    let titleA = try await tabA.findElement(css: "#session-title")
                    try await titleA.clear()
                    try await titleA.sendKeys("From A")
                    try await tabA.findElement(css: "#session-save").click()
                    try await tabA.waitUntil(script: "return document.getElementById('session-message').textContent === 'Saved.'")

                    try await tabB.findElement(css: "#session-save").click()
                    try await tabB.waitUntil(script: "return document.getElementById('session-message').dataset.tone === 'warn'")
                    let said = try await tabB.findElement(css: "#session-message").text
                    #expect(said.contains("changed in another tab"), "\(said)")
                    #expect(try await tabB.executeScript("return document.getElementById('session-title').value").string == "From A")
                    #expect(try StudyLibrary(path: studio.server.settings.libraryPath).session(session.id)?.title == "From A")

                    // Tab B now holds the new version: its next save goes through.
                    try await titleB.clear()
                    try await titleB.sendKeys("From B again")
                    try await tabB.findElement(css: "#session-save").click()
                    try await tabB.waitUntil(script: "return document.getElementById('session-message').textContent === 'Saved.'")
                    // Tab A's open dialog follows the change through the event stream.
                    try await tabA.waitUntil(script: "return document.getElementById('session-heading').textContent === 'From B again'")
                }
            }
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).session(session.id)?.title == "From B again")
        }
    }

    @Test("the Trash in the library view: a session moved there is listed after a reload of the page, and put back from it")
    func trashSurvivesAReload() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let session = fixture.sessions[1]
            let id = session.id.uuidString.lowercased()
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await Self.openDialog(studio, browser, id)
                try await browser.findElement(css: "#session-trash").click()
                try await StudioLibraryBrowserTests.waitForCount(2, browser)

                let listed = try studio.api([studio.base + "/api/trash"])
                #expect(listed.status == 200 && listed.text.contains(id) && listed.text.contains("Algebra"), "\(listed.text)")

                // The toast's Undo is gone with a reload; the Trash is not.
                try await browser.navigate(to: studio.base + "/#library")
                try await StudioLibraryBrowserTests.waitForCount(2, browser)
                try await browser.waitUntil(script: "return document.querySelectorAll('#trash-list li').length === 1")
                #expect(try await browser.findElement(css: "#trash-list li").text.contains("Algebra"))
                try await browser.findElement(css: "#trash-list button[data-id='\(id)']").click()
                try await StudioLibraryBrowserTests.waitForCount(3, browser)
                try await browser.waitUntil(script: "return document.querySelectorAll('#trash-list li').length === 0")
                #expect(FileManager.default.fileExists(atPath: session.filePath))
                #expect(try await browser.findElement(css: "#library-message").text.contains("Put “Algebra” back"))
            }
            #expect(try Self.libraryCount(studio) == 3)
        }
    }

    static func libraryCount(_ studio: TestStudio) throws -> Int {
        try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount()
    }

    @Test("the materials view: a scan counts down its 30 s and Cancel ends it at once, the studio's scan with it")
    func scanCountsDownAndCancels() async throws {
        try await StudioMaterialsTests.withBooks { studio, _ in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/source", json: #"{"source":"test:320x180@10"}"#, cookie: cookie).status == 200)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#materials")
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '0'")
                try await browser.findElement(css: "#material-scan").click()
                let left = "const m = /(\\d+) s left/.exec(document.getElementById('materials-message').textContent); return m ? Number(m[1]) : null"
                try await browser.waitUntil(script: left.replacingOccurrences(of: "return m ?", with: "return m !== null && Number(m[1]) >= 28 ?"))
                try await browser.waitUntil(script: left.replacingOccurrences(of: "return m ?", with: "return m !== null && Number(m[1]) <= 27 ?"),
                                            timeout: .seconds(10))
                let cancel = try await browser.findElement(css: "#material-scan-cancel")
                try await cancel.click()
                try await browser.waitUntil(script: "return document.getElementById('materials-message').textContent === 'Scan cancelled.'", timeout: .seconds(5))
                #expect(try await browser.executeScript("return document.getElementById('material-scan').disabled").bool == false)
                #expect(try await browser.executeScript("return document.getElementById('scan-preview').hidden").bool == true)
                #expect(try await browser.executeScript("return document.getElementById('material-scan-cancel').hidden").bool == true)
            }
            // The studio's scan ended too: another starts at once instead of 409 "a scan is running already".
            let next = try studio.post("/api/materials/scan", json: #"{"timeout":1}"#, cookie: cookie)
            #expect(next.status == 200, "\(next.status) \(next.text)")
        }
    }

    @Test("the materials view: Remove asks to confirm first; only the second press removes the book")
    func removingABookAsksFirst() async throws {
        try await StudioMaterialsTests.withBooks { studio, _ in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/materials", json: #"{"title":"Signals"}"#, cookie: cookie).status == 201)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#materials")
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '1'")
                try await browser.findElement(css: ".material button.quiet").click()
                try await browser.waitUntil(script: "return document.querySelector('.material button.quiet').textContent === 'Really remove?'")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).materials().count == 1, "one press removes nothing")
                try await browser.findElement(css: ".material button.quiet").click()
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '0'")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).materials().isEmpty)
            }
        }
    }

    @Test("the stats view: half a minute of study says 30 s, not 0 min; a goal met today redraws the chart and counts in the streak")
    func statsSecondsAndAGoalMet() async throws {
        try await withStudio { studio in
            let library = try StudyLibrary(path: studio.server.settings.libraryPath)
            let end = Date()
            // 30 s of study just now (a day's start near: begin it no earlier than today's midnight).
            let start = max(end - 40, CalendarDay(containing: end, in: .current).start(in: .current))
            try library.add(StudySession(id: UUID(), startedAt: start, endedAt: end, activeSeconds: 30, videoSeconds: 3, mode: .full,
                                         intervalSeconds: nil, filePath: "/nowhere/a.mp4", thumbnailPath: nil, faceTrackPath: nil,
                                         title: "Short", tags: []))
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#stats")
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom !== undefined")
                #expect(try await browser.findElement(css: "#stats-total").text == "30 s")
                let charts = "return performance.getEntriesByType('resource').filter((e) => e.name.includes('/api/stats.svg')).length"
                try await browser.waitUntil(script: charts.replacingOccurrences(of: ".length", with: ".length >= 1"))
                let before = try await browser.executeScript(charts).int ?? 0

                // A goal of 1 minute from today, then another 40 s of study: today meets it.
                try await browser.findElement(css: "#goal-minutes").sendKeys("1")
                try await browser.findElement(css: "#goal-set").click()
                try await browser.waitUntil(script: "return document.getElementById('goals-list').textContent.startsWith('1 min from')")
                // After the first (overlapping study counts once).
                try library.add(StudySession(id: UUID(), startedAt: end, endedAt: end + 1, activeSeconds: 40, videoSeconds: 3,
                                             mode: .full, intervalSeconds: nil, filePath: "/nowhere/b.mp4", thumbnailPath: nil,
                                             faceTrackPath: nil, title: "More", tags: []))
                _ = try await browser.executeScript("document.getElementById('stats-today').click()")
                try await browser.waitUntil(script: "return document.getElementById('stats-total').textContent === '1 min'")
                #expect(try await browser.findElement(css: "#stats-streak").text == "1 day")
                // The chart is fetched again for each change (same period, new bars), not kept from before.
                try await browser.waitUntil(script: charts.replacingOccurrences(of: ".length", with: ".length >= \(before + 2)"))
                let today = try await browser.executeScript(
                    "return [...document.querySelectorAll('#stats-days tr')].find((r) => r.dataset.verdict === 'met')?.cells[0].textContent ?? null").string
                #expect(today == CalendarDay(containing: Date(), in: .current).description)
            }
        }
    }

    @Test("one date format and one name for a source across the views: the library's cards and dialog, the status panel")
    func oneFormatAcrossViews() async throws {
        try await withStudio(configure: { $0.source = "test" }) { studio in
            let fixture = try LibraryFixture(studio)
            let format = DateFormatter()
            format.locale = Locale(identifier: "en_US_POSIX")
            format.timeZone = .current
            format.dateFormat = "yyyy-MM-dd HH:mm"
            let start = format.string(from: fixture.sessions[2].startedAt), end = format.string(from: fixture.sessions[2].endedAt)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: "return document.getElementById('source').textContent !== ''")
                #expect(try await browser.findElement(css: "#source").text == "Test pattern (test)")
                try await browser.navigate(to: studio.base + "/#library")
                try await StudioLibraryBrowserTests.waitForCount(3, browser)
                let facts = try await browser.findElement(css: ".card .card-facts").text
                #expect(facts.hasPrefix(start + " · "), "\(facts)")
                try await browser.findElement(css: ".card").click()
                try await browser.waitUntil(script: "return document.getElementById('session-dialog').open")
                #expect(try await browser.findElement(css: "#session-when").text == "\(start) to \(end)")
            }
        }
    }

    @Test("two tabs review one session: the second tab's change, made on the older review, is refused; it says so and shows the first tab's")
    func twoTabsReviewOneSession() async throws {
        try await withStudio { studio in
            let fixture = try ReviewFixture(studio)
            try await withWebDriver(windowSize: (1280, 1000)) { tabA in
                try await withWebDriver(windowSize: (1280, 1000)) { tabB in
                    for tab in [tabA, tabB] {
                        try await tab.navigate(to: studio.server.signInURL)
                        try await tab.navigate(to: studio.base + "/#review/\(fixture.id)")
                        try await StudioReviewBrowserTests.waitForData(tab, "reviewSegments", "2")
                    }
                    try await tabA.findElement(css: "#review-mosaic").click()
                    try await StudioReviewBrowserTests.waitForData(tabA, "reviewSaved", "1")
                    #expect(try StudioReviewBrowserTests.edits(fixture).disabled == true)

                    try await tabB.findElement(css: "#review-reset").click()
                    try await tabB.waitUntil(script: "return document.getElementById('review-message').dataset.tone === 'warn'")
                    let said = try await tabB.findElement(css: "#review-message").text
                    #expect(said.contains("changed in another tab"), "\(said)")
                    #expect(try await tabB.executeScript("return document.getElementById('review-mosaic').checked").bool == false,
                            "tab B shows tab A's change")
                    #expect(try StudioReviewBrowserTests.edits(fixture).disabled == true, "the stale reset changed nothing")
                }
            }
        }
    }
}
