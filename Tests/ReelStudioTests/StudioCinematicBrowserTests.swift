import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The cinematic camera's view in chromium: the preview with the subject's
/// box; a click on the weak face makes it strong (the box turns solid), a long press fixes the
/// focus on the background's plane; the aperture slider reaches the camera; record, a still and
/// stop from the buttons; and the refocus editor: a keyframe added by clicking the recorded face
/// at a moment of the clip, rendered by the server into a new clip.
@Suite("Studio cinematic camera in chromium", .serialized)
struct StudioCinematicBrowserTests {
    /// The box's or element's centre in CSS pixels of the viewport.
    static func centre(_ browser: WebDriver, _ selector: String) async throws -> (x: Double, y: Double) {
        let point = try await browser.executeScript("""
            const r = document.querySelector(arguments[0]).getBoundingClientRect();
            return [r.left + r.width / 2, r.top + r.height / 2];
            """, args: [.string(selector)]).array?.compactMap(\.number) ?? []
        try #require(point.count == 2, "no \(selector)")
        return (point[0], point[1])
    }

    static func state(_ studio: TestStudio) throws -> [String: Any] {
        try StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"]))
    }

    @Test("the view: click = tap (weak face → strong, solid box), long press = fixed focus, the aperture slider; record, still, stop; a keyframe made in the refocus editor and rendered")
    func view() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = folder.path("scene.mp4")
        // 40 s at 10 pictures a second: the astronaut over a still noise texture.
        let filter = "color=c=gray:s=640x360:r=10:d=40,noise=alls=40:all_seed=7[bg];[0:v]scale=300:300[person];[bg][person]overlay=170:30:shortest=1,format=yuv420p"
        let made = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-loop", "1", "-i", TestPhotos.astronautPath, "-filter_complex", filter,
                                                 "-frames:v", "400", "-c:v", "libx264", "-preset", "ultrafast", "-crf", "10", scene])
        try #require(made.status == 0, "ffmpeg: \(made.stderr)")
        try await withStudio(configure: { StudioCinematicTests.configure(&$0, scene: scene) }) { studio in
            try await withWebDriver(windowSize: (1280, 1100)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#cinematic")
                try await browser.waitUntil(script: """
                    const img = document.getElementById('cinematic-camera');
                    return img.complete && img.naturalWidth > 0 && document.querySelector('.cinematic-box[data-focused=true]') !== null;
                    """, timeout: .seconds(30))
                #expect(try await browser.executeScript("return document.getElementById('cinematic-light').hidden").bool == true)

                // A click on the focused (weak) face: strong, the box solid.
                try await browser.press(at: try await Self.centre(browser, ".cinematic-box[data-focused=true]"))
                try await browser.waitUntil(script: "return document.querySelector('.cinematic-box[data-focused=true]')?.dataset.style === 'strong'")
                #expect(try Self.state(studio)["mode"] as? String == "strong")

                // A long press on the background, left of the person: fixed focus there.
                let stage = try await Self.centre(browser, "#cinematic-stage")
                let width = try await browser.executeScript("return document.getElementById('cinematic-stage').getBoundingClientRect().width").number ?? 0
                try await browser.press(at: (stage.x - width * 0.4, stage.y), hold: 900)
                try await browser.waitUntil(script: "return document.getElementById('cinematic-status').textContent.includes('fixed at')")
                #expect((try Self.state(studio)["focus"] as? String)?.contains("fixed at 0.1") == true)

                // The aperture slider.
                _ = try await browser.executeScript("""
                    const s = document.getElementById('cinematic-aperture'); s.value = '8'; s.dispatchEvent(new Event('input'));
                    """)
                try await eventually("f/8 at the camera") { (try? Self.state(studio)["fNumber"] as? Double) == 8 ? true : nil }

                // Record, a still, stop.
                try await browser.findElement(css: "#cinematic-record").click()
                try await browser.waitUntil(script: "return !document.getElementById('cinematic-rec').hidden")
                try await browser.findElement(css: "#cinematic-still").click()
                try await browser.waitUntil(script: "return document.querySelectorAll('#cinematic-stills li').length === 1", timeout: .seconds(15))
                // A clip of 2 s of pictures (the refocus editor below seeks to 0.5 s in it).
                try await eventually("2 s of clip recorded", within: 30) {
                    let clip = (try? Self.state(studio))?["clip"] as? [String: Any]
                    return (clip?["seconds"] as? Double ?? 0) >= 2 ? true : nil
                }
                _ = try await browser.executeScript("document.getElementById('cinematic-auto').click()")
                try await browser.findElement(css: "#cinematic-record").click()
                try await browser.waitUntil(script: "return document.querySelector('#cinematic-clips li button') !== null", timeout: .seconds(15))
                let clip = try #require(try await browser.executeScript("return document.querySelector('#cinematic-clips li').dataset.name").string)

                // The refocus editor: at 0.5 s, the recorded face clicked; rendered.
                // The list is drawn again on every clips event: the button is clicked where it is now.
                _ = try await browser.executeScript("document.querySelector('#cinematic-clips li button').click()")
                try await browser.waitUntil(script: "return document.getElementById('cinematic-editor-video').readyState >= 2")
                _ = try await browser.executeScript("document.getElementById('cinematic-editor-video').currentTime = 0.5")
                try await browser.waitUntil(script: "return document.querySelector('#cinematic-editor-boxes .cinematic-box') !== null")
                try await browser.press(at: try await Self.centre(browser, "#cinematic-editor-boxes .cinematic-box"))
                try await browser.waitUntil(script: "return document.querySelectorAll('#cinematic-keyframes li').length === 1")
                let keyframe = try await browser.executeScript("return document.querySelector('#cinematic-keyframes li').textContent").string ?? ""
                #expect(keyframe.contains("subject") && keyframe.contains("weak"), "\(keyframe)")
                try await browser.findElement(css: "#cinematic-render").click()
                try await browser.waitUntil(script: "return document.body.dataset.cinematicRefocus === 'finished'", timeout: .seconds(60))
                let refocused = clip.replacingOccurrences(of: ".mp4", with: "-refocused.mp4")
                try await browser.waitUntil(script: "return document.querySelector(`#cinematic-clips li[data-name='${arguments[0]}']`) !== null",
                                            args: [.string(refocused)])
                let frames = try StudioCinematicTests.frames(studio.server.settings.cinematicFolder + "/" + refocused)
                #expect(frames == (try StudioCinematicTests.frames(studio.server.settings.cinematicFolder + "/" + clip)))
            }
        }
    }
}
