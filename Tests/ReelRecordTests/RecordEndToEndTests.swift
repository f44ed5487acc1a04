import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// `reel record`, the real binary, in real time (the acceptance test): a pause script in both
/// modes (12 s paused from 4 s to 8 s; the 24 s acceptance script, paused from 8 s to 14 s, in
/// the long tier), SIGUSR1 and SIGINT, and bad input. The test source is
/// 1280x720@30 and draws each frame's number into the picture, so the output tells exactly
/// which captured frames it holds.
@Suite("reel record end to end", .serialized)
struct RecordEndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
        /// Capture seconds of the pause and of the resume, from the state lines.
        var pausedAt: Double?, resumedAt: Double?
        /// From the summary.
        var activeSeconds: Double?, wallSeconds: Double?, frames: Int?

        init(_ result: (status: Int32, stdout: String, stderr: String, timedOut: Bool)) {
            status = result.status
            stdout = result.stdout
            stderr = result.stderr
            func number(after marker: String, in line: Substring) -> Double? {
                guard let range = line.range(of: marker) else { return nil }
                return Double(line[range.upperBound...].prefix { $0.isNumber || $0 == "." })
            }
            for line in stdout.split(separator: "\n") {
                if line.hasPrefix("state: paused") { pausedAt = number(after: "at capture ", in: line) }
                if line.hasPrefix("state: recording (resumed)") { resumedAt = number(after: "at capture ", in: line) }
                if line.contains(" frames, video ") {
                    activeSeconds = number(after: "active ", in: line)
                    wallSeconds = number(after: "wall ", in: line)
                    frames = number(after: ": ", in: line).map { Int($0) }
                }
            }
        }
    }

    func environment(_ dir: TemporaryDirectory) -> [String: String] {
        ["XDG_STATE_HOME": dir.path("state"), "XDG_DATA_HOME": dir.path("data"), "REEL_MODELS_DIR": TestModels.folder]
    }

    /// Runs `reel record` with `arguments`; `script` acts on it while it runs.
    func record(_ arguments: [String], in dir: TemporaryDirectory,
                script: (BackgroundProcess) async throws -> Void = { _ in }) async throws -> Run {
        let process = try BackgroundProcess(try ReelBinary.path(), ["record"] + arguments, environment: environment(dir),
                                            standardInput: true)
        try await script(process)
        let result = await process.wait(timeout: .seconds(90))
        #expect(!result.timedOut, "reel record did not finish")
        return Run(result)
    }

    /// A pause script: pause (stdin) `pauseAt` s after the launch, resume `pauseLength` s later,
    /// the run ends by `--duration`.
    struct Script: Sendable {
        var duration: Int, pauseAt: Int, pauseLength: Int
        /// The default tier's: 12 s paused from 4 s to 8 s. The same rules as the acceptance script
        /// (frames before, during and after a pause of several timelapse intervals), in half the time.
        static let short = Script(duration: 12, pauseAt: 4, pauseLength: 4)
        /// The acceptance script, 24 s paused from 8 s to 14 s (long tier: the same rules at its
        /// full size).
        static let issue = Script(duration: 24, pauseAt: 8, pauseLength: 6)
        /// Seconds of capture that are recorded.
        var activeSeconds: Int { duration - pauseLength }

        func run(_ process: BackgroundProcess) async throws {
            // The script is the scenario: real seconds of capture before and during the pause.
            try await Task.sleep(for: .seconds(pauseAt))
            process.send(line: "pause")
            try await Task.sleep(for: .seconds(pauseLength))
            process.send(line: "resume")
        }
    }

    /// Fragments (`moof` boxes) the recordings in progress under `dir` have on disk.
    func fragmentsWritten(_ dir: TemporaryDirectory) -> Int {
        let state = dir.path("state/reel/recordings")
        let moof = Data("moof".utf8)
        return ((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []).reduce(0) { count, name in
            guard let data = FileManager.default.contents(atPath: state + "/" + name + "/recording.mp4") else { return count }
            var found = count, from = data.startIndex
            while let range = data.range(of: moof, in: from..<data.endIndex) { found += 1; from = range.upperBound }
            return found
        }
    }

    /// Whether a recording under `dir` has its work folder's checkpoint: it runs.
    func recordingRuns(_ dir: TemporaryDirectory) -> Bool {
        let state = dir.path("state/reel/recordings")
        return ((try? FileManager.default.contentsOfDirectory(atPath: state)) ?? []).contains {
            FileManager.default.fileExists(atPath: state + "/" + $0 + "/checkpoint.json")
        }
    }

    /// Files left anywhere below `folder`.
    func files(below folder: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return [] }
        return walker.compactMap { $0 as? String }.filter { path in
            var isFolder: ObjCBool = false
            _ = FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &isFolder)
            return !isFolder.boolValue
        }
    }

    /// Checks common to every finished recording: moov before mdat, decodes cleanly, the
    /// thumbnail and face track beside it, no recording in progress left.
    func checkFinished(_ output: String, in dir: TemporaryDirectory) throws {
        let boxes = try VideoInspection.boxes(of: output)
        let moov = try #require(boxes.firstIndex(of: "moov")), mdat = try #require(boxes.firstIndex(of: "mdat"))
        #expect(moov < mdat, "moov first: \(boxes)")
        #expect(!boxes.contains("moof"))
        #expect(try VideoInspection.decodeErrors(of: output) == "", "plays in ffmpeg without errors")
        let base = (output as NSString).deletingPathExtension
        #expect(FileManager.default.fileExists(atPath: base + ".jpg"))
        // The test pattern shows nobody: the tracker never finds a face, so every sample covers
        // the default top region (kind 3), as docs/behaviour.md §1 says for a face not seen yet.
        let track = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: base + ".faces.json"))) as? [String: Any]
        let samples = try #require(track?["samples"] as? [[Int]])
        #expect(!samples.isEmpty && samples.allSatisfy { $0[2] == 3 }, "\(samples.prefix(3))")
        #expect(files(below: dir.path("state")).isEmpty, "the recording in progress is gone: \(files(below: dir.path("state")))")
    }

    /// The recorder's own account of the pause, as frame numbers: the last frame it saw before
    /// the pause and the last one it saw while paused (the test source's frame n is captured at
    /// n/30 s).
    func pauseFrames(_ run: Run) throws -> (paused: Int, resumed: Int) {
        let paused = try #require(run.pausedAt, "\(run.stdout)"), resumed = try #require(run.resumedAt, "\(run.stdout)")
        return (Int((paused * 30).rounded()), Int((resumed * 30).rounded()))
    }

    /// No captured frame between the pause and the resume is in the video: frames up to the
    /// last one seen before the pause may be, frames after it up to the last one seen before
    /// the resume may not. The pause is the recorder's own (its state lines), never the
    /// script's clock: how late a command arrives on a busy machine is no rule.
    func checkNothingFromThePause(_ indices: [Int], _ run: Run) throws {
        let (p, r) = try pauseFrames(run)
        #expect(r > p, "the recorder saw capture go on while paused: frames \(p)…\(r)")
        let inside = indices.filter { $0 > p && $0 <= r }
        #expect(inside.isEmpty, "frames \(inside) were captured during the pause (\(p)…\(r))")
        #expect(indices.contains { $0 <= p } && indices.contains { $0 > r }, "frames from before and after the pause")
    }

    /// Full mode: every captured frame is in the video except those of the pause, and the one
    /// gap is the pause the recorder reported: from the frame after the last one it saw before
    /// the pause to the last one it saw while paused (a frame either side for the rounding of
    /// its three decimals).
    func checkTheGapIsThePause(_ indices: [Int], _ run: Run) throws {
        let (p, r) = try pauseFrames(run)
        let jumps = zip(indices, indices.dropFirst()).filter { $1 - $0 != 1 }
        #expect(jumps.count == 1, "every captured frame except the pause: \(jumps)")
        if let (before, after) = jumps.first {
            #expect(abs(before - p) <= 1 && abs(after - (r + 1)) <= 1, "the video lacks frames \(before + 1)…\(after - 1), the recorder paused for \(p + 1)…\(r)")
        }
    }

    @Test("timelapse, interval 1 s, 12 s paused from 4 s to 8 s: 7–10 frames at 10 fps, none from the pause, ≥ 1 s of capture apart")
    func timelapse() async throws {
        try await timelapse(.short)
    }

    @Test("timelapse, the 24 s acceptance script paused from 8 s to 14 s: 17–20 frames (long tier: make test-long)",
          .longTier)
    func timelapseIssueScriptLongTier() async throws {
        try await timelapse(.issue)
    }

    /// One frame a second of active capture, give or take the first and the pause's edges:
    /// from one under to two over the active seconds (17–20 for the acceptance script's 18 s).
    func timelapse(_ script: Script) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let output = dir.path("out/timelapse.mp4")
        let run = try await record(["--source", "test", "--mode", "timelapse", "--interval", "1", "--duration", String(script.duration),
                                    "--output", output], in: dir, script: script.run)
        #expect(run.status == 0, "\(run.stderr)")
        let frames = try #require(run.frames, "\(run.stdout)")
        #expect((script.activeSeconds - 1...script.activeSeconds + 2).contains(frames), "\(frames) frames for \(script.activeSeconds) s of capture")
        let packets = try VideoInspection.packets(of: output)
        #expect(packets.count == frames)
        #expect(packets.map(\.pts) == (0..<frames).map { Double($0) / 10 }, "frame k at k/10 s")
        #expect(abs(try VideoInspection.duration(of: output) - Double(frames) / 10) < 0.011)
        let indices = try VideoInspection.frameIndices(of: output, width: 1280, height: 720)
        #expect(indices.count == frames)
        for (a, b) in zip(indices, indices.dropFirst()) { #expect(b - a >= 30, "frames \(a) and \(b) are less than 1 s apart") }
        try checkNothingFromThePause(indices, run)
        let active = try #require(run.activeSeconds)
        #expect(abs(active - (Double(script.duration) - (run.resumedAt! - run.pausedAt!))) < 0.1, "active \(active) s")
        try checkFinished(output, in: dir)
    }

    @Test("full mode, the same 12 s script: duration = active time ± 1 frame, strictly increasing timestamps, nothing from the pause")
    func full() async throws {
        try await full(.short)
    }

    @Test("full mode, the 24 s acceptance script (long tier: make test-long)", .longTier)
    func fullIssueScriptLongTier() async throws {
        try await full(.issue)
    }

    func full(_ script: Script) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let output = dir.path("out/full.mp4")
        let run = try await record(["--source", "test", "--mode", "full", "--canvas", "1280x720", "--duration", String(script.duration),
                                    "--output", output], in: dir, script: script.run)
        #expect(run.status == 0, "\(run.stderr)")
        let active = try #require(run.activeSeconds, "\(run.stdout)")
        let duration = try VideoInspection.duration(of: output)
        #expect(abs(duration - active) <= 1.0 / 30 + 0.002, "video \(duration) s against \(active) s of active time")
        let pts = try VideoInspection.packets(of: output).map(\.pts)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 > $0 }, "strictly increasing")
        let indices = try VideoInspection.frameIndices(of: output, width: 1280, height: 720)
        #expect(indices.count == pts.count && indices.count == run.frames)
        try checkTheGapIsThePause(indices, run)
        try checkNothingFromThePause(indices, run)
        #expect(abs(Double(indices.count) / 30 - active) < 0.1)
        try checkFinished(output, in: dir)
    }

    @Test("a hot machine reduces a full recording and the session says so; the machine is kept awake until reel ends, even when it is killed")
    func heatAndKeepAwake() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // A hot thermal zone, laid out as /sys/class/thermal shows it.
        let zone = dir.path("thermal/thermal_zone0")
        try FileManager.default.createDirectory(atPath: zone, withIntermediateDirectories: true)
        for (name, value) in [("type", "x86_pkg_temp"), ("temp", "95000"), ("trip_point_0_type", "passive"), ("trip_point_0_temp", "90000")] {
            try "\(value)\n".write(toFile: zone + "/" + name, atomically: true, encoding: .utf8)
        }
        // systemd-inhibit as it behaves with logind: runs the program it is given (Reel's `cat`)
        // for as long as it runs; this one also notes its pid.
        let bin = dir.path("bin")
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        let pidFile = dir.path("inhibitor.pid")
        try """
            #!/bin/sh
            echo "$*" > "\(pidFile).args"
            while [ "${1#--}" != "$1" ]; do shift; done
            echo $$ > "\(pidFile).tmp" && mv "\(pidFile).tmp" "\(pidFile)"
            exec "$@"

            """.write(toFile: bin + "/systemd-inhibit", atomically: true, encoding: .utf8)
        chmod(bin + "/systemd-inhibit", 0o755)
        var environment = environment(dir)
        environment["REEL_THERMAL_FOLDER"] = dir.path("thermal")
        environment["PATH"] = bin + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        func inhibitorPID() async throws -> Int32 {
            for _ in 0..<50 {
                if let text = try? String(contentsOfFile: pidFile, encoding: .utf8), let pid = Int32(text.trimmingCharacters(in: .whitespacesAndNewlines)) {
                    return pid
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: pidFile])
        }
        func isAlive(_ pid: Int32) -> Bool {
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
        }
        func waitGone(_ pid: Int32) async throws -> Bool {
            for _ in 0..<30 where isAlive(pid) { try await Task.sleep(for: .milliseconds(100)) }
            return !isAlive(pid)
        }

        // 1. A finished recording on a hot machine.
        let library = dir.path("lib.sqlite"), output = dir.path("out/hot.mp4")
        let process = try BackgroundProcess(try ReelBinary.path(), ["record", "--source", "test", "--mode", "full", "--canvas", "1280x720",
                                                                    "--duration", "6", "--output", output, "--library", library],
                                            environment: environment)
        let first = try await inhibitorPID()
        _ = try await eventually("a fragment recorded while kept awake", within: 30) { fragmentsWritten(dir) >= 1 ? true : nil }
        #expect(isAlive(first), "the machine is kept awake while recording")
        #expect(try String(contentsOfFile: pidFile + ".args", encoding: .utf8).hasPrefix("--what=sleep:idle --mode=block --who=Reel"))
        let run = Run(await process.wait(timeout: .seconds(60)))
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stderr.contains("warning: load: reduced (hot: x86_pkg_temp at 95 °C, limit 90 °C)"), "\(run.stderr)")
        #expect(run.stdout.contains("eased for heat or load:") && run.stdout.contains("frames left out on purpose"), "\(run.stdout)")
        #expect(try await waitGone(first), "released when reel ends")
        let sessions = try ReelBinary.run(["sessions", "--json", "--library", library])
        let json = try #require(JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [[String: Any]])
        let load = try #require(json.first?["load"] as? [String: Any], "\(sessions.stdout)")
        #expect(load["reasons"] as? [String] == ["hot"] && load["peakCelsius"] as? Double == 95)
        // Hot from the start: reduced from the first frame to the end, the recorder's whole wall time.
        let wall = try #require(run.wallSeconds, "\(run.stdout)")
        #expect(wall >= 6 && abs((load["reducedSeconds"] as? Double ?? 0) - wall) <= 0.002, "\(load) for \(wall) s")
        #expect(abs(try VideoInspection.duration(of: output) - (run.activeSeconds ?? 0)) <= 1.0 / 30 + 0.002, "still the study time")

        // 2. Killed: the pipe to the inhibitor closes with reel, so the lock goes too.
        try FileManager.default.removeItem(atPath: pidFile)
        let killed = try BackgroundProcess(try ReelBinary.path(), ["record", "--source", "test", "--mode", "timelapse", "--quiet",
                                                                   "--output", dir.path("out/killed.mp4"), "--library", library],
                                           environment: environment)
        let second = try await inhibitorPID()
        _ = try await eventually("the killed recording running", within: 30) { recordingRuns(dir) ? true : nil }
        #expect(isAlive(second))
        killed.send(SIGKILL)
        _ = await killed.wait(timeout: .seconds(10))
        #expect(try await waitGone(second), "no process is left keeping the machine awake after a crash")
    }

    @Test("face tracking while recording: the positions of a face on the desk are stored (kind face, the box over it), and reel export hides it")
    func faceTracking() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // The astronaut photo at 400 x 400 on a grey desk with fine noise, 4 s.
        let clip = dir.path("desk.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=gray:s=1280x720:r=30:d=4", "-loop", "1", "-i", TestPhotos.astronautPath,
                                                 "-filter_complex", "[1:v]scale=400:400[p];[0:v][p]overlay=440:160:shortest=1,noise=alls=20:allf=u,format=yuv420p",
                                                 "-t", "4", "-c:v", "libx264", "-crf", "16", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let scale = 400.0 / 512
        let face = NormalizedRect(x: (440 + TestPhotos.astronautFace.x * scale) / 1280, y: (160 + TestPhotos.astronautFace.y * scale) / 720,
                                  width: TestPhotos.astronautFace.width * scale / 1280, height: TestPhotos.astronautFace.height * scale / 720)
        let output = dir.path("out/desk.mp4"), library = dir.path("lib.sqlite")
        let run = try await record(["--source", "file:" + clip, "--mode", "full", "--canvas", "1280x720", "--quiet", "--no-keep-awake",
                                    "--output", output, "--library", library], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let track = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir.path("out/desk.faces.json")))) as? [String: Any]
        let samples = try #require(track?["samples"] as? [[Int]])
        // One every 0.2 s of 4 s; a busy machine eases the recorder (analysis every 0.4 s eased,
        // every 1 s reduced), which the session's own account of its load says.
        let recorded = try #require((try JSONSerialization.jsonObject(with: Data(try ReelBinary.run(["sessions", "--json", "--library", library]).stdout.utf8))
            as? [[String: Any]])?.first)
        let load = recorded["load"] as? [String: Any] ?? [:]
        let eased = min(4, load["easedSeconds"] as? Double ?? 0), reduced = min(4 - eased, load["reducedSeconds"] as? Double ?? 0)
        let expected = Int(((4 - eased - reduced) / 0.2 + eased / 0.4 + reduced / 1.0).rounded())
        #expect((expected - 2...expected + 1).contains(samples.count), "\(expected) expected for 4 s with \(load): \(samples.count)")
        #expect(samples.allSatisfy { $0[2] == 0 }, "a face all along: \(samples.prefix(3))")
        for sample in samples {
            let box = NormalizedRect(x: Double(sample[3]) / 10_000, y: Double(sample[4]) / 10_000, width: Double(sample[5]) / 10_000, height: Double(sample[6]) / 10_000)
            #expect(box.x <= face.x && box.y <= face.y + 0.01 && box.x + box.width >= face.x + face.width && box.y + box.height >= face.y + face.height,
                    "the stored box \(box) covers the face \(face)")
            #expect(box.width * box.height < 4 * face.width * face.height, "and not much more: \(box)")
        }
        // Exported: the face is hidden, the desk is not.
        let sessions = try ReelBinary.run(["sessions", "--json", "--library", library])
        let id = try #require((try JSONSerialization.jsonObject(with: Data(sessions.stdout.utf8)) as? [[String: Any]])?.first?["id"] as? String)
        let export = try ReelBinary.run(["export", id, "-o", dir.path("share.mp4"), "--size", "source", "--library", library])
        #expect(export.status == 0, "\(export.stderr)")
        func gray(_ path: String) throws -> Data {
            try VideoInspection.output("ffmpeg", ["-v", "error", "-ss", "2", "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        }
        let (a, b) = (try gray(output), try gray(dir.path("share.mp4")))
        func difference(_ r: NormalizedRect) -> Double {
            var sum = 0, count = 0
            for y in Int(r.y * 720)..<Int((r.y + r.height) * 720) {
                for x in Int(r.x * 1280)..<Int((r.x + r.width) * 1280) { sum += abs(Int(a[y * 1280 + x]) - Int(b[y * 1280 + x])); count += 1 }
            }
            return Double(sum) / Double(max(count, 1))
        }
        let inner = NormalizedRect(x: face.x + face.width / 4, y: face.y + face.height / 4, width: face.width / 2, height: face.height / 2)
        let desk = NormalizedRect(x: 0.02, y: 0.1, width: 0.25, height: 0.8)
        #expect(difference(inner) > 3 * max(difference(desk), 1), "face \(difference(inner)) vs desk \(difference(desk))")
    }

    @Test("SIGUSR1 toggles pause; SIGINT finishes with a playable file")
    func signals() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let output = dir.path("out/signals.mp4")
        let process = try LineWatchedProcess(try ReelBinary.path(), ["record", "--source", "test", "--mode", "full", "--canvas", "1280x720",
                                                                     "--output", output], environment: environment(dir))
        _ = try await eventually("a fragment before the pause", within: 30) { fragmentsWritten(dir) >= 1 ? true : nil }
        process.send(SIGUSR1)
        let pausedLine = await process.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("state: paused") }
        try #require(pausedLine != nil, "SIGUSR1 pauses: \(process.linesSoFar)")
        // The pause is the scenario: real capture goes on while paused, and is left out.
        try await Task.sleep(for: .seconds(2))
        process.send(SIGUSR1)
        let resumedWith = fragmentsWritten(dir)
        let resumedLine = await process.waitForLine(timeout: .seconds(30)) { $0.hasPrefix("state: recording (resumed)") }
        try #require(resumedLine != nil, "SIGUSR1 again resumes: \(process.linesSoFar)")
        _ = try await eventually("a fragment after the resume", within: 30) { fragmentsWritten(dir) > resumedWith ? true : nil }
        process.send(SIGINT)
        let ended = await process.wait(timeout: .seconds(90))
        #expect(!ended.timedOut, "reel record did not finish")
        let run = Run((ended.status, ended.stdout, ended.stderr, ended.timedOut))
        #expect(run.status == 0, "\(run.stderr)")
        // Paused time is left out: the video lacks exactly the frames the recorder says it
        // paused for, and lasts the active time it reports.
        let indices = try VideoInspection.frameIndices(of: output, width: 1280, height: 720)
        try checkTheGapIsThePause(indices, run)
        try checkNothingFromThePause(indices, run)
        #expect(abs(try VideoInspection.duration(of: output) - (run.activeSeconds ?? 0)) <= 1.0 / 30 + 0.002)
        try checkFinished(output, in: dir)
    }

    @Test("disk: --min-hours 100000 is refused with the numbers, nothing created; on a real 40 MB tmpfs the default refuses, and with --min-hours 0 the floor stops the recording, finished and playable")
    func disk() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // No disk holds 100000 hours: exit 1, the numbers, what to do, nothing made.
        let out = dir.path("data/deep/out.mp4")
        let refused = try ReelBinary.run(["record", "--source", "test", "--mode", "full", "--min-hours", "100000", "--output", out,
                                          "--library", dir.path("lib.sqlite")], environment: environment(dir))
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(refused.stderr.contains("not enough free disk space for 100000 h of recording (--min-hours)"), "\(refused.stderr)")
        #expect(refused.stderr.range(of: #"GB free, needs 4\.50 GB an hour, [0-9.]+ h fit"#, options: .regularExpression) != nil, "\(refused.stderr)")
        #expect(refused.stderr.contains("--min-hours 0") && refused.stderr.contains("nothing was recorded"), "\(refused.stderr)")
        #expect(files(below: dir.url.path).filter { !$0.hasPrefix("lib.sqlite") }.isEmpty, "nothing created: \(files(below: dir.url.path))")
        #expect(!FileManager.default.fileExists(atPath: dir.path("data/deep")) && !FileManager.default.fileExists(atPath: dir.path("state/reel")))

        // A real 40 MB tmpfs, mounted in a private mount namespace (gone with the shell): the
        // output, the work folder and the library on it. The finished files are copied out
        // before the namespace ends.
        let mountPoint = dir.path("disk"), copy = dir.path("copy")
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: true)
        let script = #"""
            mount -t tmpfs -o size=40m reel-test-disk "$0" || exit 97
            export XDG_STATE_HOME="$0/state" XDG_DATA_HOME="$0/data"
            "$1" record --source test --mode full --output "$0/out/study.mp4" --library "$0/lib.sqlite" --duration 20 --quiet
            echo "refused-exit=$?"; echo "after-refusal: [$(ls -A "$0")]"
            "$1" record --source test --mode full --min-hours 0 --output "$0/out/study.mp4" --library "$0/lib.sqlite" --duration 20 --quiet
            rc=$?
            cp -r "$0/out" "$2/" 2>/dev/null
            echo "state-left: [$(ls -A "$0/state/reel/recordings")]"
            exit $rc
            """#
        let result = try Subprocess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script,
                                                           mountPoint, try ReelBinary.path(), copy])
        try #require(result.status != 97 && !result.stderr.contains("unshare:"),
                     "could not mount a tmpfs in a private mount namespace (\(result.stderr)); this test needs root (or CAP_SYS_ADMIN) and util-linux's unshare")
        // The default --min-hours 1 refuses on 40 MB, showing them; nothing was made on it.
        #expect(result.stdout.contains("refused-exit=1"), "\(result.stdout)")
        #expect(result.stderr.range(of: #"4[0-9]\.[0-9]{2} MB free, needs 4\.50 GB an hour, 0\.0 h fit"#, options: .regularExpression) != nil, "\(result.stderr)")
        #expect(result.stdout.contains("after-refusal: []"), "nothing on the disk after the refusal: \(result.stdout)")
        // With --min-hours 0 it records, and the floor (1 GiB: 40 MB is under it) stops it at the
        // first check, about 2 s in: exit 1, finished, playable, the summary naming the disk.
        #expect(result.status == 1, "\(result.stdout)\n\(result.stderr)")
        #expect(result.stderr.contains("warning: stopping: disk almost full: \(mountPoint)/out (the output and the work folder)"), "\(result.stderr)")
        #expect(result.stderr.contains("recorded: \(mountPoint)/out/study.mp4"), "\(result.stderr)")
        #expect(result.stderr.range(of: #"stopped: disk almost full: .* MB free, under the floor of 1 GiB .*; the recording is finished and kept"#,
                                    options: .regularExpression) != nil, "\(result.stderr)")
        #expect(result.stdout.contains("state-left: []"), "the recording in progress is gone: \(result.stdout)")
        let output = copy + "/out/study.mp4"
        let seconds = try VideoInspection.duration(of: output)
        #expect(seconds > 1 && seconds < 6, "stopped by the floor, not the 20 s duration: \(seconds) s")
        #expect(try VideoInspection.decodeErrors(of: output) == "", "plays in ffmpeg without errors")
        let boxes = try VideoInspection.boxes(of: output)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")! && !boxes.contains("moof"), "\(boxes)")
        #expect(FileManager.default.fileExists(atPath: copy + "/out/study.jpg"))
    }

    @Test("bad input: a clear message, exit 64 for the command line and 1 for the machine, nothing half-written left behind")
    func badInput() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        func reel(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(["record"] + arguments, environment: environment(dir))
        }
        let out = dir.path("data/out.mp4")
        let unknown = try reel(["--source", "webcam", "--mode", "timelapse", "--output", out])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--source") && unknown.stderr.contains("unknown kind of source"), "\(unknown.stderr)")
        let noMode = try reel(["--source", "test"])
        #expect(noMode.status == 64 && noMode.stderr.contains("--mode"), "\(noMode.stderr)")
        let zero = try reel(["--source", "test", "--mode", "timelapse", "--interval", "0", "--output", out])
        #expect(zero.status == 64 && zero.stderr.contains("more than 0 s"), "\(zero.stderr)")
        let intervalInFull = try reel(["--source", "test", "--mode", "full", "--interval", "5", "--output", out])
        #expect(intervalInFull.status == 64 && intervalInFull.stderr.contains("timelapse only"), "\(intervalInFull.stderr)")
        let mov = try reel(["--source", "test", "--mode", "full", "--output", dir.path("x.mov")])
        #expect(mov.status == 64 && mov.stderr.contains(".mp4"), "\(mov.stderr)")
        let missing = try reel(["--source", "file:" + dir.path("nope.mp4"), "--mode", "full", "--output", out])
        #expect(missing.status == 1)
        #expect(missing.stderr.contains("no such file") && missing.stderr.contains("nothing was recorded"), "\(missing.stderr)")
        // Unwritable outputs, checked before capturing.
        try Data("a file".utf8).write(to: URL(fileURLWithPath: dir.path("afile")))
        let notAFolder = try reel(["--source", "test", "--mode", "timelapse", "--output", dir.path("afile/out.mp4"), "--duration", "5"])
        #expect(notAFolder.status == 1 && notAFolder.stderr.contains("Not a directory"), "\(notAFolder.stderr)")
        let proc = try reel(["--source", "test", "--mode", "timelapse", "--output", "/proc/reel-\(UUID().uuidString)/out.mp4", "--duration", "5"])
        #expect(proc.status == 1 && proc.stderr.contains("cannot record there"), "\(proc.stderr)")
        if getuid() != 0 {
            try FileManager.default.createDirectory(atPath: dir.path("locked"), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o555])
            let locked = try reel(["--source", "test", "--mode", "timelapse", "--output", dir.path("locked/out.mp4"), "--duration", "5"])
            #expect(locked.status == 1 && locked.stderr.contains("Permission denied"), "\(locked.stderr)")
        }
        // An existing output is never replaced.
        try FileManager.default.createDirectory(atPath: dir.path("data"), withIntermediateDirectories: true)
        try Data("precious".utf8).write(to: URL(fileURLWithPath: out))
        let exists = try reel(["--source", "test", "--mode", "timelapse", "--output", out, "--duration", "5"])
        #expect(exists.status == 1 && exists.stderr.contains("already exists"), "\(exists.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: out)) == Data("precious".utf8))
        #expect(files(below: dir.path("data")) == ["out.mp4"], "nothing half-written: \(files(below: dir.path("data")))")
        #expect(files(below: dir.path("state")).isEmpty, "\(files(below: dir.path("state")))")
    }
}
