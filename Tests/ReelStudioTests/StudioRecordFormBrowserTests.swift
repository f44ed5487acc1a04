import Foundation
import ReelCore
import ReelStore
import ReelStudio
import ReelTestSupport
import Testing

/// The record view's form in chromium: a video file as the source (probed when chosen, a
/// refusal said and the chooser still usable), Start disabled with the reason while the source
/// is streaming live, the output folder and the disk floor, and the recordings a crash left
/// unfinished, recovered from the page.
@Suite("Studio record form in chromium", .serialized)
struct StudioRecordFormBrowserTests {
    static func get(_ studio: TestStudio, _ path: String) throws -> CurlResponse {
        try curl(["-H", "Authorization: Bearer \(studio.token)", studio.base + path])
    }

    static func post(_ studio: TestStudio, _ path: String, json: String) throws -> CurlResponse {
        try curl(["-X", "POST", "-H", "Origin: \(studio.base)", "-H", "Authorization: Bearer \(studio.token)",
                  "-H", "Content-Type: application/json", "--data-binary", json, studio.base + path])
    }

    static func object(_ answer: CurlResponse) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: answer.body) as? [String: Any]) ?? [:]
    }

    static func chosenSource(_ studio: TestStudio) throws -> String? {
        object(try get(studio, "/api/camera"))["source"] as? String
    }

    static func text(_ browser: WebDriver, _ id: String) async throws -> String {
        try await browser.executeScript("return document.getElementById(arguments[0]).textContent", args: [.string(id)]).string ?? ""
    }

    /// Picks `value` in the source list as a person would (the list's change event).
    static func pick(_ value: String, _ browser: WebDriver) async throws {
        _ = try await browser.executeScript("""
            const choice = document.getElementById('source-choice');
            choice.value = arguments[0];
            choice.dispatchEvent(new Event('change'));
            """, args: [.string(value)])
    }

    /// Types `path` into the file row (shown) and presses Use file.
    static func useFile(_ path: String, _ browser: WebDriver) async throws {
        let field = try await browser.findElement(css: "#source-file")
        try await field.clear()
        try await field.sendKeys(path)
        try await browser.findElement(css: "#use-file").click()
    }

    @Test("a video file is probed when chosen: a mistyped path, /etc/passwd and a file without video are refused with the reason, the chooser stays usable, a real clip is taken")
    func fileSource() async throws {
        try await withStudio(configure: StudioRecordBrowserTests.configure) { studio in
            let clip = studio.folder.path("desk.mp4"), sound = studio.folder.path("sound.m4a")
            try TestMedia.makeClip(at: clip, seconds: 2, width: 320, height: 240, audio: false)
            let tone = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000", "-t", "1", sound])
            try #require(tone.status == 0, "\(tone.stderr)")

            // Through the API: what got through before is refused now, and nothing is taken.
            for path in ["/etc/passwd", sound] {
                let choose = try Self.post(studio, "/api/source", json: #"{"source":"file:\#(path)"}"#)
                #expect(choose.status == 400 && choose.text.contains(path), "\(path): \(choose.status) \(choose.text)")
                let start = try Self.post(studio, "/api/recording/start", json: #"{"source":"file:\#(path)","mode":"timelapse"}"#)
                #expect(start.status == 400 && start.text.contains(path), "\(path): \(start.status) \(start.text)")
            }
            let passwd = try Self.post(studio, "/api/source", json: #"{"source":"file:/etc/passwd"}"#)
            #expect(passwd.text.contains("not a video"), "\(passwd.text)")
            let silent = try Self.post(studio, "/api/source", json: #"{"source":"file:\#(sound)"}"#)
            #expect(silent.text.contains("no video stream"), "\(silent.text)")
            #expect(try Self.chosenSource(studio) == "test:640x360@15")

            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.waitUntil(script: "return [...document.getElementById('source-choice').options].some((o) => o.value === 'file')")
                try await Self.pick("file", browser)
                try await browser.waitUntil(script: "return !document.getElementById('file-row').hidden")

                // A mistyped path: said, and the row stays with what was typed, to be corrected.
                try await Self.useFile("/home/nobody/desk.mp4", browser)
                try await browser.waitUntil(script: "return document.getElementById('rec-message').textContent.includes('does not exist')")
                #expect(try await browser.executeScript("return document.getElementById('file-row').hidden").bool == false,
                        "the file row stays after a refusal")
                #expect(try await browser.executeScript("return document.getElementById('source-file').value").string == "/home/nobody/desk.mp4")

                // Not a video: refused with the reason; the old source is still the one shown.
                try await Self.useFile("/etc/passwd", browser)
                try await browser.waitUntil(script: "return document.getElementById('rec-message').textContent.includes('/etc/passwd')")
                #expect(try await Self.text(browser, "rec-message").contains("not a video"))
                #expect(try await Self.text(browser, "preview-note").hasPrefix("test:640x360@15"))
                #expect(try Self.chosenSource(studio) == "test:640x360@15")

                // The list can be left and "Video file…" chosen again.
                try await Self.pick("test:1280x720@15", browser)
                try await browser.waitUntil(script: "return document.getElementById('file-row').hidden")
                try await Self.pick("file", browser)
                try await browser.waitUntil(script: "return !document.getElementById('file-row').hidden")

                // A real clip is taken: the list names it, the row goes.
                try await Self.useFile(clip, browser)
                try await browser.waitUntil(script: "return document.getElementById('source-choice').value === arguments[0]", args: [.string("file:" + clip)])
                #expect(try await browser.executeScript("return document.getElementById('file-row').hidden").bool == true)
                #expect(try Self.chosenSource(studio) == "file:" + clip)
                #expect(try await Self.text(browser, "rec-message") == "")
            }
        }
    }

    @Test("while the source streams live, Start recording is disabled and says why; it comes back when the stream stops")
    func startDisabledWhileLive() async throws {
        try await withStudio(configure: StudioRecordBrowserTests.configure) { studio in
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                #expect(try await browser.executeScript("return document.getElementById('start').disabled").bool == false)
                let live = try Self.post(studio, "/api/live", json: #"{"output":"\#(studio.folder.path("hls"))","archive":false}"#)
                #expect(live.status == 202, "\(live.text)")
                try await browser.waitUntil(script: "return document.getElementById('start').disabled", timeout: .seconds(20))
                let note = try await Self.text(browser, "start-note")
                #expect(note.contains("live stream"), "\(note)")
                _ = try Self.post(studio, "/api/live/stop", json: "{}")
                try await browser.waitUntil(script: "return !document.getElementById('start').disabled", timeout: .seconds(30))
                #expect(try await Self.text(browser, "start-note") == "")
            }
        }
    }

    @Test("the form offers the output folder and the disk floor its refusal names: a short disk refused, then recorded with a floor of 0 and into another folder")
    func outputFolderAndDiskFloor() async throws {
        try await withStudio(configure: { settings in
            StudioRecordBrowserTests.configure(&settings)
            // 2 GB free everywhere but in a folder called "elsewhere": a full recording (2.25 GB
            // an hour) does not fit an hour above the 1 GB floor.
            settings.freeBytes = { path in path.hasSuffix("/elsewhere") || path.contains("/elsewhere/") ? 100_000_000_000 : 2_000_000_000 }
        }) { studio in
            let elsewhere = studio.folder.path("elsewhere")
            try FileManager.default.createDirectory(atPath: elsewhere, withIntermediateDirectories: true)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                let labels = try await browser.executeScript("""
                    return ['output-folder', 'min-hours'].map((id) => document.getElementById(id)?.labels?.[0]?.textContent ?? null)
                    """)
                #expect(labels.array?.allSatisfy { $0.string != nil } == true, "labelled fields: \(labels)")
                try await browser.findElement(css: "#mode-full").click()

                try await browser.findElement(css: "#start").click()
                try await StudioRecordBrowserTests.waitForState("failed", browser)
                let refusal = try await Self.text(browser, "rec-message")
                #expect(refusal.contains("not enough free disk space") && refusal.contains("Disk floor") && refusal.contains("Output folder"), "\(refusal)")
                #expect(!refusal.contains("--"), "the page's words, not the command line's: \(refusal)")

                let floor = try await browser.findElement(css: "#min-hours")
                try await floor.clear()
                try await floor.sendKeys("0")
                try await StudioRecordBrowserTests.startRecording(browser)
                try await browser.findElement(css: "#stop").click()
                try await StudioRecordBrowserTests.waitForState("finished", browser)

                try await floor.clear()
                try await floor.sendKeys("1")
                try await browser.findElement(css: "#output-folder").sendKeys(elsewhere)
                try await StudioRecordBrowserTests.startRecording(browser)
                try await browser.findElement(css: "#stop").click()
                try await StudioRecordBrowserTests.waitForState("finished", browser)
                let saved = try await Self.text(browser, "rec-message")
                #expect(saved.contains("Saved \(elsewhere)/reel-"), "\(saved)")
            }
            let files = try FileManager.default.contentsOfDirectory(atPath: elsewhere).filter { $0.hasSuffix(".mp4") }
            #expect(files.count == 1, "\(files)")
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 2)
        }
    }

    @Test("the studio's own recording in progress is not unfinished: not listed, and Recover leaves it recording and says so")
    func runningRecordingIsNotRecovered() async throws {
        try await withStudio(configure: StudioRecordBrowserTests.configure) { studio in
            let started = try Self.post(studio, "/api/recording/start", json: #"{"mode":"timelapse","interval":0.5}"#)
            #expect(started.status == 202, "\(started.text)")
            _ = try await eventually("the recording running", within: 20) { () -> Bool? in
                let state = (try? Self.get(studio, "/api/recording")).map(Self.object)?["state"] as? String
                return state == "recording" ? true : nil
            }
            let listed = Self.object(try Self.get(studio, "/api/recordings/unfinished"))["recordings"] as? [Any]
            #expect(listed?.isEmpty == true, "\(String(describing: listed))")
            let recover = Self.object(try Self.post(studio, "/api/recordings/recover", json: "{}"))
            #expect((recover["summary"] as? String)?.hasSuffix("alone: it is still being recorded.") == true && recover["recovered"] as? Int == 0,
                    "\(recover)")
            #expect(Self.object(try Self.get(studio, "/api/recording"))["state"] as? String == "recording")
            _ = try Self.post(studio, "/api/recording/stop", json: "{}")
            _ = try await eventually("the recording finished", within: 30) { () -> Bool? in
                let state = (try? Self.get(studio, "/api/recording")).map(Self.object)?["state"] as? String
                return state == "finished" ? true : nil
            }
        }
    }

    @Test("a reel record killed with SIGKILL leaves an unfinished recording: the record view lists it, Recover finishes it into the library")
    func recoverFromThePage() async throws {
        try await withStudio(configure: StudioRecordBrowserTests.configure) { studio in
            let state = studio.folder.path("state/reel/recordings"), output = studio.folder.path("out/crash.mp4")
            let environment = ["XDG_STATE_HOME": studio.folder.path("state"), "XDG_DATA_HOME": studio.folder.path("data"),
                               "REEL_MODELS_DIR": TestModels.folder]
            let process = try BackgroundProcess(try ReelBinary.path(), [
                "record", "--source", "test", "--mode", "full", "--canvas", "1280x720", "--quiet", "--no-faces", "--no-keep-awake",
                "--title", "Crashed", "--output", output, "--library", studio.server.settings.libraryPath], environment: environment)
            // Killed once a fragment is on disk (the work folder's recording has grown past its start).
            let folder = try await eventually("a fragment of the recording on disk", within: 30) { () -> String? in
                guard let name = (try? FileManager.default.contentsOfDirectory(atPath: state))?.first(where: { !$0.hasPrefix(".") }),
                      let size = (try? FileManager.default.attributesOfItem(atPath: state + "/" + name + "/recording.mp4"))?[.size] as? Int,
                      size > 50_000 else { return nil }
                return state + "/" + name
            }
            process.send(SIGKILL)
            _ = await process.wait(timeout: .seconds(10))
            let id = (folder as NSString).lastPathComponent

            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.waitUntil(script: "return !document.getElementById('unfinished').hidden", timeout: .seconds(20))
                let listed = try await Self.text(browser, "unfinished-list")
                #expect(listed.contains("Crashed") && listed.contains(output), "\(listed)")
                try await browser.findElement(css: "#recover").click()
                try await browser.waitUntil(script: "return document.getElementById('unfinished').hidden", timeout: .seconds(60))
                let said = try await Self.text(browser, "rec-message")
                #expect(said.contains("Recovered") && said.contains(output), "\(said)")
            }
            #expect(!FileManager.default.fileExists(atPath: folder), "the work folder is gone")
            let decode = try Subprocess.run("ffmpeg", ["-v", "error", "-i", output, "-f", "null", "-"])
            #expect(decode.status == 0 && decode.stderr.isEmpty, "the recovered video plays: \(decode.stderr)")
            let session = try #require(try StudyLibrary(path: studio.server.settings.libraryPath).sessions().first)
            #expect(session.id.uuidString.lowercased() == id && session.title == "Crashed" && session.recovered)
        }
    }
}
