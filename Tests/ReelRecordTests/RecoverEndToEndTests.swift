import Foundation
import ReelTestSupport
import Testing

/// `reel recover`, `reel sessions` and the library behind `reel record`, with the real binary
/// in real time: SIGKILL at seeded random moments, recovery of torn and
/// half-finished recordings, a damaged checkpoint, an unusable library.
@Suite("reel recover and reel sessions end to end", .serialized)
struct RecoverEndToEndTests {
    /// A temporary home: XDG folders and a library inside `dir`.
    struct Home {
        let dir: TemporaryDirectory
        var library: String { dir.path("library.sqlite") }
        var state: String { dir.path("state/reel/recordings") }
        var environment: [String: String] { ["XDG_STATE_HOME": dir.path("state"), "XDG_DATA_HOME": dir.path("data"), "REEL_MODELS_DIR": TestModels.folder] }

        func reel(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(arguments, environment: environment)
        }

        /// Starts a full-mode recording of the real-time test source, SIGKILLs it after
        /// `seconds` and returns the work folder it left, the checkpoint's start and the kill time.
        func killedRecording(after seconds: Double, output: String) async throws -> (folder: String, startedAt: Date, killedAt: Date) {
            let process = try BackgroundProcess(try ReelBinary.path(),
                                                ["record", "--source", "test", "--mode", "full", "--canvas", "1280x720", "--quiet",
                                                 "--title", "Crash \(seconds)", "--tag", "crash", "--output", output, "--library", library],
                                                environment: environment)
            // The kill comes `seconds` after the recording started (its checkpoint's start time),
            // not after the launch: a start-up slowed by a busy machine must not move the kill
            // before the first fragment.
            let (folder, started) = try await eventually("the recording's checkpoint", within: 30) { recording() }
            let wait = started.addingTimeInterval(seconds).timeIntervalSinceNow
            // The kill's moment in the recording is the scenario (a seeded crash time).
            if wait > 0 { try await Task.sleep(for: .milliseconds(Int(wait * 1000))) }
            let killedAt = Date()
            process.send(SIGKILL)
            let result = await process.wait(timeout: .seconds(10))
            #expect(result.status == SIGKILL || result.status == 9, "killed: \(result.stderr)")
            return (folder, started, killedAt)
        }

        /// The recording's work folder and the start time its checkpoint holds, once both exist.
        func recording() -> (folder: String, startedAt: Date)? {
            guard let name = (try? FileManager.default.contentsOfDirectory(atPath: state))?.first(where: { !$0.hasPrefix(".") }),
                  let data = try? Data(contentsOf: URL(fileURLWithPath: state + "/" + name + "/checkpoint.json")),
                  let checkpoint = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any],
                  let started = (checkpoint["startedAt"] as? String).flatMap({ try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse($0) })
            else { return nil }
            return (state + "/" + name, started)
        }

        func sessionsJSON() throws -> [[String: Any]] {
            let run = try reel(["sessions", "--json", "--library", library])
            #expect(run.status == 0, "\(run.stderr)")
            return try #require(JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [[String: Any]])
        }
    }

    func files(below folder: String) -> [String] {
        (FileManager.default.enumerator(atPath: folder)?.compactMap { $0 as? String } ?? []).sorted()
    }

    func fingerprint(_ path: String) throws -> (Int, Date) {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return ((attributes[.size] as? NSNumber)?.intValue ?? -1, attributes[.modificationDate] as? Date ?? .distantPast)
    }

    @Test("SIGKILL at 2 seeded random moments (3–8 s) of a full recording: recover gives a playable MP4 missing at most the last 2 s, the session in the library; a second recover changes nothing")
    func crashes() async throws {
        try await crash(runs: 2)
    }

    @Test("the same at 10 seeded moments, the first two as above (long tier)", .longTier)
    func crashesLongTier() async throws {
        try await crash(runs: 10)
    }

    func crash(runs: Int) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        var random = SplitMix64(seed: 0x5EED_4_2)
        var losses: [Double] = []
        for run in 0..<runs {
            let delay = 3 + Double(random.next() % 5001) / 1000
            let output = dir.path("out/crash-\(run).mp4")
            let (folder, startedAt, killedAt) = try await home.killedRecording(after: delay, output: output)
            let id = (folder as NSString).lastPathComponent
            let recover = try home.reel(["recover", "--library", home.library])
            #expect(recover.status == 0, "run \(run): \(recover.stderr)")
            #expect(recover.stdout.contains("recovered \(id): \(output)"), "run \(run): \(recover.stdout)")
            #expect(!FileManager.default.fileExists(atPath: folder), "run \(run): the work folder is gone")
            #expect(try VideoInspection.decodeErrors(of: output) == "", "run \(run): plays without errors")
            let boxes = try VideoInspection.boxes(of: output)
            #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!, "run \(run): moov first")
            let duration = try VideoInspection.duration(of: output)
            // Active time at the kill: the test source runs from the start without pauses. The
            // start time in the checkpoint is taken just before the encoder opens, so the loss
            // measured this way includes the start-up to the first frame (tens of ms).
            let loss = killedAt.timeIntervalSince(startedAt) - duration
            losses.append(loss)
            #expect(loss <= 2.0 + 1.0 / 30 + 0.1, "run \(run): killed \(delay) s after launch, video \(duration) s, loss \(loss) s")
            let pts = try VideoInspection.packets(of: output).map(\.pts)
            #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 > $0 })
            let base = (output as NSString).deletingPathExtension
            #expect(FileManager.default.fileExists(atPath: base + ".jpg") && FileManager.default.fileExists(atPath: base + ".faces.json"))
            let session = try #require(try home.sessionsJSON().first { $0["id"] as? String == id }, "run \(run): session registered")
            #expect(session["filePath"] as? String == output && session["recovered"] as? Bool == true)
            #expect(abs((session["videoSeconds"] as? Double ?? 0) - duration) < 0.05)
            #expect(session["tags"] as? [String] == ["crash"] && session["mode"] as? String == "full")
        }
        print("crash test: loss after SIGKILL (s, including start-up): \(losses.map { String(format: "%.3f", $0) }.joined(separator: " ")), max \(losses.max()!)")
        // A second run changes nothing: no folder, same files, same library.
        let before = try home.sessionsJSON().count, outputs = try (0..<runs).map { try fingerprint(dir.path("out/crash-\($0).mp4")) }
        let again = try home.reel(["recover", "--library", home.library])
        #expect(again.status == 0 && again.stdout.contains("nothing to recover"), "\(again.stdout)\(again.stderr)")
        #expect(try home.sessionsJSON().count == before && before == runs)
        #expect(try (0..<runs).map { try fingerprint(dir.path("out/crash-\($0).mp4")) }.elementsEqual(outputs) { $0 == $1 })
        #expect(files(below: home.state).isEmpty)
    }

    @Test("a torn last fragment is cut off; a crash after the MP4 was placed (registered or not) is completed without remaking it")
    func tornAndHalfFinished() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/torn.mp4")
        let (folder, _, _) = try await home.killedRecording(after: 4.5, output: output)
        // Tear the last fragment: its mdat loses its last 1000 bytes (FFmpeg alone would copy the
        // cut packet, which then fails to decode).
        let video = folder + "/recording.mp4"
        let size = try fingerprint(video).0
        #expect(truncate(video, off_t(size - 1000)) == 0)
        let keep = dir.path("copy")
        try FileManager.default.copyItem(atPath: folder, toPath: keep)
        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 0, "\(recover.stderr)")
        #expect(recover.stdout.contains("cut off a torn last fragment"), "\(recover.stdout)")
        #expect(try VideoInspection.decodeErrors(of: output) == "")
        let placed = try fingerprint(output)

        // The same work folder again, as if the recorder (or recover) died after placing the MP4:
        // completed, the output untouched, nothing added twice.
        try FileManager.default.copyItem(atPath: keep, toPath: folder)
        let again = try home.reel(["recover", "--library", home.library])
        #expect(again.status == 0 && again.stdout.contains("was already finished") && again.stdout.contains("already in the library"), "\(again.stdout)\(again.stderr)")
        #expect(try fingerprint(output) == placed)
        #expect(try home.sessionsJSON().count == 1)
        #expect(!FileManager.default.fileExists(atPath: folder))

        // …and into a library that does not have it yet: registered from the placed file.
        try FileManager.default.copyItem(atPath: keep, toPath: folder)
        let other = dir.path("other.sqlite")
        let third = try home.reel(["recover", "--library", other])
        #expect(third.status == 0 && third.stdout.contains("session added"), "\(third.stdout)\(third.stderr)")
        #expect(try fingerprint(output) == placed)
        let listed = try home.reel(["sessions", "--library", other])
        #expect(listed.stdout.contains("full (recovered)") == false && listed.stdout.contains("Crash 4.5") && listed.stdout.contains(output), "\(listed.stdout)")
    }

    @Test("bad input: a damaged checkpoint is named and left as it is; an unusable library stops recover and record before anything changes")
    func badInput() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/damaged.mp4")
        let (folder, _, _) = try await home.killedRecording(after: 3, output: output)
        let checkpoint = folder + "/checkpoint.json", video = folder + "/recording.mp4"
        let videoBytes = try Data(contentsOf: URL(fileURLWithPath: video))

        // An unusable library: nothing touched.
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir.path("afile")))
        let noLibrary = try home.reel(["recover", "--library", dir.path("afile/library.sqlite")])
        #expect(noLibrary.status == 1 && noLibrary.stderr.contains(dir.path("afile/library.sqlite")) && noLibrary.stderr.contains("no recording was touched"),
                "\(noLibrary.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == videoBytes)

        // A damaged checkpoint: a clear message naming the folder; every byte stays.
        let damaged = Data(#"{"version": 1, "id": "not-a-uuid"#.utf8)
        try damaged.write(to: URL(fileURLWithPath: checkpoint))
        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 1, "\(recover.stdout)")
        #expect(recover.stderr.contains("FAILED \(folder)") && recover.stderr.contains("checkpoint") && recover.stderr.contains("left as it is"), "\(recover.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: checkpoint)) == damaged)
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == videoBytes)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("Reel: a study recording in progress"),
                "the output is still the recording's placeholder, not a video")
        #expect(try home.sessionsJSON().isEmpty)

        // reel record with an unusable library: refused before recording.
        let record = try home.reel(["record", "--source", "test", "--mode", "timelapse", "--duration", "3",
                                    "--output", dir.path("out/never.mp4"), "--library", dir.path("afile/library.sqlite")])
        #expect(record.status == 1 && record.stderr.contains("cannot use the library") && record.stderr.contains("nothing was recorded"), "\(record.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out/never.mp4")))
        let name = (folder as NSString).lastPathComponent
        #expect(files(below: home.state) == [name, name + "/checkpoint.json", name + "/faces.log", name + "/recording.mp4"])
    }

    @Test("a recording still running is skipped by reel recover (its recorder holds the folder) and finishes normally")
    func runningRecordingIsLeftAlone() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let output = dir.path("out/running.mp4")
        let process = try BackgroundProcess(try ReelBinary.path(),
                                            ["record", "--source", "test", "--mode", "full", "--canvas", "1280x720", "--quiet",
                                             "--output", output, "--library", home.library], environment: home.environment)
        _ = try await eventually("the recording's checkpoint", within: 30) { home.recording() }
        let recover = try home.reel(["recover", "--library", home.library])
        #expect(recover.status == 0 && recover.stdout.contains("skipped") && recover.stdout.contains("still writing"), "\(recover.stdout)\(recover.stderr)")
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("Reel: a study recording in progress"),
                "only the running recording's placeholder is at the output")
        process.send(SIGINT)
        let result = await process.wait(timeout: .seconds(30))
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try VideoInspection.decodeErrors(of: output) == "")
        let sessions = try home.sessionsJSON()
        #expect(sessions.count == 1 && sessions.first?["recovered"] as? Bool == false)
        #expect(files(below: home.state).isEmpty)
    }

    @Test("a second reel record while one runs says so at its start (stats count the overlap once), and both finish")
    func twoAtOnce() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        let first = try BackgroundProcess(try ReelBinary.path(),
                                          ["record", "--source", "test:320x240@10", "--mode", "timelapse", "--interval", "1", "--quiet", "--no-faces",
                                           "--no-keep-awake", "--output", dir.path("first.mp4"), "--library", home.library],
                                          environment: home.environment)
        // Wait (bounded) until the first one's work folder has its checkpoint: it is running.
        var running = false
        for _ in 0..<600 where !running {
            let folders = (try? FileManager.default.contentsOfDirectory(atPath: home.state)) ?? []
            running = folders.contains { FileManager.default.fileExists(atPath: home.state + "/" + $0 + "/checkpoint.json") }
            if !running { try await Task.sleep(for: .milliseconds(50)) }
        }
        #expect(running, "the first recording never wrote its checkpoint")
        let second = try home.reel(["record", "--source", "test:320x240@10", "--mode", "timelapse", "--interval", "1", "--duration", "1",
                                    "--quiet", "--no-faces", "--no-keep-awake", "--output", dir.path("second.mp4"), "--library", home.library])
        #expect(second.status == 0, "\(second.stderr)")
        #expect(second.stderr.contains("warning: another reel record is running (session ") && second.stderr.contains("into \(dir.path("first.mp4"))"),
                "\(second.stderr)")
        first.send(SIGINT)
        let ended = await first.wait(timeout: .seconds(30))
        #expect(ended.status == 0 && !ended.stderr.contains("another reel record"), "\(ended.stderr)")
        #expect(try home.sessionsJSON().count == 2)
    }

    @Test("reel record registers the session on finish; reel sessions shows it as a table and as JSON with every field")
    func sessions() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let home = Home(dir: dir)
        // Reading a library that does not exist creates nothing.
        let empty = try home.reel(["sessions", "--library", home.library])
        #expect(empty.status == 1 && empty.stderr.contains("does not exist (nothing was created)"), "\(empty.stderr)")
        #expect(!FileManager.default.fileExists(atPath: home.library))
        let output = dir.path("out/lapse.mp4")
        let record = try home.reel(["record", "--source", "test", "--mode", "timelapse", "--interval", "1", "--duration", "3", "--quiet",
                                    "--title", "Organic chemistry", "--tag", "exam", "--tag", "chem", "--output", output, "--library", home.library])
        #expect(record.status == 0, "\(record.stderr)")
        let table = try home.reel(["sessions", "--library", home.library])
        let lines = table.stdout.split(separator: "\n")
        #expect(lines.count == 2 && lines[0].hasPrefix("DATE") && lines[1].contains("timelapse 1 s") && lines[1].contains("Organic chemistry")
                && lines[1].contains("exam,chem") && lines[1].hasSuffix(output), "\(table.stdout)")
        let session = try #require(try home.sessionsJSON().first)
        #expect(Set(session.keys) == ["id", "startedAt", "endedAt", "activeSeconds", "videoSeconds", "mode", "intervalSeconds", "filePath",
                                      "thumbnailPath", "faceTrackPath", "title", "tags", "recovered", "load"])
        #expect(session["intervalSeconds"] as? Double == 1 && session["recovered"] as? Bool == false)
        let load = try #require(session["load"] as? [String: Any], "measured for a recorded session")
        #expect(Set(load.keys) == ["cpuShare", "peakCelsius", "easedSeconds", "reducedSeconds", "reasons"])
        #expect(session["thumbnailPath"] as? String == dir.path("out/lapse.jpg"))
        #expect((2.5...3.1).contains(session["activeSeconds"] as? Double ?? 0))
        #expect(files(below: home.state).isEmpty)
        // The default library (in the XDG data folder) not made yet reads as empty and is not created.
        let defaults = try home.reel(["sessions"])
        #expect(defaults.status == 0 && defaults.stdout.contains("no sessions yet"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("data/reel/library.sqlite")))
    }
}
