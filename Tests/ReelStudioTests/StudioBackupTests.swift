import Foundation
import ReelBackup
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The backup page's API and view: a backup run with its progress, its state read from the
/// folder, and a restore that is checked (dry run) before it runs.
@Suite("Studio backup and restore", .serialized)
struct StudioBackupTests {
    static func state(_ studio: TestStudio) throws -> [String: Any] {
        let text = try studio.api([studio.base + "/api/backup"]).text
        return (try? JSONSerialization.jsonObject(with: Data(text.utf8))) as? [String: Any] ?? [:]
    }

    /// Polls the backup's state until it is no longer running (20 s at most).
    static func waitForBackup(_ studio: TestStudio) async throws -> [String: Any] {
        for _ in 0..<400 {
            let now = try state(studio)
            if now["state"] as? String != "running" { return now }
            try await Task.sleep(for: .milliseconds(50))
        }
        Issue.record("the backup still runs after 20 s")
        return [:]
    }

    @Test("back up: 202, then finished with every file counted; the folder's backup.json is reel backup's; the second run copies nothing; refusals")
    func backup() async throws {
        try await withStudio { studio in
            let cookie = try studio.signIn()
            let folder = studio.folder.path("backup")
            #expect(try Self.state(studio)["state"] as? String == "idle")
            let early = try studio.post("/api/backup", json: #"{"folder":"\#(folder)"}"#, cookie: cookie)
            #expect(early.status == 409 && early.text.contains("does not exist yet") && !FileManager.default.fileExists(atPath: folder))

            let fixture = try LibraryFixture(studio)
            #expect(try studio.post("/api/backup", json: #"{"folder":"backup"}"#, cookie: cookie).status == 400, "a relative folder")
            let started = try studio.post("/api/backup", json: #"{"folder":"\#(folder)"}"#, cookie: cookie)
            #expect(started.status == 202 && started.text.contains(#""state":"running""#))
            let done = try await Self.waitForBackup(studio)
            #expect(done["state"] as? String == "finished", "\(done)")
            #expect(done["filesDone"] as? Int == 5 && done["filesTotal"] as? Int == 5, "3 videos and 2 thumbnails: \(done)")
            #expect(done["bytesDone"] as? Int == done["bytesTotal"] as? Int && (done["bytesTotal"] as? Int ?? 0) > 0)
            #expect(done["sessionsInBackup"] as? Int == 3 && done["lastBackupAt"] is String)
            let said = done["message"] as? String ?? ""
            #expect(said.hasPrefix("backed up 3 sessions, ") && !said.contains("(s)"), "counted with their nouns: \(said)")
            let document = try #require(try LibraryBackup.document(in: folder))
            #expect(Set(document.sessions.map(\.id)) == Set(fixture.sessions.map(\.id)))

            #expect(try studio.post("/api/backup", json: #"{"folder":"\#(folder)"}"#, cookie: cookie).status == 202)
            let again = try await Self.waitForBackup(studio)
            #expect(again["state"] as? String == "finished" && again["filesTotal"] as? Int == 0, "nothing changed: nothing copied: \(again)")
            #expect((again["message"] as? String)?.contains("0 copied") == true && (again["message"] as? String)?.contains("5 unchanged") == true)

            let unwritable = try studio.post("/api/backup", json: #"{"folder":"/proc/reel-backup"}"#, cookie: cookie)
            #expect(unwritable.status == 202)
            let failed = try await Self.waitForBackup(studio)
            #expect(failed["state"] as? String == "failed" && (failed["message"] as? String)?.contains("/proc/reel-backup") == true, "\(failed)")
        }
    }

    @Test("restore: the dry run lists what a restore adds and changes nothing; the restore adds it; a damaged backup is 422 with nothing changed")
    func restore() async throws {
        try await withStudio { studio in
            let cookie = try studio.signIn()
            let fixture = try LibraryFixture(studio)
            let folder = studio.folder.path("backup")
            #expect(try studio.post("/api/backup", json: #"{"folder":"\#(folder)"}"#, cookie: cookie).status == 202)
            #expect(try await Self.waitForBackup(studio)["state"] as? String == "finished")
            let gone = fixture.sessions[1]
            #expect(try studio.post("/api/sessions/\(gone.id.uuidString.lowercased())/trash", cookie: cookie).status == 200)
            try FileManager.default.removeItem(atPath: studio.folder.path("data/Trash"))  // emptied: only the backup has it now

            let dry = try studio.post("/api/restore", json: #"{"folder":"\#(folder)","dryRun":true}"#, cookie: cookie)
            let plan = try #require(try JSONSerialization.jsonObject(with: dry.body) as? [String: Any])
            #expect(dry.status == 200 && plan["dryRun"] as? Bool == true)
            #expect((plan["sessions"] as? [[String: Any]])?.map { $0["id"] as? String } == [gone.id.uuidString.lowercased()])
            #expect(Set(plan["media"] as? [String] ?? []) == [gone.filePath, gone.thumbnailPath!], "\(plan)")
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 2, "a dry run changes nothing")
            #expect(!FileManager.default.fileExists(atPath: gone.filePath))

            let real = try studio.post("/api/restore", json: #"{"folder":"\#(folder)","dryRun":false}"#, cookie: cookie)
            #expect(real.status == 200 && real.text.contains(#""dryRun":false"#))
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessions().contains(gone))
            #expect(FileManager.default.fileExists(atPath: gone.filePath))
            let twice = try studio.post("/api/restore", json: #"{"folder":"\#(folder)","dryRun":true}"#, cookie: cookie)
            #expect(twice.text.contains(#""sessions":[]"#) && twice.text.contains(#""media":[]"#), "\(twice.text)")

            try Data("{ damaged".utf8).write(to: URL(fileURLWithPath: folder + "/backup.json"))
            let damaged = try studio.post("/api/restore", json: #"{"folder":"\#(folder)","dryRun":true}"#, cookie: cookie)
            #expect(damaged.status == 422 && damaged.text.contains("backup.json"), "\(damaged.text)")
            for body in [#"{"folder":"backup","dryRun":true}"#, #"{"folder":"\#(folder)","dryRun":true,"mediaFolder":"media"}"#, #"{"folder":"\#(folder)"}"#] {
                #expect(try studio.post("/api/restore", json: body, cookie: cookie).status == 400, "\(body)")
            }
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 3)
        }
    }

    @Test("the backup view: back up with progress to finished; a restore is checked first, then runs; a changed folder needs a new check")
    func view() async throws {
        try await withStudio { studio in
            let fixture = try LibraryFixture(studio)
            let folder = studio.folder.path("backup")
            try await withWebDriver(windowSize: (1280, 1000)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#backup")
                try await browser.waitUntil(script: "return document.body.dataset.backupState === 'idle'")
                try await browser.findElement(css: "#backup-folder").sendKeys(folder)
                try await browser.findElement(css: "#backup-run").click()
                try await browser.waitUntil(script: "return document.body.dataset.backupState === 'finished'", timeout: .seconds(20))
                #expect(try await browser.findElement(css: "#backup-files").text.hasPrefix("5 of 5 files"))
                #expect(try await browser.executeScript("const p = document.getElementById('backup-progress'); return !p.hidden && p.value === p.max").bool == true)
                #expect(try await browser.findElement(css: "#backup-last").text.contains("(3 sessions)"))

                let cookie = try studio.signIn()
                let gone = fixture.sessions[0]
                #expect(try studio.post("/api/sessions/\(gone.id.uuidString.lowercased())/trash", cookie: cookie).status == 200)
                try FileManager.default.removeItem(atPath: studio.folder.path("data/Trash"))

                #expect(try await browser.executeScript("return document.getElementById('restore-run').disabled").bool == true, "no restore before its check")
                try await browser.findElement(css: "#restore-check").click()
                try await browser.waitUntil(script: "return document.body.dataset.restoreChecked === 'yes'")
                let plan = try await browser.findElement(css: "#restore-plan").text
                #expect(plan.contains("session \(gone.id.uuidString.lowercased().prefix(8))") && plan.contains(gone.filePath), "\(plan)")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessionCount() == 2)

                // Changing the options after the check asks for a new check.
                try await browser.findElement(css: "#restore-skip-missing").click()
                #expect(try await browser.executeScript("return document.getElementById('restore-run').disabled").bool == true)
                try await browser.findElement(css: "#restore-skip-missing").click()
                try await browser.findElement(css: "#restore-check").click()
                try await browser.waitUntil(script: "return !document.getElementById('restore-run').disabled")
                try await browser.findElement(css: "#restore-run").click()
                try await browser.waitUntil(script: "return document.getElementById('restore-message').textContent.startsWith('Restored 1 session, ')")
                try await StudioBrowserTests.screenshot(browser, "studio-backup")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).sessions().contains(gone))
                #expect(FileManager.default.fileExists(atPath: gone.filePath))
            }
        }
    }
}
