import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The review and export views in chromium: a face box dragged and scaled by mouse and moved by
/// keyboard lands in NAME.privacy.json and in the rendered frame the page shows; mosaic off and
/// an uploaded stamp; an export with its progress, played in the page and downloaded.
@Suite("Studio review and export in chromium", .serialized)
struct StudioReviewBrowserTests {
    static func data(_ browser: WebDriver, _ name: String) async throws -> String? {
        try await browser.executeScript("return document.body.dataset[arguments[0]] ?? null", args: [.string(name)]).string
    }

    static func waitForData(_ browser: WebDriver, _ name: String, _ value: String, timeout: Duration = .seconds(20)) async throws {
        try await browser.waitUntil(script: "return document.body.dataset[arguments[0]] === arguments[1]", args: [.string(name), .string(value)],
                                    timeout: timeout)
    }

    /// The centre of an element and of its `.handle[data-corner=se]`, in viewport pixels, and the stage's size.
    static func geometry(_ browser: WebDriver) async throws -> (box: (x: Double, y: Double), corner: (x: Double, y: Double), stage: (w: Double, h: Double)) {
        let value = try await browser.executeScript("""
            const b = document.getElementById('review-box').getBoundingClientRect();
            const c = document.querySelector('#review-box .handle[data-corner=se]').getBoundingClientRect();
            const s = document.getElementById('review-stage').getBoundingClientRect();
            return [b.left + b.width / 2, b.top + b.height / 2, c.left + c.width / 2, c.top + c.height / 2, s.width, s.height];
            """).array?.compactMap(\.number) ?? []
        try #require(value.count == 6)
        return ((value[0], value[1]), (value[2], value[3]), (value[4], value[5]))
    }

    static func edits(_ fixture: ReviewFixture) throws -> PrivacyEdits.SegmentEdit {
        try PrivacyEdits.decode(json: Data(contentsOf: URL(fileURLWithPath: fixture.editsPath))).edit(for: FaceSegmentID(segment: 0))
    }

    @Test("drag the face box and scale it: the edits file holds what the page shows, and the rendered frame has the mosaic where the box went")
    func dragScaleAndRender() async throws {
        try await withStudio { studio in
            let fixture = try ReviewFixture(studio)
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#library")
                try await StudioLibraryBrowserTests.waitForCount(2, browser)
                _ = try await browser.executeScript("document.querySelector('.card[data-id=\"\(fixture.id)\"]').click()")
                try await browser.waitUntil(script: "return document.getElementById('session-dialog').open")
                try await browser.findElement(css: "#session-review").click()
                try await Self.waitForData(browser, "reviewSegments", "2")
                #expect(try await browser.executeScript("return location.hash").string == "#review/\(fixture.id)")
                try await Self.waitForData(browser, "reviewRendered", "0")
                try await browser.waitUntil(script: "const i = document.getElementById('review-frame'); return i.complete && i.naturalWidth === 640")
                let unnamed = try await browser.executeScript("""
                    return [...document.querySelectorAll('#view-review button, #view-review input, #view-review select')]
                      .filter((e) => !(e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim())
                      .map((e) => e.outerHTML)
                    """)
                #expect(unnamed.array?.isEmpty == true, "controls without a name: \(unnamed)")

                // Move: the box's centre by a tenth of the picture right and down.
                let before = try await Self.geometry(browser)
                try await browser.drag(from: before.box, to: (before.box.x + before.stage.w * 0.1, before.box.y + before.stage.h * 0.1))
                try await Self.waitForData(browser, "reviewSaved", "1")
                let moved = try Self.edits(fixture)
                #expect(abs(moved.dx - 0.1) < 0.01 && abs(moved.dy - 0.1) < 0.01 && moved.scale == 1, "\(moved)")

                // Scale: the bottom-right handle half as far again from the centre.
                let after = try await Self.geometry(browser)
                let corner = (after.box.x + (after.corner.x - after.box.x) * 1.5, after.box.y + (after.corner.y - after.box.y) * 1.5)
                try await browser.drag(from: after.corner, to: corner)
                try await Self.waitForData(browser, "reviewSaved", "2")
                let scaled = try Self.edits(fixture)
                #expect(abs(scaled.scale - 1.5) < 0.05 && scaled.dx == moved.dx && scaled.dy == moved.dy, "\(scaled)")
                let shown = try await browser.executeScript("const b = document.getElementById('review-box'); return [b.dataset.offset, b.dataset.scale]")
                #expect(shown == .array([.string("\(scaled.dx),\(scaled.dy)"), .string("\(scaled.scale)")]), "the page shows the stored edit")

                // The rendered frame the page shows: the mosaic is where the box went, not where it was.
                try await Self.waitForData(browser, "reviewRendered", "2")
                let source = try #require(try await browser.executeScript("return document.getElementById('review-rendered').src").string)
                let rendered = try StudioPictures.gray(try studio.api([source]).body)
                let plain = try StudioPictures.gray(try studio.api([studio.base + "/api/sessions/\(fixture.id)/frame?t=0.5&view=plain&width=\(rendered.width)"]).body)
                let box = NormalizedRect(x: 0.4, y: 0.2, width: 0.2, height: 0.35)
                let now = PrivacyEdits.SegmentEdit.with(dx: scaled.dx, dy: scaled.dy, scale: scaled.scale).apply(to: box)
                let centre = { (r: NormalizedRect) in NormalizedRect(x: r.x + r.width * 0.35, y: r.y + r.height * 0.35, width: r.width * 0.3, height: r.height * 0.3) }
                #expect(StudioPictures.difference(plain, rendered, in: centre(now)) > 8, "the mosaic where the box is now")
                #expect(StudioPictures.difference(plain, rendered, in: NormalizedRect(x: 0.42, y: 0.22, width: 0.05, height: 0.05)) < 2,
                        "and not where it was")

                // The keyboard: the box has the focus after the drag; ← moves it a hundredth.
                _ = try await browser.executeScript("document.getElementById('review-box').focus()")
                try await browser.pressKeys(WebDriver.Key.arrowLeft)
                try await Self.waitForData(browser, "reviewSaved", "3")
                #expect(abs(try Self.edits(fixture).dx - (scaled.dx - 0.01)) < 1e-9)
                try await browser.waitUntil(script: "return [...document.querySelectorAll('#review-strip img')].every((i) => i.complete && i.naturalWidth > 0)")
                try await StudioBrowserTests.screenshot(browser, "studio-review")

                // Mosaic off, then on: the checkbox.
                try await browser.findElement(css: "#review-mosaic").click()
                try await Self.waitForData(browser, "reviewSaved", "4")
                #expect(try Self.edits(fixture).disabled)
                try await browser.findElement(css: "#review-mosaic").click()
                try await Self.waitForData(browser, "reviewSaved", "5")
                #expect(try !Self.edits(fixture).disabled)

                // A stamp uploaded from a file is kept and put on the segment.
                let png = studio.folder.path("Blue Face.png")
                #expect(try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=blue:s=32x32,format=rgba", "-frames:v", "1", png]).status == 0)
                try await browser.findElement(css: "#review-upload").sendKeys(png)
                try await Self.waitForData(browser, "reviewSaved", "6")
                #expect(try Self.edits(fixture).stamp == studio.server.settings.stampsFolder + "/blue-face.png")
                #expect(try await browser.executeScript("return document.getElementById('review-stamp').value").string == "blue-face.png")
            }
        }
    }

    @Test("export from the review view: progress, then the file plays in the page and downloads; the weekly vlog from the export view")
    func exportFromThePage() async throws {
        let exports = try TemporaryDirectory()
        defer { exports.cleanup() }
        try await withStudio(configure: { $0.exportFolder = exports.path("out") }) { studio in
            let fixture = try ReviewFixture(studio, seconds: 12, startedAt: Date())
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#review/\(fixture.id)")
                try await Self.waitForData(browser, "reviewSegments", "2")
                _ = try await browser.executeScript("const s = document.getElementById('export-size'); s.value = 'source'; s.dispatchEvent(new Event('change'))")
                try await browser.findElement(css: "#export-start").click()
                try await Self.waitForData(browser, "exportState", "running")
                try await browser.waitUntil(script: "return Number(document.body.dataset.exportFraction) > 0 || document.body.dataset.exportState !== 'running'",
                                            timeout: .seconds(30))
                try await Self.waitForData(browser, "exportState", "finished", timeout: .seconds(60))
                let job = StudioReviewTests.object(try studio.api([studio.base + "/api/export"]))
                let output = try #require(job["output"] as? String)
                let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", output])
                #expect(abs((Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0) - 12) < 0.2, "\(probe.stdout)")
                try await browser.waitUntil(script: "const v = document.getElementById('review-job-video'); return v.readyState >= 2 && v.videoWidth === 640",
                                            timeout: .seconds(20))
                let link = try await browser.executeScript("const a = document.getElementById('review-job-download'); return [a.hidden, a.getAttribute('href')]")
                #expect(link.array?.first?.bool == false && link.array?.last?.string?.hasPrefix("/api/export/file?download=1") == true, "\(link)")

                try await browser.findElement(css: "#nav-exports").click()
                try await browser.waitUntil(script: "const v = document.getElementById('job-video'); return v.readyState >= 2 && v.videoWidth === 640",
                                            timeout: .seconds(20))
                try await StudioBrowserTests.screenshot(browser, "studio-export")
                _ = try await browser.executeScript("const s = document.getElementById('vlog-week'); s.value = 'this'; s.dispatchEvent(new Event('change'))")
                try await browser.findElement(css: "#vlog-start").click()
                try await Self.waitForData(browser, "exportState", "running")
                try await Self.waitForData(browser, "exportState", "finished", timeout: .seconds(60))
                let vlog = StudioReviewTests.object(try studio.api([studio.base + "/api/export"]))
                #expect(vlog["kind"] as? String == "vlog" && (vlog["output"] as? String).map(FileManager.default.fileExists) == true, "\(vlog)")
                try await browser.waitUntil(script: "const v = document.getElementById('job-video'); return v.readyState >= 2 && v.videoHeight === 1920",
                                            timeout: .seconds(20))
            }
        }
    }
}

extension PrivacyEdits.SegmentEdit {
    /// An edit moving by (dx, dy) and scaling by `scale`.
    static func with(dx: Double, dy: Double, scale: Double) -> Self {
        var edit = Self()
        (edit.dx, edit.dy, edit.scale) = (dx, dy, scale)
        return edit
    }
}
