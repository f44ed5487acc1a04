import Foundation
import ReelCore
import ReelPrivacyBench
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

/// The live view's Faces choice in chromium: a file with two faces streamed in real time from
/// the page with faces hidden by a mosaic and the archive covered too. The panel says how the
/// faces were covered; the published segments and the archive are scored frame by frame with
/// the export's leak meter (each frame paired with the clip's frame at its time).
@Suite("Studio live faces in chromium", .serialized)
struct StudioLiveFacesBrowserTests {
    /// The two-face clip of `reel live --privacy`'s tests (6 s at 720p), made once per run.
    static func clip() throws -> PrivacyClips.Clip {
        try SharedFixtures.shared("studio-live-faces-\(PrivacyClips.name(.twoFaces, width: 1280, height: 720))") { folder in
            try PrivacyClips.make(.twoFaces, width: 1280, height: 720, in: folder, photo: TestPhotos.astronautPath)
        }
    }

    @Test("Faces: a mosaic, chosen in the page: the archive's cover follows the choice, the panel says the faces were covered, no published or archived frame shows one")
    func mosaicFromThePage() async throws {
        let clip = try Self.clip()
        try await withStudio(configure: { $0.source = "file:" + clip.video; $0.statusInterval = 0.3 }) { studio in
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.findElement(css: "#nav-live").click()
                try await browser.waitUntil(script: "return !document.getElementById('view-live').hidden")
                func coverArchive() async throws -> Bool? { try await browser.executeScript("return document.getElementById('live-privacy-archive').disabled").bool }
                func choose(_ id: String, _ script: String) async throws {
                    _ = try await browser.executeScript("const e = document.getElementById('\(id)'); \(script); e.dispatchEvent(new Event('change'))")
                }
                #expect(try await coverArchive() == true, "nothing to cover while faces are shown")
                try await choose("live-privacy", "e.value = 'mosaic'")
                #expect(try await coverArchive() == false)
                try await choose("live-archive", "e.checked = false")
                #expect(try await coverArchive() == true, "no archive, nothing to cover")
                try await choose("live-archive", "e.checked = true")
                try await browser.findElement(css: "#live-privacy-archive").click()
                try await browser.findElement(css: "#live-output").sendKeys(studio.folder.path("hls"))
                _ = try await browser.executeScript("document.getElementById('live-landscape').checked = true")
                try await browser.findElement(css: "#live-start").click()

                // The clip ends after 6 s, and with it the stream.
                try await browser.waitUntil(script: "return document.body.dataset.liveState === 'finished'", timeout: .seconds(90))
                let shown = try await browser.findElement(css: "#live-faces").text
                #expect(shown.hasPrefix("mosaic: ") && shown.hasSuffix("archive covered too"), "\(shown)")
                let message = try await browser.findElement(css: "#live-message").text
                #expect(message.contains("faces covered by a mosaic ("), "\(message)")
                let now = studio.server.live.current
                print("studio live faces: the panel says \"\(shown)\"; \(message)")
                #expect(now.privacy == "mosaic" && now.privacyArchive && !now.privacyFailed)

                let id = try #require(now.streamID)
                let published = try PublishedStream.joined(studio.folder.path("hls/streams/\(id)"), into: studio.folder.path("published.mp4"))
                let stream = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
                print("studio live faces, the stream:\n\(stream.summary)")
                // A real-time stream leaves out what the machine cannot keep up with, and counts
                // it (a drop past a segment's end is filled by the picture before, so fewer may
                // be missing than were dropped); the archive says how many frames it kept.
                #expect(stream.framesLeftOut <= now.droppedFrames && stream.framesWithFace >= 30 && stream.leakedFrames.isEmpty,
                        "\(now.droppedFrames) frames dropped; \(stream.summary)")
                let archive = try #require(now.archivePath)
                let kept = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: archive, pairing: .byTime)
                print("studio live faces, the archive:\n\(kept.summary)")
                #expect(now.archiveFrames == kept.frames.count, "the panel's archive frames against the file's: \(kept.summary)")
                #expect(kept.framesWithFace >= 1 && kept.leakedFrames.isEmpty, "\(kept.summary)")
            }
        }
    }
}
