import Foundation
import ReelCore
import ReelTestSupport
import Synchronization
import Testing
import ReelRuntime
@testable import ReelMedia
@testable import ReelRecord

/// The recorder pipeline in process, driven by scripted sources: what reaches the file, the
/// face track, checkpoints, interruptions, and the checks before anything is recorded.
@Suite("Study recorder", .serialized)
struct StudyRecorderTests {
    let quickReopen = RetryPolicy(quickDelays: [MediaTime(seconds: 0.01)], backoffInitial: MediaTime(seconds: 0.01),
                                  backoffCap: MediaTime(seconds: 0.02))

    func settings(_ dir: TemporaryDirectory, mode: RecordingMode, source: SourceSpec = .file(path: "scripted"),
                  interval: Double = 1) -> RecordSettings {
        var settings = RecordSettings(source: source, mode: mode, interval: MediaTime(seconds: interval), canvas: .hd720,
                                      title: "Test", tags: ["a", "b"], outputPath: dir.path("out/study.mp4"),
                                      stateFolder: dir.path("state"))
        settings.reopenPolicy = quickReopen
        return settings
    }

    @Test("timelapse: one frame per second of capture at k/10 s, moov first, thumbnail, face samples on every frame; the work folder is gone")
    func timelapse() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let base = MonotonicClock.now()
        let opener = SourceOpener([.success(ScriptedSource([.frames(from: 0, to: 300, at: 0)], base: base))])
        let tracker = CentreFaceTracker()
        let s = settings(dir, mode: .timelapse)
        let recorder = try StudyRecorder(settings: s, reporter: CollectingReporter(), tracker: { tracker }, openSource: opener.open)
        let report = await recorder.run()
        #expect(report.succeeded, "\(report)")
        #expect(report.framesWritten == 10)
        #expect(abs(report.videoSeconds - 1.0) < 0.001)
        #expect(abs(report.activeSeconds - 299.0 / 30) < 0.001)
        let output = try #require(report.outputPath)
        #expect(try VideoInspection.frameIndices(of: output, width: 320, height: 180) == Array(stride(from: 0, to: 300, by: 30)))
        let packets = try VideoInspection.packets(of: output)
        #expect(packets.map(\.pts) == (0..<10).map { Double($0) / 10 })
        #expect(packets.first?.key == true)
        let boxes = try VideoInspection.boxes(of: output)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")!, "\(boxes)")
        #expect(!boxes.contains("moof"), "a normal MP4, not fragmented: \(boxes)")
        #expect(try VideoInspection.decodeErrors(of: output).isEmpty)
        let metadata = try VideoInspection.output("ffprobe", ["-v", "error", "-show_entries", "format_tags=title,comment", "-of", "compact=p=0", output])
        #expect(String(decoding: metadata, as: UTF8.self).contains("title=Test"))
        #expect(String(decoding: metadata, as: UTF8.self).contains("tags: a, b"))
        // Thumbnail: a JPEG of the middle frame.
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: s.thumbnailPath))
        #expect(jpeg.prefix(3) == Data([0xFF, 0xD8, 0xFF]))
        // Face track: one sample per written frame, at the frame's video time.
        #expect(tracker.times == (0..<10).map { MediaTime(value: Int64($0), timescale: 10) })
        let track = try FaceTrack.decode(json: Data(contentsOf: URL(fileURLWithPath: s.faceTrackPath)))
        #expect(track.samples.count == 10)
        #expect(track.samples.first?.box == NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.4))
        #expect(report.faceSamples == 10)
        #expect(!FileManager.default.fileExists(atPath: s.sessionFolder), "the recording in progress is removed once finished")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path("out")).sorted()
        #expect(leftovers == ["study.faces.json", "study.jpg", "study.mp4"], "no temporary file left: \(leftovers)")
    }

    @Test("a watched preview branch drops freely and never costs the recording a frame: every frame of a fast source is in the video")
    func previewNeverCostsAFrame() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // 120 frames at 30 fps of capture time, delivered as fast as they can be: far faster
        // than the preview's 15 a second, and faster than it encodes them.
        let opener = SourceOpener([.success(ScriptedSource([.frames(from: 0, to: 120, at: 0)], base: MonotonicClock.now()))])
        let feed = PreviewFeed()
        feed.join()
        let preview = PreviewBranch(feed: feed, width: 320, height: 180)
        let recorder = try StudyRecorder(settings: settings(dir, mode: .full), reporter: CollectingReporter(), openSource: opener.open,
                                         preview: preview)
        let report = await recorder.run()
        #expect(report.succeeded, "\(report)")
        let output = try #require(report.outputPath)
        #expect(try VideoInspection.frameIndices(of: output, width: 320, height: 180) == Array(0..<120))
        let counts = preview.counts
        #expect(counts.offered == 120, "every captured frame was offered")
        #expect(counts.taken == 60, "at most 15 a second of capture time")
        #expect(counts.encoded + counts.replaced == counts.taken && counts.encoded >= 1 && counts.failures == 0, "\(counts)")
        #expect(feed.latest != nil)
    }

    @Test("full mode: a source that goes silent is interrupted by the watchdog; the silence is not in the video and recording resumes with the frames")
    func stallInterruption() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // On a virtual clock the source moves: the watchdog's ticks run as the silence passes,
        // so the interruption comes at the same point however loaded the machine is.
        let clock = VirtualClock(start: MediaTime(seconds: 1000))
        let base = clock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([
            .realTimeFrames(from: 0, to: 30, at: 0), .silence(1.2), .realTimeFrames(from: 30, to: 60, at: 2.2),
        ], base: base, clock: clock))])
        var s = settings(dir, mode: .full)
        s.stallLimit = MediaTime(seconds: 0.4)
        let reporter = CollectingReporter()
        let recorder = try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open, clock: clock)
        let report = await recorder.run()
        #expect(report.succeeded, "\(report)")
        #expect(reporter.changes.map(\.to) == [.interrupted, .recording, .finished])
        #expect(reporter.changes.first?.detail == "no frames for 0.4 s")
        // Frame 29 came at 0.2 + 29/30 s; the first tick more than 0.4 s later is at 1.6 s.
        #expect(reporter.changes.first.map { abs(($0.captureSeconds ?? -1) - 29.0 / 30) < 0.001 } == true, "\(reporter.changes)")
        #expect(reporter.changes.dropFirst().first?.cause == .sourceReturned)
        #expect(report.interruptions == 1)
        // 29 frame steps before, the 1/30 s step at the return, 29 after.
        #expect(abs(report.activeSeconds - 59.0 / 30) < 0.002, "\(report.activeSeconds)")
        let output = try #require(report.outputPath)
        #expect(try VideoInspection.frameIndices(of: output, width: 320, height: 180) == Array(0..<60))
        let pts = try VideoInspection.packets(of: output).map(\.pts)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 > $0 })
        #expect(abs(report.videoSeconds - (report.activeSeconds + 1.0 / 30)) < 0.002, "video \(report.videoSeconds), active \(report.activeSeconds)")
    }

    @Test("a camera that fails is reopened with backoff; the time away never counts")
    func reopen() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let base = MonotonicClock.now()
        let opener = SourceOpener([
            .success(ScriptedSource([.frames(from: 0, to: 60, at: 0), .fail("unplugged")], base: base)),
            .failure(CaptureError(source: "/dev/video9", reason: "no such file or device")),
            .success(ScriptedSource([.frames(from: 60, to: 120, at: 10), .silence(30)], base: base)),
        ])
        var s = settings(dir, mode: .full, source: .camera(device: "/dev/video9", audio: .none))
        s.duration = 11.9
        let reporter = CollectingReporter()
        let recorder = try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open)
        let report = await recorder.run()
        #expect(report.succeeded, "\(report)")
        #expect(opener.opened == 3)
        #expect(reporter.changes.map(\.to) == [.interrupted, .recording, .finished])
        #expect(reporter.changes.first?.detail?.contains("unplugged") == true)
        #expect(reporter.lines.contains(where: { $0.contains("source back after 2 attempts") }), "\(reporter.lines)")
        #expect(reporter.lines.contains(where: { $0.contains("reopening the source failed (attempt 1)") }), "\(reporter.lines)")
        #expect(report.interruptions == 1)
        // Frames 0…59 (59 steps), 60 comes back (the 1/30 s step), 61…116 (56 steps); 117 reaches 11.9 s.
        #expect(report.framesWritten == 117)
        #expect(abs(report.activeSeconds - (59.0 + 1 + 56) / 30) < 0.002, "\(report.activeSeconds)")
        #expect(try VideoInspection.frameIndices(of: report.outputPath!, width: 320, height: 180) == Array(0..<117))
    }

    @Test("a pause writes a checkpoint at once, and the file in progress then holds every frame it counts; checkpoints also come every period")
    func checkpoints() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 600, at: 0)], base: base))])
        var s = settings(dir, mode: .full)
        s.checkpointPeriod = MediaTime(seconds: 0.5)
        let recorder = try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: opener.open)
        let run = Task { await recorder.run() }
        let checkpointPath = s.sessionFolder + "/checkpoint.json"
        func checkpoint() -> RecordingCheckpoint? { try? CheckpointFile.read(at: checkpointPath) }
        // Each wait is for an event (bounded, so a broken recorder fails instead of hanging);
        // when the periodic checkpoints come is the supervisor's rule, tested on made-up times.
        let periodic = try await eventually("a periodic checkpoint with frames in it") {
            checkpoint().flatMap { $0.state == .recording && $0.framesWritten > 0 ? $0 : nil }
        }
        #expect(periodic.videoPath == s.sessionFolder + "/recording.mp4")
        recorder.control(.pause)
        let paused = try await eventually("the pause's checkpoint") { checkpoint().flatMap { $0.state == .paused ? $0 : nil } }
        #expect(paused.outputPath == s.outputPath)
        #expect(paused.mode == .full && paused.canvasWidth == 1280 && paused.canvasHeight == 720)
        #expect(paused.title == "Test" && paused.tags == ["a", "b"])
        #expect(abs(paused.activeSeconds - Double(paused.framesWritten - 1) / 30) < 0.05, "\(paused.activeSeconds) s for \(paused.framesWritten) frames")
        // The file in progress, as a crash would leave it, plays and holds every counted frame.
        let inProgress = try VideoInspection.frameIndices(of: paused.videoPath, width: 320, height: 180)
        #expect(inProgress.count == paused.framesWritten)
        #expect(inProgress == Array(0..<paused.framesWritten))
        recorder.control(.resume)
        _ = try await eventually("a checkpoint after the resume") { checkpoint().flatMap { $0.state == .recording ? $0 : nil } }
        recorder.requestStop(reason: "test")
        let report = await run.value
        #expect(report.succeeded, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: checkpointPath))
    }

    @Test("the file in progress gets a fragment at most 2 s of capture after its first frame, also when no new frame comes")
    func fragmentsOnTime() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clock = VirtualClock(start: MediaTime(seconds: 1000))
        let base = clock.now() + MediaTime(seconds: 0.2)
        var s = settings(dir, mode: .timelapse, interval: 0.5)
        s.stallLimit = MediaTime(seconds: 60)
        let inProgress = s.sessionFolder + "/recording.mp4"
        let boxes: @Sendable () -> [String] = { (try? VideoInspection.boxes(of: inProgress)) ?? [] }
        let early = Locked<[String]>([]), cut = Locked<[String]>([]), framesInCut = Locked<[Int]>([])
        let opener = SourceOpener([.success(ScriptedSource([
            // The last frame comes at 29/30 s; then 0.95 s of silence.
            .realTimeFrames(from: 0, to: 30, at: 0), .silence(0.95),
            // 1.92 s after the first frame: two frames written, not yet 2 s old. The writer looks
            // at the clock at least every quarter second; half a second lets it look twice.
            .perform { usleep(500_000); early.withLock { $0 = boxes() } },  // a cut too early would show in this real time
            .silence(0.2),
            // 2.12 s: cut, although no frame came since 0.5 s.
            .perform {
                let deadline = Date().addingTimeInterval(15)
                while !boxes().contains("moof"), Date() < deadline { usleep(20_000) }
                framesInCut.withLock { $0 = (try? VideoInspection.frameIndices(of: inProgress, width: 320, height: 180)) ?? [] }
                cut.withLock { $0 = boxes() }
            },
            .silence(30),
        ], base: base, clock: clock))])
        let recorder = try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: opener.open, clock: clock)
        let run = Task { await recorder.run() }
        _ = try await eventually("the cut looked at", within: 30) { cut.withLock({ $0.isEmpty }) ? nil : true }
        #expect(early.withLock { $0 } == ["ftyp", "moov"], "two frames written, not yet 2 s old")
        #expect(cut.withLock { $0 } == ["ftyp", "moov", "moof", "mdat"], "cut 2 s after the first frame")
        #expect(framesInCut.withLock { $0 } == [0, 15])
        recorder.requestStop(reason: "test")
        let report = await run.value
        #expect(report.succeeded && report.framesWritten == 2, "\(report)")
    }

    @Test("an existing output, an output folder that is a file, or a source that cannot open: a clear reason, nothing left behind")
    func refusesBeforeRecording() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let neverOpened = SourceOpener([])
        // The output exists.
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        try Data("keep".utf8).write(to: URL(fileURLWithPath: dir.path("out/study.mp4")))
        var report = await (try StudyRecorder(settings: settings(dir, mode: .full), reporter: CollectingReporter(), openSource: neverOpened.open)).run()
        #expect(!report.started && report.startError?.contains("already exists") == true, "\(report)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("out/study.mp4"))) == Data("keep".utf8))
        #expect(neverOpened.opened == 0, "the source is not even opened")
        // The output's folder is a file.
        var s = settings(dir, mode: .full)
        s.outputPath = dir.path("out/study.mp4/inside/x.mp4")
        report = await (try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: neverOpened.open)).run()
        #expect(report.startError?.contains("Not a directory") == true, "\(report)")
        // The source cannot be opened: the folders made for it are removed again.
        s = settings(dir, mode: .full)
        s.outputPath = dir.path("new/deeper/x.mp4")
        report = await (try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: neverOpened.open)).run()
        #expect(report.startError?.contains("no such device") == true, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("new")), "no empty folders left")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path("state"))) ?? []).isEmpty, "no recording in progress left")
    }

    /// Bytes of the files below `folder`.
    static func used(below folder: String) -> Int64 {
        guard let walker = FileManager.default.enumerator(atPath: folder) else { return 0 }
        return walker.compactMap { $0 as? String }.reduce(0) { sum, path in
            let size = (try? FileManager.default.attributesOfItem(atPath: folder + "/" + path)[.size] as? NSNumber)?.int64Value ?? 0
            return sum + size
        }
    }

    @Test("not enough disk for --min-hours: refused with the numbers and what to do, nothing left behind; the same disk takes a timelapse")
    func diskRefusal() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let neverOpened = SourceOpener([])
        var s = settings(dir, mode: .full)
        s.outputPath = dir.path("new/deeper/x.mp4")
        // A scripted disk with 2 GiB free: a full recording (4.5 GB an hour here, keeping 1 GiB) fits ≈ 0.45 h
        // (the recording and its copy may take (2 GiB − 256 MiB) / 2 ≈ 1.0 GB).
        let twoGiB: @Sendable (String) -> Int64? = { _ in 2 << 30 }
        let reporter = CollectingReporter()
        let report = await (try StudyRecorder(settings: s, reporter: reporter, openSource: neverOpened.open, freeBytes: twoGiB)).run()
        let message = try #require(report.startError)
        #expect(!report.started && !report.succeeded)
        #expect(message.contains("not enough free disk space for 1 h"), "\(message)")
        #expect(message.contains("2.15 GB free, needs 4.50 GB an hour, 0.4 h fit"), "\(message)")
        #expect(message.contains("the output and the work folder"), "\(message)")
        #expect(message.contains("--min-hours 0") && message.contains("another --output"), "\(message)")
        #expect(neverOpened.opened == 0, "the source is not even opened")
        #expect(!FileManager.default.fileExists(atPath: dir.path("new")), "no empty folders left")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: dir.path("state"))) ?? []).isEmpty, "no recording in progress left")
        // A timelapse needs far less: the same disk takes it (≈ 7 h at a frame every 5 s).
        s.mode = .timelapse
        s.interval = MediaTime(seconds: 5)
        let timelapse = await (try StudyRecorder(settings: s, reporter: reporter, openSource: neverOpened.open, freeBytes: twoGiB)).run()
        #expect(timelapse.startError?.contains("disk") != true, "\(timelapse)")
        #expect(timelapse.startError?.contains("no such device") == true, "it went on to open the source: \(timelapse)")
    }

    @Test("the disk floor reached while recording: stopped and finished cleanly, playable, the summary names the disk, not a success")
    func diskFloor() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 900, at: 0)], base: MonotonicClock.now()))])
        var s = settings(dir, mode: .full)
        s.fragmentDuration = MediaTime(seconds: 0.5)
        s.diskCheckPeriod = MediaTime(seconds: 0.25)
        s.minHours = 0
        // A scripted disk that fills as the work folder grows: 100 GiB free until the first
        // fragment is on it (b bytes), then 1 GiB + 3b − what the folder holds. The floor
        // (1 GiB; the recording plus 256 MiB only past 768 MiB) is reached once the folder
        // holds more than 3b: a few fragments in, measured rather than timed.
        let state = dir.path("state")
        let firstFragment = Locked<Int64?>(nil)
        let disk: @Sendable (String) -> Int64? = { _ in
            let used = Self.used(below: state)
            let base = firstFragment.withLock { value -> Int64? in
                if value == nil, used > 0 { value = used }
                return value
            }
            guard let base else { return 100 << 30 }
            return (1 << 30) + 3 * base - used
        }
        let reporter = CollectingReporter()
        let started = MonotonicClock.now()
        let report = await (try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open, freeBytes: disk)).run()
        let wall = (MonotonicClock.now() - started).seconds
        #expect(report.started && !report.succeeded, "the run reports the stop (exit status 1)")
        let stop = try #require(report.diskStop, "\(report)")
        #expect(stop.contains("disk almost full: " + dir.path("out") + " (the output and the work folder)"), "\(stop)")
        #expect(stop.contains("free, under the floor of 1 GiB"), "\(stop)")
        #expect(reporter.lines.contains { $0.hasPrefix("warning: stopping: disk almost full") }, "\(reporter.lines)")
        #expect(wall < 25, "stopped by the floor, long before the 30 s script ends (\(wall) s)")
        #expect(report.writerError == nil && report.finishError == nil && report.sourceError == nil, "\(report)")
        // Everything kept and finished, as on stop.
        let output = try #require(report.outputPath)
        #expect(report.framesWritten > 15, "\(report.framesWritten)")
        let indices = try VideoInspection.frameIndices(of: output, width: 320, height: 180)
        #expect(indices == Array(0..<report.framesWritten))
        #expect(try VideoInspection.decodeErrors(of: output).isEmpty)
        let boxes = try VideoInspection.boxes(of: output)
        #expect(boxes.firstIndex(of: "moov")! < boxes.firstIndex(of: "mdat")! && !boxes.contains("moof"), "\(boxes)")
        #expect(FileManager.default.fileExists(atPath: s.thumbnailPath) && FileManager.default.fileExists(atPath: s.faceTrackPath))
        #expect(!FileManager.default.fileExists(atPath: s.sessionFolder), "the recording in progress is gone once finished")
    }

    @Test("paused from the start and stopped: nothing recorded, no file, a clear message")
    func nothingRecorded() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let opener = SourceOpener([.success(ScriptedSource([.silence(30)], base: MonotonicClock.now()))])
        let s = settings(dir, mode: .timelapse)
        let recorder = try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: opener.open)
        recorder.control(.pause)
        let run = Task { await recorder.run() }
        _ = try await eventually("the recording prepared") { FileManager.default.fileExists(atPath: s.sessionFolder) ? true : nil }
        recorder.requestStop(reason: "test")
        let report = await run.value
        #expect(report.started && !report.succeeded)
        #expect(report.finishError?.contains("nothing was recorded") == true)
        #expect(!FileManager.default.fileExists(atPath: s.outputPath))
        #expect(!FileManager.default.fileExists(atPath: s.sessionFolder))
    }
}

@Suite("Recorder files")
struct RecorderFileTests {
    @Test("an atomic write replaces the file whole, leaves no temporary file, and follows the umask")
    func atomicWrite() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("checkpoint.json")
        try FileIO.writeAtomically(Data("one".utf8), to: path)
        try FileIO.writeAtomically(Data("two, longer".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "two, longer")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["checkpoint.json"])
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)
        #expect(mode.intValue & 0o077 != 0o077 && mode.intValue & 0o600 == 0o600)
        #expect(throws: FileError.self) { try FileIO.writeAtomically(Data(), to: dir.path("missing/x.json")) }
    }

    @Test("a checkpoint file reads back what was written; a missing, cut-short or foreign one names the file and the problem")
    func checkpointFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let checkpoint = RecordingCheckpoint(
            id: UUID(), videoPath: dir.path("recording.mp4"), outputPath: dir.path("out.mp4"), canvas: VideoDimensions(width: 1280, height: 720),
            mode: .full, intervalSeconds: nil, activeSeconds: 12.5, framesWritten: 375, state: .paused, startedAt: Date(timeIntervalSince1970: 1e9),
            updatedAt: Date(timeIntervalSince1970: 1e9 + 20), title: nil, tags: [], faceTrack: FaceTrack())
        let path = dir.path(CheckpointFile.name)
        try CheckpointFile.write(checkpoint, to: path)
        #expect(try CheckpointFile.read(at: path) == checkpoint)
        func problem(_ path: String) -> String {
            do { _ = try CheckpointFile.read(at: path); return "read" } catch { return error.description }
        }
        #expect(problem(dir.path("none.json")) == "checkpoint \(dir.path("none.json")): there is no such file")
        let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        try bytes.prefix(bytes.count - 10).write(to: URL(fileURLWithPath: dir.path("short.json")))
        #expect(problem(dir.path("short.json")).hasPrefix("checkpoint \(dir.path("short.json")): the checkpoint is not a Reel checkpoint"))
        try Data("{\"hello\": 1}".utf8).write(to: URL(fileURLWithPath: dir.path("foreign.json")))
        #expect(problem(dir.path("foreign.json")).contains("not a Reel checkpoint"))
    }

    @Test("an append-only file refuses to replace one, and counts what it wrote")
    func appendOnly() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = try AppendOnlyFile(creating: dir.path("v.mp4"))
        try file.append(Data([1, 2, 3]))
        try file.append(Data())
        try file.sync()
        #expect(file.size == 3)
        file.close()
        #expect(throws: FileError.self) { try AppendOnlyFile(creating: dir.path("v.mp4")) }
        #expect(try Data(contentsOf: URL(fileURLWithPath: dir.path("v.mp4"))) == Data([1, 2, 3]))
    }

    @Test("default paths: dated names under the XDG data folder (the recorder numbers a taken one when it claims it); work folders under XDG state")
    func defaultPaths() {
        let folders = XDGDirectories(environment: ["XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"], accountHome: "/h")
        var components = DateComponents()
        (components.year, components.month, components.day, components.hour, components.minute, components.second) = (2025, 3, 9, 7, 5, 1)
        let date = Calendar.current.date(from: components)!
        #expect(RecordSettings.defaultOutputPath(folders, mode: .timelapse, now: date)
            == "/d/reel/recordings/reel-20250309-070501-timelapse.mp4")
        #expect(RecordSettings.defaultStateFolder(folders) == "/s/reel/recordings")
        let s = RecordSettings(source: .test(width: 64, height: 64, framesPerSecond: 30), mode: .full, outputPath: "/x/study.mp4", stateFolder: "/s")
        #expect(s.thumbnailPath == "/x/study.jpg" && s.faceTrackPath == "/x/study.faces.json")
    }

    @Test("settings a user can get wrong are refused with what to do")
    func validation() {
        func problem(_ change: (inout RecordSettings) -> Void) -> String? {
            var s = RecordSettings(source: .test(width: 64, height: 64, framesPerSecond: 30), mode: .timelapse, outputPath: "/x/a.mp4", stateFolder: "/s")
            change(&s)
            do { try s.validate(); return nil } catch { return error.description }
        }
        #expect(problem { _ in } == nil)
        #expect(problem { $0.interval = .zero }?.contains("more than 0 s") == true)
        #expect(problem { $0.outputPath = "/x/a.mov" }?.contains(".mp4") == true)
        #expect(problem { $0.duration = 0 }?.contains("--duration") == true)
        #expect(problem { $0.tags = ["a,b"] }?.contains("--tag") == true)
        #expect(problem { $0.mode = .full; $0.interval = .zero } == nil, "the interval does not matter in full mode")
    }
}
