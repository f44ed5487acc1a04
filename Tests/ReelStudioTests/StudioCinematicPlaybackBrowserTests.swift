import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The cinematic view's clips in chromium: the refocus editor starts at the aperture the clip
/// was recorded at, and a refocused clip (no sidecar: not editable) plays in the page.
@Suite("Studio cinematic clips in chromium: the recorded aperture, a refocused clip played", .serialized)
struct StudioCinematicPlaybackBrowserTests {
    @Test("a clip recorded at f/2.8: the editor shows f/2.8; its refocused clip plays in a <video> of the list")
    func playback() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try StudioCinematicTests.scene(in: folder)
        try await withStudio(configure: { StudioCinematicTests.configure(&$0, scene: scene) }) { studio in
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/cinematic", json: #"{"command":"aperture 2.8"}"#, cookie: cookie).status == 200)
            try await eventually("f/2.8 at the camera", within: 20) { () -> Bool? in
                (try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"])))?["fNumber"] as? Double == 2.8 ? true : nil
            }
            let started = try studio.post("/api/cinematic/record", json: #"{"editable":true}"#, cookie: cookie)
            try #require(started.status == 201, "\(started.text)")
            try await eventually("1 s recorded", within: 20) { () -> Bool? in
                let clip = (try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                return (clip?["seconds"] as? Double ?? 0) >= 1 ? true : nil
            }
            let stopped = try studio.post("/api/cinematic/record/stop", cookie: cookie)
            let name = try #require((try StudioCinematicTests.json(stopped))["clip"].flatMap { ($0 as? [String: Any])?["name"] as? String })
            let job = try studio.post("/api/cinematic/refocus", json: #"{"clip":"\#(name)","keyframes":[],"aperture":8}"#, cookie: cookie)
            try #require(job.status == 202, "\(job.text)")
            let output = try #require((try StudioCinematicTests.json(job))["output"] as? String)
            let finished = try await eventually("the refocus ended", within: 60) { () -> [String: Any]? in
                let state = try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic/refocus"]))
                return state?["state"] as? String == "running" ? nil : state
            }
            try #require(finished["state"] as? String == "finished", "\(finished)")
            let served = try studio.api(["-H", "Range: bytes=0-99", studio.base + "/api/cinematic/clips/" + output])
            #expect(served.status == 206 && served.body.count == 100 && served.headers["content-type"] == "video/mp4", "\(served.headers)")

            try await withWebDriver(windowSize: (1280, 1100)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#cinematic")
                try await browser.waitUntil(script: "return document.querySelector(`#cinematic-clips li[data-name='${arguments[0]}']`) !== null",
                                            args: [.string(output)], timeout: .seconds(15))
                // The editor starts at the recorded aperture.
                _ = try await browser.executeScript("document.querySelector(`#cinematic-clips li[data-name='${arguments[0]}'] button`).click()",
                                                    args: [.string(name)])
                try await browser.waitUntil(script: "return !document.getElementById('cinematic-editor').hidden")
                let shown = try await browser.executeScript("return document.getElementById('cinematic-editor-aperture-value').textContent").string
                let slider = try await browser.executeScript("return document.getElementById('cinematic-editor-aperture').value").string
                #expect(shown == "f/2.8" && slider == "2.8", "\(shown ?? "") \(slider ?? "")")

                // The refocused clip plays in the list.
                try await browser.waitUntil(script: """
                    const video = document.querySelector(`#cinematic-clips li[data-name='${arguments[0]}'] video`);
                    if (!video) return false;
                    video.muted = true;
                    if (video.paused) video.play().catch(() => {});
                    return video.currentTime > 0.3;
                    """, args: [.string(output)], timeout: .seconds(20))
            }
        }
    }
}
