import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The stats and goals API through curl, against `reel stats --json` and `reel goal ls --json`
/// on the same library (one computation, two front ends); and the stats view in chromium.
@Suite("Studio stats and goals", .serialized)
struct StudioStatsTests {
    static func object(_ text: String) -> NSObject? { try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? NSObject }

    @Test("the week and the month as reel stats --json computes them; the chart is the SVG reel stats --svg draws; bad queries are 400")
    func statsAsTheCommandLine() async throws {
        try await withStudio { studio in
            try LibraryFixture(studio)
            let library = studio.server.settings.libraryPath
            #expect(try studio.post("/api/goals", json: #"{"minutes":45,"date":"2026-11-01"}"#, cookie: try studio.signIn()).status == 200)
            for query in ["period=week&date=2026-11-02", "period=month&date=2026-11-20", "date=2026-11-10"] {
                let api = try studio.api([studio.base + "/api/stats?" + query])
                #expect(api.status == 200 && api.headers["content-type"] == "application/json")
                let date = query.components(separatedBy: "date=")[1]
                let cli = try Subprocess.run(try ReelBinary.path(), ["stats", "--json", "--date", date, "--library", library]
                                                + (query.contains("month") ? ["--month"] : []))
                #expect(cli.status == 0, "\(cli.stderr)")
                #expect(Self.object(api.text) == Self.object(cli.stdout) && Self.object(api.text) != nil, "\(query): \(api.text) vs \(cli.stdout)")
            }
            let week = try #require(Self.object(try studio.api([studio.base + "/api/stats?period=week&date=2026-11-09"]).text) as? [String: Any])
            #expect(week["from"] as? String == "2026-11-09" && week["totalMinutes"] as? Double == 50 && week["daysMet"] as? Int == 1)

            let chart = try studio.api([studio.base + "/api/stats.svg?period=month&date=2026-11-20"])
            let folder = studio.folder.path("chart")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            _ = try Subprocess.run(try ReelBinary.path(), ["stats", "--month", "--date", "2026-11-20", "--svg", folder + "/month.svg", "--library", library])
            #expect(chart.status == 200 && chart.headers["content-type"] == "image/svg+xml")
            #expect(chart.body == (try Data(contentsOf: URL(fileURLWithPath: folder + "/month.svg"))), "the same picture as reel stats --svg")

            for (query, words) in [("period=year", "neither week nor month"), ("date=2026-02-30", "not a day"), ("date=soon", "not a day")] {
                for path in ["/api/stats?", "/api/stats.svg?"] {
                    let refused = try studio.api([studio.base + path + query])
                    #expect(refused.status == 400 && refused.text.contains(words), "\(path)\(query): \(refused.status) \(refused.text)")
                }
            }
        }
    }

    @Test("goals: set from a day as reel goal set does, listed as reel goal ls --json; out-of-range minutes and bad days change nothing")
    func goals() async throws {
        try await withStudio { studio in
            let cookie = try studio.signIn()
            #expect(try studio.api([studio.base + "/api/goals"]).text == "[]", "no library yet: no goals, nothing created")
            let set = try studio.post("/api/goals", json: #"{"minutes":90,"date":"2026-11-01"}"#, cookie: cookie)
            #expect(set.status == 200 && set.text == #"[{"date":"2026-11-01","minutes":90}]"#)
            #expect(try studio.post("/api/goals", json: #"{"minutes":0,"date":"2026-12-24"}"#, cookie: cookie).status == 200)
            let today = try studio.post("/api/goals", json: #"{"minutes":120}"#, cookie: cookie)
            let day = CalendarDay(containing: Date(), in: .current).description
            #expect(today.text.contains(#"{"date":"\#(day)","minutes":120}"#), "no date: from today")
            for (body, words) in [(#"{"minutes":1441}"#, "not possible"), (#"{"minutes":-5}"#, "not possible"),
                                  (#"{"minutes":30,"date":"2026-13-01"}"#, "not a day"), (#"{"date":"2026-11-01"}"#, "minutes"),
                                  (#"{"minutes":"ten"}"#, "wrong type")] {
                let refused = try studio.post("/api/goals", json: body, cookie: cookie)
                #expect(refused.status == 400 && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
            }
            let api = try studio.api([studio.base + "/api/goals"])
            let cli = try Subprocess.run(try ReelBinary.path(), ["goal", "ls", "--json", "--library", studio.server.settings.libraryPath])
            #expect(Self.object(api.text) == Self.object(cli.stdout) && (Self.object(api.text) as? [Any])?.count == 3, "\(api.text) vs \(cli.stdout)")
        }
    }

    @Test("the stats view: the chart drawn, figures and days; earlier and later periods; a goal set from the page shows at once")
    func statsView() async throws {
        try await withStudio { studio in
            try LibraryFixture(studio)
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#stats")
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom !== undefined")
                // Back from this week to the fixture's week of 2026-11-09.
                for _ in 0..<60 {
                    if try await browser.executeScript("return document.body.dataset.statsFrom").string == "2026-11-09" { break }
                    let before = try await browser.executeScript("return document.body.dataset.statsFrom").string ?? ""
                    try await browser.findElement(css: "#stats-previous").click()
                    try await browser.waitUntil(script: "return document.body.dataset.statsFrom !== arguments[0]", args: [.string(before)])
                }
                #expect(try await browser.findElement(css: "#stats-range").text == "2026-11-09 to 2026-11-15")
                #expect(try await browser.findElement(css: "#stats-total").text == "50 min")
                try await browser.waitUntil(script: "const c = document.getElementById('stats-chart'); return c.complete && c.naturalWidth > 0")
                #expect(try await browser.executeScript("return document.querySelectorAll('#stats-days tr').length").int == 7)

                _ = try await browser.executeScript("document.getElementById('period-month').click()")
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom === '2026-11-01'")
                #expect(try await browser.findElement(css: "#stats-total").text == "2 h 30 min")
                try await browser.findElement(css: "#stats-next").click()
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom === '2026-12-01'")

                try await browser.findElement(css: "#goal-minutes").sendKeys("40")
                try await browser.findElement(css: "#goal-date").sendKeys("11012026")
                try await browser.findElement(css: "#goal-set").click()
                try await browser.waitUntil(script: "return document.getElementById('goals-list').textContent === '40 min from 2026-11-01'")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).goals().map(\.minutes) == [40])
                try await browser.findElement(css: "#stats-previous").click()
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom === '2026-11-01'")
                try await browser.waitUntil(script: "return document.getElementById('stats-met').textContent.startsWith('3 of ')")
                try await browser.waitUntil(script: "const c = document.getElementById('stats-chart'); return c.complete && c.naturalWidth > 0")
                try await StudioBrowserTests.screenshot(browser, "studio-stats")
                try await browser.findElement(css: "#stats-today").click()
                try await browser.waitUntil(script: "return document.body.dataset.statsFrom === arguments[0]",
                                            args: [.string(String(CalendarDay(containing: Date(), in: .current).description.prefix(8)) + "01")])
            }
        }
    }
}
