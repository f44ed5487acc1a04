import Foundation
import ReelTestSupport
import Testing

/// Recording safety through the `reel` binary: a recording claims its output at start
/// and `reel recover` never takes another file (nor removes a work folder whose video it did
/// not place); face positions reach the disk with every fragment, and recover finds missing
/// ones again in the video. Every kill is SIGKILL at a moment read from the disk (the work
/// folder polled until N fragments are there), never after a guessed sleep.
@Suite("recording safety end to end", .serialized)
struct RecordingSafetyEndToEndTests {
    struct Home {
        let dir: TemporaryDirectory
        var modelsFolder = TestModels.folder
        var library: String { dir.path("library.sqlite") }
        var state: String { dir.path("state/reel/recordings") }
        var environment: [String: String] {
            ["XDG_STATE_HOME": dir.path("state"), "XDG_DATA_HOME": dir.path("data"), "REEL_MODELS_DIR": modelsFolder]
        }

        func reel(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(arguments, environment: environment)
        }

        /// Starts a full-mode recording of the real-time test source (720p) to `output`.
        func startRecording(_ output: String, extra: [String] = []) throws -> BackgroundProcess {
            try BackgroundProcess(try ReelBinary.path(),
                                  ["record", "--source", "test", "--mode", "full", "--canvas", "1280x720", "--quiet", "--no-keep-awake",
                                   "--output", output, "--library", library] + extra, environment: environment)
        }

        /// The work folders now.
        func workFolders() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []).filter { !$0.hasPrefix(".") }.sorted().map { state + "/" + $0 }
        }

        /// Waits until `condition` holds (polled every 20 ms, at most `limit`); false when it never did.
        func until(_ limit: Duration = .seconds(30), _ condition: () -> Bool) async -> Bool {
            let deadline = ContinuousClock.now + limit
            while ContinuousClock.now < deadline {
                if condition() { return true }
                try? await Task.sleep(for: .milliseconds(20))
            }
            return condition()
        }

        /// Fragments on disk in a work folder's fragmented MP4 (its `moof` boxes).
        func fragments(in folder: String) -> Int {
            guard let data = FileManager.default.contents(atPath: folder + "/recording.mp4") else { return 0 }
            let moof = Array("moof".utf8)
            var count = 0
            data.withUnsafeBytes { raw in
                let bytes = raw.bindMemory(to: UInt8.self)
                var i = 0
                while i + 4 <= bytes.count {
                    if bytes[i] == moof[0], bytes[i + 1] == moof[1], bytes[i + 2] == moof[2], bytes[i + 3] == moof[3] { count += 1 }
                    i += 1
                }
            }
            return count
        }

        /// Starts a recording, SIGKILLs it once `count` fragments are on disk, returns its work folder.
        func killedAfter(fragments count: Int, output: String, extra: [String] = []) async throws -> String {
            let process = try startRecording(output, extra: extra)
            let reached = await until { workFolders().count == 1 && fragments(in: workFolders()[0]) >= count }
            process.send(SIGKILL)
            let result = await process.wait(timeout: .seconds(10))
            try #require(reached, "\(count) fragments never reached the disk: \(result.stderr)")
            #expect(result.status == SIGKILL || result.status == 9)
            return try #require(workFolders().first)
        }

        func sessions() throws -> [[String: Any]] {
            let run = try reel(["sessions", "--json", "--library", library])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        }

        /// Every session's file (or those of `only`) is a playable MP4, never a placeholder,
        /// holding its own session id.
        func checkSessionFiles(only: Set<String>? = nil) throws {
            for session in try sessions() where only.map({ $0.contains(session["id"] as? String ?? "") }) ?? true {
                let file = try #require(session["filePath"] as? String)
                let id = try #require(session["id"] as? String)
                #expect(try VideoInspection.decodeErrors(of: file) == "", "\(file) plays")
                #expect(try VideoInspection.packets(of: file).count > 0, "\(file) is a video, not a placeholder")
                #expect(try RecordingSafetyEndToEndTests.description(of: file) == "Reel study session \(id)", "\(file) is session \(id)'s own video")
            }
        }
    }

    static func description(of file: String) throws -> String {
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=description", "-of", "default=nw=1:nk=1", file])
        return probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func faceSamples(_ path: String) throws -> [[Int]] {
        let track = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any]
        return try #require(track?["samples"] as? [[Int]])
    }

    func fingerprint(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    @Test("a second recording with the same --output is refused at its start; the first finishes into it")
    func sameOutputRefusedAtStart() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/today.mp4")
        let first = try home.startRecording(output)
        let recording = await home.until { home.workFolders().count == 1 && home.fragments(in: home.workFolders()[0]) >= 1 }
        #expect(recording, "the first recording has a fragment on disk")
        let firstFolder = try #require(home.workFolders().first)

        let second = try home.reel(["record", "--source", "test", "--mode", "full", "--canvas", "1280x720", "--quiet", "--no-keep-awake",
                                    "--duration", "3", "--output", output, "--library", home.library])
        #expect(second.status == 1)
        #expect(second.stderr.contains("\(output) already exists; choose another --output") && second.stderr.contains("nothing was recorded"),
                "refused at start, before recording: \(second.stderr)")
        #expect(home.workFolders() == [firstFolder], "the second left no work folder")

        first.send(SIGINT)
        let result = await first.wait(timeout: .seconds(30))
        #expect(result.status == 0, "\(result.stderr)")
        let sessions = try home.sessions()
        #expect(sessions.count == 1 && sessions.first?["filePath"] as? String == output)
        #expect(sessions.first?["id"] as? String == (firstFolder as NSString).lastPathComponent)
        try home.checkSessionFiles()
        #expect(home.workFolders().isEmpty)
    }

    @Test("recover never takes another recording's file at its output: finished under NAME-2.mp4, the other file untouched, idempotent")
    func recoverNeverTakesAnotherFile() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/today.mp4")
        let folder = try await home.killedAfter(fragments: 2, output: output)
        let id = (folder as NSString).lastPathComponent
        // Another recording ends up at the same name (a second recording with that
        // --output, or one moved there): here one recorded elsewhere and renamed over it.
        let elsewhere = dir.path("out/elsewhere.mp4")
        let other = try home.reel(["record", "--source", "test", "--mode", "timelapse", "--interval", "1", "--duration", "3", "--quiet",
                                   "--no-keep-awake", "--output", elsewhere, "--library", home.library])
        #expect(other.status == 0, "\(other.stderr)")
        #expect(rename(elsewhere, output) == 0)
        let otherBytes = try fingerprint(output)
        let backup = dir.path("backup")
        try FileManager.default.copyItem(atPath: folder, toPath: backup)

        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 0, "\(recover.stderr)")
        let renamed = dir.path("out/today-2.mp4")
        #expect(recover.stdout.contains("recovered \(id): \(renamed)") && recover.stdout.contains("\(output) is another file"), "\(recover.stdout)")
        #expect(try fingerprint(output) == otherBytes, "the other recording's file is untouched")
        #expect(!FileManager.default.fileExists(atPath: folder))
        let mine = try #require(try home.sessions().first { $0["id"] as? String == id })
        #expect(mine["filePath"] as? String == renamed && mine["thumbnailPath"] as? String == dir.path("out/today-2.jpg"))
        let inProgress = try VideoInspection.duration(of: backup + "/recording.mp4")
        #expect(abs(try VideoInspection.duration(of: renamed) - inProgress) < 0.05, "all of the recording in progress (\(inProgress) s)")
        try home.checkSessionFiles(only: [id])  // the other session's file was moved away by the test

        // Crashed after placing, before registering (the work folder back as it was): the
        // placed MP4 is recognised as this recording's, nothing is placed twice.
        try FileManager.default.copyItem(atPath: backup, toPath: folder)
        let again = try home.reel(["recover", "--library", home.library])
        #expect(again.status == 0 && again.stdout.contains("completed \(id): \(renamed) was already finished"), "\(again.stdout)\(again.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out/today-3.mp4")))
        #expect(try fingerprint(output) == otherBytes)
        #expect(try home.sessions().count == 2)
        #expect(home.workFolders().isEmpty)
    }

    @Test("crash points: killed as the placeholder appears, or mid-recording with a finishing copy left: recover leaves no placeholder and no temporary file")
    func crashPoints() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        // At the claim: the placeholder is the first thing in the output folder.
        let early = dir.path("out/early.mp4")
        let process = try home.startRecording(early)
        let claimed = await home.until { FileManager.default.fileExists(atPath: early) }
        process.send(SIGKILL)
        _ = await process.wait(timeout: .seconds(10))
        #expect(claimed)
        #expect(try String(contentsOfFile: early, encoding: .utf8).contains("reel recover"), "the placeholder says what it is")
        let first = try home.reel(["recover", "--library", home.library])
        #expect(first.status == 0, "\(first.stdout)\(first.stderr)")
        if FileManager.default.fileExists(atPath: early) {
            #expect(first.stdout.contains("recovered"), "\(first.stdout)")  // a fragment had reached the disk
        } else {
            #expect(first.stdout.contains("removed") && first.stdout.contains("nothing had reached the disk"), "\(first.stdout)")
        }
        #expect(home.workFolders().isEmpty)

        // Mid-recording, then a finish that died after writing part of its copy.
        let late = dir.path("out/late.mp4")
        let folder = try await home.killedAfter(fragments: 1, output: late)
        let id = (folder as NSString).lastPathComponent
        let leftover = dir.path("out/.late.mp4.finishing-\(id.prefix(8)).mp4")
        try Data(repeating: 7, count: 5000).write(to: URL(fileURLWithPath: leftover))
        let second = try home.reel(["recover", "--library", home.library])
        #expect(second.status == 0 && second.stdout.contains("recovered \(id): \(late)"), "\(second.stdout)\(second.stderr)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).filter { $0.hasPrefix(".") }.isEmpty)
        try home.checkSessionFiles()
        let third = try home.reel(["recover", "--library", home.library])
        #expect(third.stdout.contains("nothing to recover"))
    }

    @Test("killed at about 7 s (before the first 30 s checkpoint), recover keeps the face positions up to at most 2 s before the end")
    func facesSurviveAnEarlyCrash() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/faces.mp4")
        let folder = try await home.killedAfter(fragments: 3, output: output)
        let id = (folder as NSString).lastPathComponent
        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(!recover.stdout.contains("found"), "the log had them: nothing to find again: \(recover.stdout)")
        let duration = try VideoInspection.duration(of: output)
        let samples = try Self.faceSamples(dir.path("out/faces.faces.json"))
        let last = Double(try #require(samples.last?[0], "face samples after an early crash")) / 600
        #expect(duration - last <= 0.3, "video \(duration) s, last face sample at \(last) s (one every 0.2 s)")
        #expect(samples.count >= Int(duration / 0.2), "one sample every 0.2 s: \(samples.count) for \(duration) s")
        let session = try #require(try home.sessions().first { $0["id"] as? String == id })
        #expect(session["faceTrackPath"] as? String == dir.path("out/faces.faces.json"))
    }

    @Test("a work folder without the face log (an older Reel) gets its faces found again in the video; without the model the track is absent and export says why")
    func facesFoundAgain() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        var home = Home(dir: dir)
        let output = dir.path("out/old.mp4")
        let folder = try await home.killedAfter(fragments: 2, output: output)
        let backup = dir.path("backup")
        try FileManager.default.copyItem(atPath: folder, toPath: backup)
        try? FileManager.default.removeItem(atPath: folder + "/faces.log")  // (an older Reel wrote none)
        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stdout.contains("face positions from 0.000 s to the end were missing; found"), "\(recover.stdout)")
        let duration = try VideoInspection.duration(of: output)
        let samples = try Self.faceSamples(dir.path("out/old.faces.json"))
        #expect(samples.count >= Int(duration / 0.2) && Double(samples.last?[0] ?? 0) / 600 >= duration - 0.25, "\(samples.count) samples for \(duration) s")

        // The same folder, no model: said, the track left absent, and export gives the real reason.
        let library2 = dir.path("library2.sqlite")
        for name in ["out/old.mp4", "out/old.jpg", "out/old.faces.json"] { try FileManager.default.removeItem(atPath: dir.path(name)) }
        try FileManager.default.copyItem(atPath: backup, toPath: folder)
        try? FileManager.default.removeItem(atPath: folder + "/faces.log")
        home.modelsFolder = dir.path("no-models")
        let noModel = try home.reel(["recover", "--library", library2])
        #expect(noModel.status == 0, "\(noModel.stderr)")
        #expect(noModel.stderr.contains("no face track") && noModel.stderr.contains("CenterFace model is not installed"), "\(noModel.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out/old.faces.json")))
        let export = try home.reel(["export", (folder as NSString).lastPathComponent.prefix(8).description, "--output", dir.path("x.mp4"),
                                    "--library", library2])
        #expect(export.status != 0)
        #expect(!export.stderr.contains("before the face tracker existed"), "\(export.stderr)")
        #expect(export.stderr.contains("no face track was saved"), "\(export.stderr)")
    }
}
