import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Synchronization
import Testing
@testable import ReelMedia
@testable import ReelRecord

/// Heat, load and keeping the machine awake, in process: a thermal-zone folder written by the
/// test in the layout Linux uses, a face tracker too slow for real time, and inhibitor
/// commands that behave as `systemd-inhibit` does with and without logind.
@Suite("Recorder under heat and load", .serialized)
struct RecorderLoadTests {
    func settings(_ dir: TemporaryDirectory, mode: RecordingMode) -> RecordSettings {
        var settings = RecordSettings(source: .file(path: "scripted"), mode: mode, interval: MediaTime(seconds: 1), canvas: .hd720,
                                      outputPath: dir.path("out/study.mp4"), stateFolder: dir.path("state"),
                                      libraryPath: dir.path("library.sqlite"))
        settings.thermalFolder = dir.path("thermal")
        settings.keepAwakeCommand = nil
        settings.loadCheckPeriod = MediaTime(seconds: 0.25)
        return settings
    }

    /// A thermal zone as `/sys/class/thermal/thermal_zoneN` shows it.
    func writeZone(_ dir: TemporaryDirectory, _ n: Int, type: String, millidegrees: Int, passive: Int?) throws {
        let zone = dir.path("thermal/thermal_zone\(n)")
        try FileManager.default.createDirectory(atPath: zone, withIntermediateDirectories: true)
        try "\(type)\n".write(toFile: zone + "/type", atomically: true, encoding: .utf8)
        try "\(millidegrees)\n".write(toFile: zone + "/temp", atomically: true, encoding: .utf8)
        if let passive {
            try "passive\n".write(toFile: zone + "/trip_point_0_type", atomically: true, encoding: .utf8)
            try "\(passive)\n".write(toFile: zone + "/trip_point_0_temp", atomically: true, encoding: .utf8)
            try "critical\n".write(toFile: zone + "/trip_point_1_type", atomically: true, encoding: .utf8)
            try "105000\n".write(toFile: zone + "/trip_point_1_temp", atomically: true, encoding: .utf8)
        }
    }

    @Test("a hot machine: a full recording is reduced (1 frame in 2, stamped with active time), says why, and the session keeps it")
    func hot() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try writeZone(dir, 0, type: "acpitz", millidegrees: 40_000, passive: nil)
        try writeZone(dir, 1, type: "x86_pkg_temp", millidegrees: 93_000, passive: 90_000)
        let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 150, at: 0)], base: base))])
        let reporter = CollectingReporter()
        let s = settings(dir, mode: .full)
        let report = await (try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open)).run()
        #expect(report.succeeded, "\(report)")
        let warning = try #require(reporter.lines.first { $0.hasPrefix("warning: load: reduced") }, "\(reporter.lines)")
        #expect(warning.contains("hot: x86_pkg_temp at 93 °C, limit 90 °C"), "\(warning)")
        #expect(warning.contains("1 frame in 2 written"), "\(warning)")
        #expect(reporter.statuses.contains { $0.load == .reduced && $0.loadReason?.contains("x86_pkg_temp") == true })
        // The first reading comes 0.25 s in (at most 15 frames); from then on one frame in two.
        #expect(report.framesShed >= 60 && report.framesShed <= 75, "\(report.framesShed) shed")
        #expect(report.framesWritten + report.framesShed == 150)
        #expect(report.load.reasons == ["hot"] && report.load.peakCelsius == 93 && report.load.reducedSeconds > 3)
        let output = try #require(report.outputPath)
        let pts = try VideoInspection.packets(of: output).map(\.pts)
        #expect(pts.count == report.framesWritten)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 > $0 })
        #expect(abs(report.videoSeconds - report.activeSeconds) < 0.1, "the video still lasts the study time")
        #expect(try VideoInspection.decodeErrors(of: output).isEmpty)
        let session = try #require(try StudyLibrary(path: s.libraryPath!).sessions().first)
        #expect(session.load?.reasons == ["hot"] && session.load?.peakCelsius == 93)
        #expect((session.load?.reducedSeconds ?? 0) > 3)
    }

    @Test("no thermal zones and a light load: normal all along; the CPU share is measured and kept")
    func calm() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 60, at: 0, fps: 20)], base: base))])
        let s = settings(dir, mode: .timelapse)
        let report = await (try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: opener.open)).run()
        #expect(report.succeeded, "\(report)")
        #expect(!report.load.wasAdapted && report.load.peakCelsius == nil && report.framesShed == 0)
        let share = try #require(report.load.cpuShare)
        #expect(share > 0 && share < Double(ProcessInfo.processInfo.activeProcessorCount))
        #expect(try StudyLibrary(path: s.libraryPath!).sessions().first?.load == report.load)
    }

    /// `reel studio` records again and again in one process: each recording must let go of its
    /// encoder (x264's threads and picture buffers) when it ends. A ticker that kept its tick
    /// kept the whole recorder: the test run grew to 140 threads and 1.9 GB that way.
    @Test("a finished recording leaves nothing behind: the recorder and its encoder are released")
    func aFinishedRecordingIsReleased() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let openBefore = VideoEncoder.openCount
        weak var weakRecorder: StudyRecorder?
        do {
            let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
            let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 30, at: 0, fps: 20)], base: base))])
            let recorder = try StudyRecorder(settings: settings(dir, mode: .full), reporter: CollectingReporter(), openSource: opener.open)
            weakRecorder = recorder
            let report = await recorder.run()
            #expect(report.succeeded, "\(report)")
        }
        _ = try await eventually("the recorder and its encoder released") {
            weakRecorder == nil && VideoEncoder.openCount <= openBefore ? true : nil
        }
    }

    /// Takes 0.3 s a call: at the full-mode cadence (5 calls a second of video) the writer cannot keep up.
    final class SlowTracker: FaceTracker, @unchecked Sendable {
        private let lock = NSLock()
        private var _calls = 0
        var calls: Int { lock.withLock { _calls } }
        func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample? {
            lock.withLock { _calls += 1 }
            usleep(300_000)
            return nil
        }
    }

    @Test("a face tracker too slow for real time puts the writer behind: face analysis is eased, nothing is lost")
    func behind() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 240, at: 0)], base: base))])
        let tracker = SlowTracker()
        let reporter = CollectingReporter()
        let s = settings(dir, mode: .full)
        let report = await (try StudyRecorder(settings: s, reporter: reporter, tracker: { tracker }, openSource: opener.open)).run()
        #expect(report.succeeded, "\(report)")
        #expect(report.load.reasons.first == "behind real time", "\(report.load)")
        #expect(reporter.lines.contains { $0.hasPrefix("warning: load: eased (behind real time") }, "\(reporter.lines)")
        // 8 s of video at 0.2 s would be 40 calls; eased and reduced make far fewer.
        #expect(tracker.calls < 30, "\(tracker.calls) tracker calls")
        // Nothing lost: the frames the state machine kept are all in the file (the queue never drops).
        #expect(report.framesWritten + report.framesShed == 240)
        #expect(try VideoInspection.packets(of: report.outputPath!).count == report.framesWritten)
    }

    /// A stand-in for `systemd-inhibit` as a script: records its pid and arguments, then runs
    /// the program it is given (as systemd-inhibit does, holding the lock while it runs).
    func inhibitorScript(_ dir: TemporaryDirectory, failing: Bool = false) throws -> String {
        let path = dir.path("inhibit.sh")
        let body = failing
            ? "#!/bin/sh\necho 'Failed to connect to bus: No such file or directory' >&2\nexit 1\n"
            : "#!/bin/sh\nlog=\"$1\"; shift\nwhile [ \"${1#--}\" != \"$1\" ]; do echo \"$1\" >> \"$log.args\"; shift; done\necho $$ > \"$log.tmp\" && mv \"$log.tmp\" \"$log\"\nexec \"$@\"\n"
        try body.write(toFile: path, atomically: true, encoding: .utf8)
        chmod(path, 0o755)
        return path
    }

    /// Whether `pid` is a live process (a zombie or a vanished one is not).
    func isAlive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }

    @Test("the machine is kept awake while recording: the inhibitor runs from start to finish and is gone after")
    func keepsAwake() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        var s = settings(dir, mode: .timelapse)
        let log = dir.path("inhibitor.pid")
        s.keepAwakeCommand = [try inhibitorScript(dir), log, "--what=sleep:idle", "--mode=block", "--who=Reel"]
        let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
        let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 3000, at: 0)], base: base))])
        let reporter = CollectingReporter()
        let recorder = try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open)
        let run = Task { await recorder.run() }
        var pid: Int32?
        for _ in 0..<50 where pid == nil {
            try await Task.sleep(for: .milliseconds(100))
            pid = (try? String(contentsOfFile: log, encoding: .utf8)).flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        }
        let inhibitor = try #require(pid, "the inhibitor started")
        // Recording goes on after the inhibitor started: two more status snapshots (about one a second).
        let statusesBefore = reporter.statuses.count
        try await eventually("the recording going on", within: 30) { reporter.statuses.count >= statusesBefore + 2 ? true : nil }
        #expect(isAlive(inhibitor), "held while recording")
        #expect((try? String(contentsOfFile: "/proc/\(inhibitor)/comm", encoding: .utf8))?.hasPrefix("cat") == true, "it runs cat on Reel's pipe")
        #expect(try String(contentsOfFile: log + ".args", encoding: .utf8) == "--what=sleep:idle\n--mode=block\n--who=Reel\n")
        recorder.requestStop(reason: "test")
        let report = await run.value
        #expect(report.succeeded, "\(report)")
        #expect(!isAlive(inhibitor), "released at the end")
        #expect(!reporter.lines.contains { $0.contains("awake") }, "\(reporter.lines)")
    }

    @Test("no logind (the inhibitor exits at once) or no systemd-inhibit: a warning saying so, and the recording goes on")
    func cannotKeepAwake() async throws {
        for failing in [true, false] {
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            var s = settings(dir, mode: .timelapse)
            s.keepAwakeCommand = failing ? [try inhibitorScript(dir, failing: true)] : [dir.path("no/systemd-inhibit")]
            let base = MonotonicClock.now() + MediaTime(seconds: 0.2)
            let opener = SourceOpener([.success(ScriptedSource([.realTimeFrames(from: 0, to: 60, at: 0)], base: base))])
            let reporter = CollectingReporter()
            let report = await (try StudyRecorder(settings: s, reporter: reporter, openSource: opener.open)).run()
            #expect(report.succeeded, "\(report)")
            let warning = try #require(reporter.lines.first { $0.contains("could not keep the machine awake") }, "\(reporter.lines)")
            #expect(warning.contains(failing ? "Failed to connect to bus" : "was not found"), "\(warning)")
        }
    }
}
