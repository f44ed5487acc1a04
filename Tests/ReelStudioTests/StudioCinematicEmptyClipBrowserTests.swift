import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The cinematic view in chromium on a disk too small for a clip's first fragment: record and
/// stop from the button say that nothing was written, not that the clip was saved.
@Suite("Studio cinematic clip without a whole fragment in chromium", .serialized)
struct StudioCinematicEmptyClipBrowserTests {
    @Test("record then stop on a 32 KiB disk: the page says the disk is full and nothing was written, not 'Saved'")
    func stopSaysNothingWritten() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try StudioCinematicTests.scene(in: folder, seconds: 30)
        // Room for the sidecar's records of a few seconds (about 300 bytes a picture), not for the
        // MP4's first fragment (a key frame of this noise is about 70 KB), which is written at the
        // stop: the disk fills in the last flush, not while recording.
        let disk = try PrivateDisk(bytes: 32 << 10)
        defer { disk.stop() }
        try await withStudio(configure: { settings in
            StudioCinematicTests.configure(&settings, scene: scene)
            settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": settings.folders.data, "XDG_STATE_HOME": settings.folders.state,
                                                            "XDG_CACHE_HOME": settings.folders.cache, "XDG_VIDEOS_DIR": disk.path],
                                              accountHome: settings.folders.home)
        }) { studio in
            try await withWebDriver(windowSize: (1280, 1100)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#cinematic")
                try await browser.waitUntil(script: """
                    const img = document.getElementById('cinematic-camera');
                    return img.complete && img.naturalWidth > 0;
                    """, timeout: .seconds(30))
                try await browser.findElement(css: "#cinematic-record").click()
                try await browser.waitUntil(script: "return !document.getElementById('cinematic-rec').hidden")
                // A picture in the clip before the stop (a clip stopped before its first picture says so instead).
                try await eventually("a picture in the clip", within: 30) { () -> Bool? in
                    let clip = (try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                    return (clip?["pictures"] as? Int ?? 0) >= 1 || clip?["recording"] as? Bool == false ? true : nil
                }
                try await browser.findElement(css: "#cinematic-record").click()
                try await browser.waitUntil(script: """
                    const text = document.getElementById('cinematic-message').textContent;
                    return document.getElementById('cinematic-rec').hidden && text !== '' && text !== 'Recording.';
                    """, timeout: .seconds(15))
                let message = try await browser.executeScript("return document.getElementById('cinematic-message').textContent").string ?? ""
                #expect(message.contains("the disk is full") && message.contains("nothing was written") && !message.contains("Saved"), "\(message)")
                let files = (try? FileManager.default.contentsOfDirectory(atPath: studio.server.settings.cinematicFolder)) ?? []
                #expect(files.isEmpty, "\(files)")
            }
        }
    }
}
