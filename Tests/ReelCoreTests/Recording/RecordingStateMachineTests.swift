import Foundation
import Testing
import ReelCore

/// Scripted capture timestamps through the recorder's state machine.
@Suite("Recording state machine")
struct RecordingStateMachineTests {
    typealias Machine = RecordingStateMachine
    private func s(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }
    /// Capture time of frame `n` of a 30 fps camera whose clock started long ago.
    private func frame(_ n: Int) -> MediaTime { .nanoseconds(7_000_000_000_000 + Int64(n) * 1_000_000_000 / 30) }
    /// Equal to within a nanosecond (capture times are whole nanoseconds, n/30 s is not).
    private func close(_ a: MediaTime, _ b: MediaTime) -> Bool { abs((a - b).converted(to: 1_000_000_000).value) <= 1 }

    /// Runs the acceptance script: 30 fps for `seconds`, pause and resume at the given frames.
    private func script(_ machine: inout Machine, seconds: Int, pauseAt: Int, resumeAt: Int)
        -> (written: [(source: Int, out: Machine.OutputFrame)], transitions: [Machine.Transition]) {
        var written: [(Int, Machine.OutputFrame)] = []
        var transitions: [Machine.Transition] = []
        for n in 0..<(seconds * 30) {
            if n == pauseAt, let t = machine.apply(.pause) { transitions.append(t) }
            if n == resumeAt, let t = machine.apply(.resume) { transitions.append(t) }
            let step = machine.frame(at: frame(n))
            if let out = step.output { written.append((n, out)) }
        }
        if let t = machine.apply(.stop) { transitions.append(t) }
        return (written, transitions)
    }

    @Test("timelapse, interval 1 s, 24 s paused from 8 s to 14 s: 18 frames, none from the pause, each ≥ 1 s of study apart, at k/10 s")
    func timelapseScript() throws {
        var machine = try Machine(mode: .timelapse, interval: s(1))
        let (written, transitions) = script(&machine, seconds: 24, pauseAt: 240, resumeAt: 420)
        #expect(written.count == 18)
        #expect(written.allSatisfy { $0.source < 240 || $0.source >= 420 }, "nothing from the pause")
        for (a, b) in zip(written, written.dropFirst()) {
            #expect(b.out.active - a.out.active >= s(1))
            #expect(b.source - a.source >= 30)
        }
        #expect(written.map(\.out.pts) == (0..<18).map { MediaTime(value: Int64($0), timescale: 10) })
        #expect(written.map(\.out.index) == Array(0..<18))
        // 8 s recorded (frames 0…239 span 239/30 s), the first frame after resume adds nothing,
        // then frames 420…719 add 299/30 s.
        #expect(close(machine.active, MediaTime(value: 239 + 299, timescale: 30)))
        #expect(transitions.map(\.to) == [.paused, .recording, .finished])
        #expect(transitions[0].lastCapture == frame(239))
        #expect(transitions[1].lastCapture == frame(419))
        #expect(close(transitions[0].active, MediaTime(value: 239, timescale: 30)))
        #expect(written.allSatisfy { $0.out.samplesFace }, "timelapse samples the face on every written frame")
    }

    @Test("full mode, same script: every recorded frame, timestamps = active time at 1/600 s, strictly increasing, the resume adds 1/30 s")
    func fullScript() throws {
        var machine = try Machine(mode: .full)
        let (written, _) = script(&machine, seconds: 24, pauseAt: 240, resumeAt: 420)
        #expect(written.count == 240 + 300)
        #expect(written.allSatisfy { $0.source < 240 || $0.source >= 420 })
        #expect(written.allSatisfy { $0.out.pts.timescale == 600 })
        #expect(zip(written, written.dropFirst()).allSatisfy { $1.out.pts > $0.out.pts })
        let resumed = try #require(written.first { $0.source == 420 })
        let before = try #require(written.last { $0.source == 239 })
        #expect(resumed.out.pts - before.out.pts == FullModeTimestamps.minimumStep)
        // The video's last timestamp is the active time (at 1/600 s).
        #expect(written.last!.out.pts == machine.active.converted(to: 600))
        #expect(close(machine.active, MediaTime(value: 239 + 1 + 299, timescale: 30)))
        #expect(machine.timestamps.corrections == 1)
        // Face samples every 0.2 s of video time: every 6th frame at 30 fps.
        let sampled = written.filter(\.out.samplesFace).map(\.out.pts)
        #expect(sampled.count == 90)
        #expect(zip(sampled, sampled.dropFirst()).allSatisfy { $1 - $0 == FaceSampleSchedule.fullModeCadence })
    }

    @Test("a resume, then a frame after a huge gap: the gap adds nothing")
    func resumeThenHugeGap() throws {
        var machine = try Machine(mode: .full)
        _ = machine.frame(at: s(100))
        _ = machine.frame(at: s(101))
        _ = machine.apply(.pause)
        _ = machine.frame(at: s(102))
        _ = machine.apply(.resume)
        let step = machine.frame(at: s(100_000))
        #expect(step.skippedGap == nil, "not a stall: the resume had already forgotten the reference")
        #expect(close(machine.active, s(1) + FullModeTimestamps.minimumStep))
        _ = machine.frame(at: s(100_000.5))
        #expect(close(machine.active, s(1.5) + FullModeTimestamps.minimumStep))
    }

    @Test("a gap longer than the stall limit while recording is an interruption: it adds nothing and is reported")
    func stallGap() throws {
        var machine = try Machine(mode: .timelapse, interval: s(1), stallLimit: s(3))
        _ = machine.frame(at: s(0))
        _ = machine.frame(at: s(2.9))
        #expect(machine.active == s(2.9), "a gap under the limit counts (the source was slow, not gone)")
        let step = machine.frame(at: s(10))
        #expect(step.skippedGap == s(7.1))
        #expect(machine.skippedGapTime == s(7.1))
        #expect(machine.active == s(2.9))
        #expect(step.output == nil, "2.9 s since the last written frame at 0 s… written at 2.9 already")
        _ = machine.frame(at: s(11))
        #expect(machine.active == s(3.9))
    }

    @Test("the source stops: interrupted, nothing counts, and the first frame back resumes recording")
    func interruption() throws {
        var machine = try Machine(mode: .full)
        _ = machine.frame(at: s(0))
        _ = machine.frame(at: s(1))
        let maybeStopped = machine.sourceStopped()
        let stopped = try #require(maybeStopped)
        #expect(stopped.from == .recording && stopped.to == .interrupted && stopped.cause == .sourceStopped)
        #expect(machine.sourceStopped() == nil, "already interrupted")
        #expect(machine.apply(.resume) == nil, "resume cannot bring a source back")
        let back = machine.frame(at: s(2.5))
        #expect(back.transition?.to == .recording)
        #expect(back.transition?.cause == .sourceReturned)
        #expect(back.output != nil, "the returning frame is recorded")
        #expect(close(machine.active, s(1) + FullModeTimestamps.minimumStep), "it adds only the 1/30 s step")
    }

    @Test("paused when the source goes: stays paused; a resume before frames return goes to interrupted")
    func pausedThenSourceLost() throws {
        var machine = try Machine(mode: .timelapse, interval: s(1))
        _ = machine.frame(at: s(0))
        _ = machine.apply(.pause)
        #expect(machine.sourceStopped() == nil)
        #expect(machine.state == .paused)
        #expect(machine.apply(.resume)?.to == .interrupted)
        #expect(machine.frame(at: s(50)).transition?.to == .recording)
        #expect(machine.state == .recording)
        // A frame while paused tells the machine the source is back.
        _ = machine.apply(.pause)
        _ = machine.sourceStopped()
        _ = machine.frame(at: s(60))
        #expect(machine.apply(.resume)?.to == .recording)
    }

    @Test("controls in every state", arguments: Machine.Control.allCases)
    func controls(_ control: Machine.Control) throws {
        func machine(in state: Machine.State) throws -> Machine {
            var m = try Machine(mode: .full)
            switch state {
            case .recording: break
            case .paused: _ = m.apply(.pause)
            case .interrupted: _ = m.sourceStopped()
            case .finished: _ = m.apply(.stop)
            }
            #expect(m.state == state)
            return m
        }
        let expected: [Machine.State: Machine.State?] = switch control {
        case .pause: [.recording: .paused, .paused: nil, .interrupted: .paused, .finished: nil]
        case .resume: [.recording: nil, .paused: .recording, .interrupted: nil, .finished: nil]
        case .toggle: [.recording: .paused, .paused: .recording, .interrupted: .paused, .finished: nil]
        case .stop: [.recording: .finished, .paused: .finished, .interrupted: .finished, .finished: nil]
        }
        for state in Machine.State.allCases {
            var m = try machine(in: state)
            let transition = m.apply(control)
            #expect(transition?.to == expected[state]!, "\(control) in \(state)")
            #expect(m.state == (expected[state]! ?? state))
            if let transition { #expect(transition.cause == .control(control)) }
        }
    }

    @Test("finished is final: frames are skipped and the clock stands still")
    func finished() throws {
        var machine = try Machine(mode: .full)
        _ = machine.frame(at: s(0))
        _ = machine.frame(at: s(1))
        _ = machine.apply(.stop)
        #expect(machine.frame(at: s(2)).decision == .skip(.finished))
        #expect(machine.active == s(1))
        #expect(machine.sourceStopped() == nil)
        #expect(machine.framesSeen == 3 && machine.framesWritten == 2)
    }

    @Test("paused frames are seen, not written, and never count")
    func pausedFrames() throws {
        var machine = try Machine(mode: .full)
        _ = machine.frame(at: s(0))
        _ = machine.apply(.toggle)
        for t in stride(from: 0.1, to: 10, by: 0.1) { #expect(machine.frame(at: s(t)).decision == .skip(.paused)) }
        #expect(machine.active == .zero)
        #expect(machine.framesSeen == 100 && machine.framesWritten == 1)
    }

    @Test("full mode with timestamps going backwards: the video's stay strictly increasing")
    func backwardsInFullMode() throws {
        var machine = try Machine(mode: .full)
        let captures = [10.0, 10.1, 10.05, 9.0, 10.2, 10.3]
        let pts = captures.compactMap { machine.frame(at: s($0)).output?.pts }
        #expect(pts.count == captures.count)
        #expect(zip(pts, pts.dropFirst()).allSatisfy { $1 > $0 })
        #expect(pts.last! == machine.active.converted(to: 600))
    }

    @Test("timelapse skips frames that are not due, with the reason")
    func notDue() throws {
        var machine = try Machine(mode: .timelapse, interval: s(5))
        #expect(machine.frame(at: s(0)).output?.index == 0)
        #expect(machine.frame(at: s(1)).decision == .skip(.notDue))
        #expect(machine.frame(at: s(3)).decision == .skip(.notDue))
        #expect(machine.frame(at: s(5)).output?.index == 1)
    }

    @Test("an interval of 0 is refused")
    func zeroInterval() {
        #expect(throws: TimelapseSchedule.Error.self) { try Machine(mode: .timelapse, interval: .zero) }
    }
}

@Suite("Recording canvas, face track, checkpoints")
struct RecordingValuesTests {
    @Test("canvas sizes, swapped for portrait")
    func canvas() {
        #expect(RecordingCanvas.hd1080.dimensions(portrait: false) == VideoDimensions(width: 1920, height: 1080))
        #expect(RecordingCanvas.hd1080.dimensions(portrait: true) == VideoDimensions(width: 1080, height: 1920))
        #expect(RecordingCanvas.hd720.dimensions(portrait: true) == VideoDimensions(width: 720, height: 1280))
        #expect(RecordingCanvas(rawValue: "1280x720") == .hd720)
        #expect(RecordingCanvas(rawValue: "640x480") == nil)
    }

    @Test("the centre crop a canvas shows of the capture, and a box mapped into it")
    func centreFill() {
        let portraitOfLandscape = NormalizedRect.centreFill(source: VideoDimensions(width: 1920, height: 1080),
                                                            target: VideoDimensions(width: 1080, height: 1920))
        #expect(abs(portraitOfLandscape.width - 0.31640625) < 1e-12)
        #expect(abs(portraitOfLandscape.x - (1 - 0.31640625) / 2) < 1e-12)
        #expect(portraitOfLandscape.height == 1)
        let same = NormalizedRect.centreFill(source: VideoDimensions(width: 1280, height: 720), target: VideoDimensions(width: 1920, height: 1080))
        #expect(same == .full)
        let box = NormalizedRect(x: 0.5, y: 0.25, width: 0.1, height: 0.2)
        #expect(box.relative(to: .full) == box)
        let wide = NormalizedRect.centreFill(source: VideoDimensions(width: 640, height: 480), target: VideoDimensions(width: 1280, height: 720))
        #expect(abs(wide.height - 0.75) < 1e-12 && abs(wide.y - 0.125) < 1e-12)
        let mapped = NormalizedRect(x: 0.25, y: 0.5, width: 0.5, height: 0.375).relative(to: wide)
        #expect(abs(mapped.y - 0.5) < 1e-12 && abs(mapped.height - 0.5) < 1e-12 && mapped.x == 0.25)
    }

    @Test("the face track is compact JSON that reads back to the same samples")
    func faceTrackRoundTrip() throws {
        var track = FaceTrack()
        track.append(FaceTrackSample(time: MediaTime(value: 3, timescale: 10), segment: 0, kind: .defaultRegion,
                                     box: NormalizedRect(x: 0.15, y: 0, width: 0.7, height: 0.45)))
        track.append(FaceTrackSample(time: MediaTime(value: 1, timescale: 2), segment: 1, kind: .face,
                                     box: NormalizedRect(x: 0.123456, y: -0.05, width: 0.2, height: 0.33333)))
        let json = String(decoding: try track.jsonData(), as: UTF8.self)
        #expect(json == #"{"boxScale":10000,"samples":[[180,0,3,1500,0,7000,4500],[300,1,0,1235,-500,2000,3333]],"timescale":600,"version":1}"#)
        #expect(try FaceTrack.decode(json: Data(json.utf8)) == track)
        #expect(track.samples[1].box.x == 0.1235, "kept at the stored precision")
        #expect(try FaceTrack.decode(json: try FaceTrack().jsonData()).samples.isEmpty)
    }

    @Test("a face track from a newer Reel, or with a damaged sample, is refused with the reason")
    func faceTrackErrors() {
        #expect(throws: FaceTrack.Error.unsupportedVersion(3)) {
            try FaceTrack.decode(json: Data(#"{"boxScale":10000,"samples":[],"timescale":600,"version":3}"#.utf8))
        }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "6 numbers instead of 7")) {
            try FaceTrack.decode(json: Data(#"{"boxScale":10000,"samples":[[1,2,3,4,5,6]],"timescale":600,"version":1}"#.utf8))
        }
        #expect(throws: FaceTrack.Error.badSample(index: 0, reason: "unknown kind 9")) {
            try FaceTrack.decode(json: Data(#"{"boxScale":10000,"samples":[[1,2,9,4,5,6,7]],"timescale":600,"version":1}"#.utf8))
        }
    }

    @Test("face samples: every written frame in timelapse, every 0.2 s of video in full mode")
    func faceSchedule() {
        var timelapse = FaceSampleSchedule(mode: .timelapse)
        #expect((0..<5).allSatisfy { timelapse.isDue(at: MediaTime(value: Int64($0), timescale: 10)) })
        var full = FaceSampleSchedule(mode: .full)
        let due = (0..<30).filter { full.isDue(at: MediaTime(value: Int64($0) * 20, timescale: 600)) }
        #expect(due == [0, 6, 12, 18, 24])
        // Uneven frames: the next sample is the first frame at least 0.2 s after the last one.
        var uneven = FaceSampleSchedule(mode: .full)
        let times = [0.0, 0.15, 0.19, 0.21, 0.35, 0.41, 0.42]
        #expect(times.filter { uneven.isDue(at: MediaTime(seconds: $0)) } == [0.0, 0.21, 0.41])
    }

    private func checkpoint() -> RecordingCheckpoint {
        var track = FaceTrack()
        track.append(FaceTrackSample(time: MediaTime(value: 1, timescale: 10), segment: 0, kind: .face,
                                     box: NormalizedRect(x: 0.4, y: 0.1, width: 0.2, height: 0.3)))
        return RecordingCheckpoint(
            id: UUID(uuidString: "6F9619FF-8B86-D011-B42D-00C04FC964FF")!, videoPath: "/state/reel/recordings/x/recording.mp4",
            outputPath: "/data/reel/recordings/study.mp4", canvas: VideoDimensions(width: 1920, height: 1080), mode: .timelapse,
            intervalSeconds: 5, activeSeconds: 123.456, framesWritten: 25, state: .paused,
            startedAt: Date(timeIntervalSince1970: 1_750_000_000), updatedAt: Date(timeIntervalSince1970: 1_750_000_130),
            title: "Chemistry 第3章", tags: ["exam", "chem"], faceTrack: track)
    }

    @Test("a checkpoint reads back exactly")
    func checkpointRoundTrip() throws {
        let original = checkpoint()
        let data = try original.jsonData()
        #expect(try RecordingCheckpoint.decode(json: data) == original)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""startedAt" : "2025-06-15T15:06:40.000Z""#), "\(text)")
        let wholeSeconds = text.replacingOccurrences(of: ".000Z", with: "Z")
        #expect(try RecordingCheckpoint.decode(json: Data(wholeSeconds.utf8)) == original, "whole-second dates (the first format) still read")
        #expect(text.contains(#""state" : "paused""#))
    }

    @Test("a damaged checkpoint is refused with a reason a person can act on")
    func checkpointErrors() throws {
        func reason(_ text: String) -> String {
            do {
                _ = try RecordingCheckpoint.decode(json: Data(text.utf8))
                return "accepted"
            } catch { return error.description }
        }
        #expect(reason("") == "the checkpoint is empty")
        #expect(reason("{\"vers") .contains("not a Reel checkpoint"))
        #expect(reason(#"{"version": 7}"#).contains("newer Reel"))
        let good = String(decoding: try checkpoint().jsonData(), as: UTF8.self)
        #expect(reason(good.replacingOccurrences(of: #""videoPath""#, with: #""videoPathX""#)).contains("'videoPath' is missing"))
        #expect(reason(good.replacingOccurrences(of: #""activeSeconds" : 123.456"#, with: #""activeSeconds" : -1"#)).contains("negative"))
        #expect(reason(good.replacingOccurrences(of: #""intervalSeconds" : 5"#, with: #""intervalSeconds" : 0"#)).contains("positive interval"))
        #expect(reason(good.replacingOccurrences(of: #""mode" : "timelapse""#, with: #""mode" : "slowmo""#)).contains("damaged"))
        // Cut short, as a crash during a non-atomic write would leave it.
        #expect(reason(String(good.prefix(good.count / 2))).contains("not a Reel checkpoint"))
    }

    @Test("checkpoints: the first at once, then every 30 s, and at once when asked (a pause)")
    func checkpointSchedule() {
        var schedule = CheckpointSchedule()
        let t0 = MediaTime(value: 1000, timescale: 1)
        #expect(schedule.isDue(now: t0))
        schedule.written(at: t0)
        #expect(!schedule.isDue(now: t0 + MediaTime(value: 29, timescale: 1)))
        #expect(schedule.isDue(now: t0 + MediaTime(value: 30, timescale: 1)))
        schedule.requestNow()
        #expect(schedule.isDue(now: t0 + MediaTime(value: 1, timescale: 1)))
        schedule.written(at: t0 + MediaTime(value: 1, timescale: 1))
        #expect(!schedule.isDue(now: t0 + MediaTime(value: 2, timescale: 1)))
    }

    @Test("a stall: no frame for longer than the limit, unless the capture itself was held up")
    func stallWatch() {
        let s = { (x: Double) in MediaTime(seconds: x) }
        var watch = StallWatch(limit: s(3), now: s(0))
        func stalled(_ now: Double, waiting: Bool = false) -> Bool { watch.isStalled(now: s(now), captureWaiting: waiting) }
        #expect(!stalled(3))
        #expect(stalled(3.1), "also when no frame ever came")
        watch.frameArrived(at: s(4))
        #expect(!stalled(6))
        #expect(!stalled(9, waiting: true), "waiting for the writer is not a stall")
        #expect(!stalled(11))
        #expect(stalled(12.5))
    }
}

@Suite("XDG folders")
struct XDGDirectoriesTests {
    @Test("defaults under the home folder, variables when absolute, relative or empty ones ignored")
    func folders() {
        let defaults = XDGDirectories(environment: [:], accountHome: "/home/kai/")
        #expect(defaults == XDGDirectories(environment: ["XDG_DATA_HOME": "", "XDG_STATE_HOME": "relative/state"], accountHome: "/home/kai"))
        #expect(defaults.data == "/home/kai/.local/share")
        #expect(defaults.state == "/home/kai/.local/state")
        #expect(defaults.videos == "/home/kai/Videos")
        let set = XDGDirectories(environment: ["XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s", "XDG_VIDEOS_DIR": "/v"], accountHome: "/h")
        #expect(set.data == "/d" && set.state == "/s" && set.videos == "/v")
    }

    @Test("$HOME wins over the account's home; a relative or empty $HOME is ignored; ~ expands from it")
    func home() {
        let folders = XDGDirectories(environment: ["HOME": "/tmp/try/"], accountHome: "/root")
        #expect(folders.home == "/tmp/try" && folders.data == "/tmp/try/.local/share" && folders.cache == "/tmp/try/.cache")
        #expect(XDGDirectories(environment: ["HOME": "relative"], accountHome: "/root").data == "/root/.local/share")
        #expect(XDGDirectories(environment: ["HOME": ""], accountHome: "/root").state == "/root/.local/state")
        #expect(XDGDirectories(environment: ["HOME": "/"], accountHome: "/root").data == "/.local/share")
        #expect(XDGDirectories(environment: ["HOME": "/h", "XDG_CACHE_HOME": "/c"], accountHome: "/root").cache == "/c")
        #expect(folders.expandingTilde("~") == "/tmp/try" && folders.expandingTilde("~/lib.sqlite") == "/tmp/try/lib.sqlite")
        #expect(folders.expandingTilde("~other/x") == "~other/x" && folders.expandingTilde("a/~/b") == "a/~/b")
        #expect(folders.absolute("v.mp4", workingFolder: "/work") == "/work/v.mp4")
        #expect(folders.absolute("~/v.mp4", workingFolder: "/work") == "/tmp/try/v.mp4")
        #expect(folders.absolute("/abs", workingFolder: "/work") == "/abs")
    }
}
