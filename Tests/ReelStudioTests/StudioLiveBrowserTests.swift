import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The live view in chromium: a stream to `reel serve` started from the form, its status
/// panel following the stream, the viewer's link, and Stop; a refusal shown in the page.
@Suite("Studio live in chromium", .serialized)
struct StudioLiveBrowserTests {
    @Test("go live from the page: the panel counts segments, the viewer link opens the origin's page, Stop ends it with ENDLIST")
    func goLiveFromThePage() async throws {
        try await withReelServeOrigin { origin in
            try await withStudio(configure: { $0.source = "test:640x360@15"; $0.statusInterval = 0.3 }) { studio in
                try await withWebDriver(windowSize: (1280, 1000)) { browser in
                    try await StudioRecordBrowserTests.signIn(studio, browser)
                    try await browser.findElement(css: "#nav-live").click()
                    try await browser.waitUntil(script: "return !document.getElementById('view-live').hidden")
                    let unnamed = try await browser.executeScript("""
                        return [...document.querySelectorAll('#view-live button, #view-live input, #view-live select')]
                          .filter((e) => !(e.getAttribute('aria-label') || e.labels?.[0]?.textContent || e.textContent).trim())
                          .map((e) => e.outerHTML)
                        """)
                    #expect(unnamed.array?.isEmpty == true, "controls without a name: \(unnamed)")

                    // Nowhere to publish: the server's words in the page, nothing started.
                    try await browser.findElement(css: "#live-start").click()
                    try await browser.waitUntil(script: "return document.getElementById('live-message').textContent.includes('nowhere to publish')")
                    #expect(studio.server.live.current.state == .idle)

                    try await browser.findElement(css: "#live-origin").sendKeys(origin.baseURL.absoluteString)
                    try await browser.findElement(css: "#live-token").sendKeys(origin.token)
                    _ = try await browser.executeScript("const q = document.getElementById('live-quality'); q.value = 'low'; q.dispatchEvent(new Event('change'))")
                    try await browser.findElement(css: "#live-start").click()
                    try await browser.waitUntil(script: "return Number(document.body.dataset.liveSegments) >= 2", timeout: .seconds(30))
                    #expect(try await browser.executeScript("return document.body.dataset.liveState").string == "live")
                    let id = try #require(studio.server.live.current.streamID)
                    let viewer = try await browser.executeScript("const a = document.getElementById('live-viewer'); return [a.hidden, a.href]")
                    #expect(viewer == .array([.bool(false), .string(origin.baseURL.absoluteString + "watch/\(id)")]), "\(viewer)")
                    #expect(try await browser.findElement(css: "#live-playlist").text.hasSuffix("streams/\(id)/playlist.m3u8"))
                    #expect(try await browser.executeScript("return document.getElementById('live-origin').disabled").bool == true,
                            "the form waits while the stream runs")
                    try await StudioBrowserTests.screenshot(browser, "studio-live")

                    try await browser.findElement(css: "#live-stop").click()
                    try await browser.waitUntil(script: "return document.body.dataset.liveState === 'finished'", timeout: .seconds(30))
                    let playlist = try await origin.get("streams/\(id)/playlist.m3u8")
                    #expect(String(decoding: playlist.body, as: UTF8.self).contains("#EXT-X-ENDLIST"))
                    #expect(try await browser.executeScript("return document.getElementById('live-start').disabled").bool == false)
                }
            }
        }
    }
}
