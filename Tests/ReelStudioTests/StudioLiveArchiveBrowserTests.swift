import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// The live panel's account of the archive: frames the archive encoder left out on purpose
/// (its load policy) are shown beside the frames written, the count `reel live`'s summary gives.
@Suite("Studio live archive in chromium", .serialized)
struct StudioLiveArchiveBrowserTests {
    /// The default tier holds its rules: `ArchiveRatePolicyTests` (when frames are left out) and `StudioLiveBrowserTests` (the live panel).
    @Test("an archive encoder too slow for real time: the panel shows the frames left out, and written + left out is every frame captured (long tier: make test-long)", .longTier)
    func archiveFramesLeftOutLongTier() async throws {
        try await withStudio(configure: { $0.source = "test:640x360@30"; $0.statusInterval = 0.3 }) { studio in
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.findElement(css: "#nav-live").click()
                try await browser.waitUntil(script: "return !document.getElementById('view-live').hidden")
                // x265's medium preset at 1080x1920 is several times too slow for 30 fps on two
                // cores, so the archive's load policy must leave frames out within the 6 s.
                let body = #"{"output":"\#(studio.folder.path("hls"))","duration":6,"archivePreset":"medium"}"#
                let started = try curl(["-X", "POST", "-H", "Origin: \(studio.base)", "-H", "Authorization: Bearer \(studio.token)",
                                        "-H", "Content-Type: application/json", "--data-binary", body, studio.base + "/api/live"])
                #expect(started.status == 202, "\(started.text)")
                try await browser.waitUntil(script: "return document.body.dataset.liveState === 'finished'", timeout: .seconds(90))
                let shown = try await browser.executeScript("""
                    return ['live-archive-frames', 'live-archive-skipped'].map((id) => document.getElementById(id)?.textContent ?? null)
                    """)
                let texts = shown.array?.compactMap(\.string) ?? []
                #expect(texts.count == 2, "\(shown)")
                func number(_ text: String) -> Int { Int(text.prefix { $0.isNumber }) ?? -1 }
                let written = texts.first.map(number) ?? -1, skipped = texts.last.map(number) ?? -1
                #expect(skipped > 0, "frames left out are shown: \(texts)")
                #expect(abs(written + skipped - 180) <= 3, "6 s at 30 fps: \(written) written + \(skipped) left out")
                let message = try await browser.findElement(css: "#live-message").text
                #expect(message.contains("left out"), "\(message)")
            }
        }
    }
}
