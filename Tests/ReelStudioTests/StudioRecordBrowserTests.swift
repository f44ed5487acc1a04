import Foundation
import ReelCore
import ReelMedia
import ReelRecord
import ReelStore
import ReelStudio
import ReelTestSupport
import Synchronization
import Testing

/// A tracker that finds one face at a fixed place in every frame: these tests check what the
/// page draws from the recorder's face samples (the tracker itself is ReelRecord's and
/// ReelVision's to test).
final class FixedFaceTracker: FaceTracker {
    static let box = NormalizedRect(x: 0.25, y: 0.2, width: 0.2, height: 0.3)

    func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample? {
        FaceTrackSample(time: videoTime, segment: 0, kind: .face, box: Self.box)
    }
}

/// A camera that can be unplugged and plugged in again: the test pattern while plugged in; a
/// run that fails once unplugged, and an open that fails while it is.
final class UnpluggableCamera: Sendable {
    let plugged = Mutex(true)

    struct Unplugged: Error, CustomStringConvertible {
        var description: String { "the camera was unplugged" }
    }

    func open(_ spec: SourceSpec) throws -> any CaptureSource {
        guard plugged.withLock({ $0 }) else { throw Unplugged() }
        return Source(camera: self)
    }

    final class Source: CaptureSource {
        let camera: UnpluggableCamera
        let pattern = TestPatternSource(width: 640, height: 360, framesPerSecond: 15, realTime: true)
        init(camera: UnpluggableCamera) { self.camera = camera }
        var format: CaptureFormat { pattern.format }
        var name: String { "unpluggable camera" }
        func stop() { pattern.stop() }
        func run(_ deliver: (CaptureSample) throws -> Void) throws {
            var unplugged = false
            try pattern.run { sample in
                guard camera.plugged.withLock({ $0 }) else {
                    unplugged = true
                    pattern.stop()
                    return
                }
                try deliver(sample)
            }
            if unplugged { throw Unplugged() }
        }
    }
}

/// The record page in chromium: the preview, the face box, start, pause and resume by the
/// space key, stop; and a recording that outlives its tab.
@Suite("Studio recording in chromium", .serialized)
struct StudioRecordBrowserTests {
    static func configure(_ settings: inout StudioSettings) {
        settings.source = "test:640x360@15"
        settings.statusInterval = 0.3
        settings.faceTracking = { _ in ({ FixedFaceTracker() }, nil) }
    }

    /// A digest of the preview's pixels now (a small copy drawn on a canvas), or null before
    /// the first picture.
    static let previewDigest = """
        const img = document.getElementById('preview');
        if (!img.complete || img.naturalWidth === 0) return null;
        const canvas = document.createElement('canvas');
        canvas.width = 64; canvas.height = 36;
        const context = canvas.getContext('2d');
        context.drawImage(img, 0, 0, 64, 36);
        const data = context.getImageData(0, 0, 64, 36).data;
        let sum = 0;
        for (let i = 0; i < data.length; i += 1) sum = (sum * 31 + data[i]) % 1000000007;
        return sum;
        """

    static func state(_ browser: WebDriver) async throws -> String {
        try await browser.executeScript("return document.getElementById('rec-state').dataset.state").string ?? ""
    }

    /// Opens the sign-in address and waits until the page follows the event stream.
    static func signIn(_ studio: TestStudio, _ browser: WebDriver) async throws {
        try await browser.navigate(to: studio.server.signInURL)
        try await browser.waitUntil(script: "return document.getElementById('connection').dataset.state === 'live'")
    }

    /// Start, as the form stands, and waits until the page says it records.
    static func startRecording(_ browser: WebDriver) async throws {
        try await browser.findElement(css: "#start").click()
        try await waitForState("recording", browser)
    }

    /// Waits until the page shows `state`; a timeout names the state shown and the message.
    static func waitForState(_ state: String, _ browser: WebDriver) async throws {
        do {
            try await browser.waitUntil(script: "return document.getElementById('rec-state').dataset.state === arguments[0]",
                                        args: [.string(state)], timeout: .seconds(20))
        } catch var failure as WebDriver.Failure where failure.error == "timeout" {
            let shown = try await Self.state(browser)
            let message = try await browser.executeScript("return document.getElementById('rec-message').textContent").string ?? ""
            failure.message += "; waited for '\(state)', the page shows '\(shown)', its message: '\(message)'"
            throw failure
        }
    }

    @Test("start a timelapse from the page: the preview moves, the face box is drawn, space pauses and resumes, stop saves it into the library")
    func recordFromThePage() async throws {
        try await withStudio(configure: Self.configure) { studio in
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await Self.signIn(studio, browser)
                #expect(try await browser.executeScript("return document.getElementById('source-choice').value").string == "test:640x360@15")

                // The idle preview: pictures come, and they change.
                try await browser.waitUntil(script: "return (() => { \(Self.previewDigest) })() !== null", timeout: .seconds(20))
                let first = try await browser.executeScript(Self.previewDigest)
                try await browser.waitUntil(script: "return (() => { \(Self.previewDigest) })() !== arguments[0]", args: [first])

                try await browser.findElement(css: "#title").sendKeys("Chemistry")
                try await browser.findElement(css: "#tags").sendKeys("exam, week 1")
                let interval = try await browser.findElement(css: "#interval")
                try await interval.clear()
                try await interval.sendKeys("0.5")
                try await browser.findElement(css: "#start").click()
                try await Self.waitForState("recording", browser)
                try await browser.waitUntil(script: "return Number(document.getElementById('rec-frames').textContent) >= 2", timeout: .seconds(20))

                // The face box, where the tracker put it, over the preview that still moves.
                try await browser.waitUntil(script: "return !document.getElementById('face-box').hidden")
                let left = try await browser.executeScript("return document.getElementById('face-box').style.left").string
                let width = try await browser.executeScript("return document.getElementById('face-box').style.width").string
                #expect(left == "25%" && width == "20%")
                let during = try await browser.executeScript(Self.previewDigest)
                try await browser.waitUntil(script: "return (() => { \(Self.previewDigest) })() !== arguments[0]", args: [during])
                try await StudioBrowserTests.screenshot(browser, "studio-record")

                // Space pauses and resumes (outside the form's fields).
                _ = try await browser.executeScript("document.activeElement.blur()")
                try await browser.pressKeys(" ")
                try await Self.waitForState("paused", browser)
                #expect(try await browser.findElement(css: "#pause").text == "Resume")
                try await browser.pressKeys(" ")
                try await Self.waitForState("recording", browser)

                try await browser.findElement(css: "#stop").click()
                try await Self.waitForState("finished", browser)
                let message = try await browser.findElement(css: "#rec-message").text
                #expect(message.hasPrefix("Saved ") && message.contains("(in the library)"), "\(message)")
            }
            let sessions = try StudyLibrary(path: studio.server.settings.libraryPath).sessions()
            #expect(sessions.count == 1)
            #expect(sessions.first?.title == "Chemistry")
            #expect(sessions.first?.tags == ["exam", "week 1"])
            let file = try #require(sessions.first?.filePath)
            let probe = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width",
                                                     "-of", "csv=p=0", file])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "h264,1920")
        }
    }

    @Test("closing the tab leaves the recording running; a second tab shows the same state and can stop it")
    func recordingOutlivesItsTab() async throws {
        try await withStudio(configure: Self.configure) { studio in
            try await withWebDriver { browser in
                try await Self.signIn(studio, browser)
                try await Self.startRecording(browser)
            }
            // The browser is gone; the recording goes on.
            let auth = ["-H", "Authorization: Bearer \(studio.token)"]
            func frames() throws -> Int {
                let answer = try curl(auth + [studio.base + "/api/recording"])
                return (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["framesWritten"] as? Int ?? -1
            }
            let before = try frames()
            let deadline = ContinuousClock.now + .seconds(20)
            while try frames() <= before, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(200)) }
            #expect(try frames() > before, "frames are still written after the tab closed")

            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await Self.waitForState("recording", browser)
                #expect(try await browser.findElement(css: "#start").property("disabled") == .bool(true))
                try await browser.findElement(css: "#stop").click()
                try await Self.waitForState("finished", browser)
            }
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 1)
        }
    }

    @Test("a camera unplugged while recording: the page says interrupted and why, then recording again once it is back")
    func interruptedAndBack() async throws {
        let camera = UnpluggableCamera()
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.openSource = { try camera.open($0) }
        }) { studio in
            try await withWebDriver { browser in
                try await Self.signIn(studio, browser)
                try await Self.startRecording(browser)
                camera.plugged.withLock { $0 = false }
                try await Self.waitForState("interrupted", browser)
                #expect(try await browser.findElement(css: "#rec-state").text == "Interrupted: the source stopped")
                try await browser.waitUntil(script: "return document.getElementById('rec-message').textContent.includes('unplugged')")
                camera.plugged.withLock { $0 = true }
                try await Self.waitForState("recording", browser)
                try await browser.findElement(css: "#stop").click()
                try await Self.waitForState("finished", browser)
            }
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 1)
        }
    }

    @Test("a disk that fills up while recording: the recording stops finished, and the page says why")
    func fullDisk() async throws {
        let free = Mutex<Int64>(100_000_000_000)
        try await withStudio(configure: { settings in
            Self.configure(&settings)
            settings.freeBytes = { _ in free.withLock { $0 } }
        }) { studio in
            try await withWebDriver { browser in
                try await Self.signIn(studio, browser)
                try await Self.startRecording(browser)
                free.withLock { $0 = 200_000_000 }
                try await Self.waitForState("finished", browser)
                let message = try await browser.findElement(css: "#rec-message").text
                #expect(message.contains("It stopped early: disk almost full"), "\(message)")
            }
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 1, "what was recorded is kept")
        }
    }

    @Test("a tab out of sight closes its preview (the studio encodes nothing for it) and opens it again when shown")
    func hiddenTabClosesThePreview() async throws {
        try await withStudio(configure: Self.configure) { studio in
            let auth = ["-H", "Authorization: Bearer \(studio.token)"]
            func watchers() throws -> Int {
                let answer = try curl(auth + [studio.base + "/api/camera"])
                return (try JSONSerialization.jsonObject(with: answer.body) as? [String: Any])?["watchers"] as? Int ?? -1
            }
            func waitForWatchers(_ count: Int) async throws {
                let deadline = ContinuousClock.now + .seconds(20)
                while try watchers() != count, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(100)) }
                #expect(try watchers() == count)
            }
            try await withWebDriver { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.waitUntil(script: "return (() => { \(Self.previewDigest) })() !== null", timeout: .seconds(20))
                try await waitForWatchers(1)
                // What the browser does when the tab goes to the background (headless chromium
                // keeps every tab visible, so the page is told as it would be).
                let hide = """
                    Object.defineProperty(document, 'hidden', { configurable: true, get: () => arguments[0] });
                    document.dispatchEvent(new Event('visibilitychange'));
                    """
                _ = try await browser.executeScript(hide, args: [.bool(true)])
                try await waitForWatchers(0)
                _ = try await browser.executeScript(hide, args: [.bool(false)])
                try await waitForWatchers(1)
            }
        }
    }
}
