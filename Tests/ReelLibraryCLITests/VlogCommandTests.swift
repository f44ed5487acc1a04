import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing

/// `reel vlog` through the real binary: a library (TZ Asia/Tokyo) with sessions on two days of
/// the week of Monday 2026-11-16, one on 2026-11-24, and ones that must be left out; "today"
/// is fixed with `--date 2026-11-25` (a Wednesday).
@Suite("reel vlog")
struct VlogCommandTests {
    struct Home {
        let dir: TemporaryDirectory
        var library: String { dir.path("library.sqlite") }
        var environment: [String: String] {
            ["XDG_DATA_HOME": dir.path("data"), "XDG_STATE_HOME": dir.path("state"), "HOME": dir.path("home"), "TZ": "Asia/Tokyo"]
        }
        /// The face box of every track (normalized).
        static let face = NormalizedRect(x: 0.3, y: 0.2, width: 0.4, height: 0.5)

        init() throws {
            dir = try TemporaryDirectory()
            try FileManager.default.createDirectory(atPath: dir.path("rec"), withIntermediateDirectories: true)
            let library = try StudyLibrary(path: library)
            // Last week: Monday (two sessions, 2 s of 4:3 and 1 s of 16:9), Wednesday (2 s, plus
            // one whose file is gone and one without face positions). This week: Tuesday (1 s).
            // Sunday 23:30 the week before: left out.
            try add(library, "a", "2026-11-16T01:00:00Z", seconds: 2, size: (320, 240), title: "Chemistry")
            try add(library, "b", "2026-11-16T06:00:00Z", seconds: 1, size: (640, 360), title: "数学")
            try add(library, "c", "2026-11-18T00:00:00Z", seconds: 2, size: (640, 360), title: "History")
            try add(library, "d", "2026-11-18T02:00:00Z", seconds: 1, size: (640, 360), title: "Gone", removeVideo: true)
            try add(library, "e", "2026-11-18T03:00:00Z", seconds: 1, size: (640, 360), title: "Trackless", track: false)
            try add(library, "f", "2026-11-24T00:00:00Z", seconds: 1, size: (640, 360), title: "This week")
            try add(library, "0", "2026-11-15T14:30:00Z", seconds: 1, size: (640, 360), title: "Sunday night")
        }

        func add(_ library: StudyLibrary, _ letter: Character, _ utc: String, seconds: Int, size: (Int, Int), title: String,
                 removeVideo: Bool = false, track: Bool = true) throws {
            let video = dir.path("rec/\(letter).mp4"), trackPath = dir.path("rec/\(letter).faces.json")
            if !removeVideo {
                // The same clip for every home (ffmpeg's noise has a fixed seed): made once per
                // test process, copied here so a test may change its own.
                let made = try SharedFixtures.shared("vlog-session-\(seconds)s-\(size.0)x\(size.1)") { folder in
                    let path = folder + "/session.mp4"
                    try TestMedia.makeClip(at: path, seconds: seconds, width: size.0, height: size.1, audio: false,
                                           extraArguments: ["-vf", "noise=alls=60:allf=u", "-crf", "14"])
                    return path
                }
                try FileManager.default.copyItem(atPath: made, toPath: video)
            }
            if track {
                let samples = (0...(seconds * 5)).map { k in
                    FaceTrackSample(time: MediaTime(value: Int64(k) * 120, timescale: 600), segment: 0, kind: .face, box: Home.face)
                }
                try FaceTrack(samples: samples).jsonData().write(to: URL(fileURLWithPath: trackPath))
            }
            let start = try Date.ISO8601FormatStyle().parse(utc)
            let id = UUID(uuidString: "\(String(repeating: letter, count: 8))-0000-4000-8000-000000000000")!
            try library.add(StudySession(id: id, startedAt: start, endedAt: start.addingTimeInterval(Double(seconds) * 60),
                                         activeSeconds: Double(seconds) * 60, videoSeconds: Double(seconds), mode: .full, intervalSeconds: nil,
                                         filePath: video, thumbnailPath: nil, faceTrackPath: track ? trackPath : nil, title: title, tags: []))
        }

        func reel(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(["vlog", "--date", "2026-11-25", "--library", library] + arguments, environment: environment)
        }
    }

    static func probe(_ path: String, _ stream: String, _ entries: String) throws -> [String] {
        let run = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entries, "-of", "default=nw=1:nk=1", path])
        return run.stdout.split(separator: "\n").map(String.init)
    }

    /// The grey picture at `seconds`.
    static func grayFrame(_ path: String, at seconds: Double, width: Int, height: Int) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/ffmpeg")
        process.arguments = ["-v", "error", "-ss", String(seconds), "-i", path, "-frames:v", "1", "-f", "rawvideo", "-pix_fmt", "gray", "-"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(data.count == width * height, "one \(width)x\(height) picture at \(seconds) s")
        return [UInt8](data)
    }

    /// Mean absolute difference between horizontal neighbours in a rectangle (pixels): fine
    /// detail (noise) is high, a mosaic or a plain card low.
    /// Pixels `step` apart, so that upscaled noise still counts.
    static func detail(_ picture: [UInt8], width: Int, x: Range<Int>, y: Range<Int>, step: Int = 4) -> Double {
        var sum = 0, count = 0
        for row in y { for column in x.dropLast(step) {
            sum += abs(Int(picture[row * width + column]) - Int(picture[row * width + column + step]))
            count += 1
        } }
        return Double(sum) / Double(max(count, 1))
    }

    /// RMS of mono 16-bit samples in [from, to) seconds at 48 kHz.
    static func rms(_ samples: [Int16], from: Double, to: Double) -> Double {
        let a = Int(from * 48_000), b = min(samples.count, Int(to * 48_000))
        guard a < b else { return 0 }
        return (samples[a..<b].reduce(0.0) { $0 + Double($1) * Double($1) } / Double(b - a)).squareRoot()
    }

    @Test("last week, vertical, with music: cards and sessions on one timeline, fitted, faces mosaicked, fades; left-out sessions warned")
    func lastWeekVertical() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let music = home.dir.path("music.m4a")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=44100", "-t", "3", "-c:a", "aac", music])
        #expect(made.status == 0, "\(made.stderr)")
        let out = home.dir.path("week.mp4")
        defer { if let keep = ProcessInfo.processInfo.environment["REEL_VLOG_KEEP"] { try? FileManager.default.copyItem(atPath: out, toPath: keep) } }
        let run = try home.reel(["--week", "last", "--layout", "vertical", "--bgm", music, "-o", out, "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let done = lines.last { $0["event"] as? String == "done" }
        #expect(done?["cards"] as? Int == 2 && done?["sessions"] as? Int == 3, "\(run.stdout)")
        #expect(lines.contains { $0["event"] as? String == "progress" && $0["percent"] != nil })
        let warnings = lines.filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.count == 2 && warnings.contains { $0.contains("Gone") && $0.contains("missing") }
                && warnings.contains { $0.contains("Trackless") && $0.contains("no face positions") }, "\(warnings)")

        // Size and length: 2 cards × 2 s + 2 + 1 + 2 s of sessions = 9 s at 30 fps.
        #expect(try Self.probe(out, "v:0", "stream=width,height,codec_name") == ["h264", "1080", "1920"])
        let frames = Int(try Self.probe(out, "v:0", "stream=nb_frames").first ?? "") ?? 0
        #expect(abs(frames - 270) <= 2, "\(frames) frames")
        let audioSeconds = Double(try Self.probe(out, "a:0", "stream=duration").first ?? "") ?? 0
        #expect(abs(audioSeconds - 9) < 0.1, "audio \(audioSeconds) s")

        // The cards at 1 s and 6 s: a plain background with text in the middle; the videos around them are not.
        let (w, h) = (1080, 1920)
        for t in [1.0, 6.0] {
            let card = try Self.grayFrame(out, at: t, width: w, height: h)
            let background = Self.detail(card, width: w, x: 0..<200, y: 100..<300)
            #expect(background < 1, "card at \(t) s: plain background (\(background))")
            #expect(card[(w * (h / 2 - 400))..<(w * (h / 2 + 400))].contains { $0 > 200 }, "card at \(t) s: white text")
        }
        // Session a (320x240 → 1080x810, 555 px bars): noise outside the face, a mosaic inside.
        let a = try Self.grayFrame(out, at: 3.0, width: w, height: h)
        #expect(a[0..<(w * 500)].allSatisfy { $0 < 24 }, "black bar above a 4:3 video")
        let inside = Self.detail(a, width: w, x: 400..<520, y: 860..<980)
        let outside = Self.detail(a, width: w, x: 30..<170, y: 860..<980)
        #expect(outside > 8 && inside < outside / 3, "face mosaicked: inside \(inside), outside \(outside)")
        // Session b (16:9 → 1080x608 at 656): bars above and below.
        let b = try Self.grayFrame(out, at: 4.5, width: w, height: h)
        #expect(b[0..<(w * 640)].allSatisfy { $0 < 24 } && b[(w * 1280)...].allSatisfy { $0 < 24 })
        #expect(Self.detail(b, width: w, x: 40..<180, y: 700..<900) > 8)

        // Music: looped past its 3 s, faded in and out.
        let decoded = try Subprocess.run("sh", ["-c", "ffmpeg -v error -i '\(out)' -vn -ac 1 -ar 48000 -f s16le - | base64 -w0"])
        let bytes = Data(base64Encoded: decoded.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? Data()
        let samples = bytes.withUnsafeBytes { Array($0.bindMemory(to: Int16.self)) }
        let middle = Self.rms(samples, from: 4, to: 5), late = Self.rms(samples, from: 6, to: 6.5)
        #expect(middle > 1000 && late > 1000, "music plays in the middle and after its own end: \(middle), \(late)")
        #expect(Self.rms(samples, from: 0, to: 0.2) < middle / 3, "fade in")
        #expect(Self.rms(samples, from: 8.8, to: 9) < middle / 3, "fade out")
    }

    @Test("this week, horizontal, no music: one card and one session at 1920x1080, no sound; an existing output is kept")
    func thisWeekHorizontal() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let out = home.dir.path("this.mp4")
        let run = try home.reel(["--week", "this", "--layout", "horizontal", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("1 day, 1 session"), "\(run.stdout)")
        #expect(try Self.probe(out, "v:0", "stream=width,height") == ["1920", "1080"])
        let frames = Int(try Self.probe(out, "v:0", "stream=nb_frames").first ?? "") ?? 0
        #expect(abs(frames - 90) <= 2, "\(frames) frames")
        #expect(try Self.probe(out, "a", "stream=index").isEmpty, "no audio without --bgm")
        let again = try home.reel(["--week", "this", "-o", out])
        #expect(again.status == 1 && again.stderr.contains("already exists"), "\(again.stderr)")
    }

    @Test("review edits count: a disabled segment is shown as recorded, an offset one is covered where it was moved to")
    func reviewEdits() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        var disabled = PrivacyEdits()
        try disabled.apply(.disable, to: FaceSegmentID(segment: 0))
        try disabled.jsonData().write(to: URL(fileURLWithPath: home.dir.path("rec/a.privacy.json")))
        var moved = PrivacyEdits()
        try moved.apply(.offset(dx: -0.25, dy: 0), to: FaceSegmentID(segment: 0))
        try moved.jsonData().write(to: URL(fileURLWithPath: home.dir.path("rec/c.privacy.json")))
        let out = home.dir.path("edited.mp4")
        let run = try home.reel(["--week", "last", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        let (w, h) = (1080, 1920)
        // Session a (disabled): the face region keeps its detail.
        let a = try Self.grayFrame(out, at: 3.0, width: w, height: h)
        #expect(Self.detail(a, width: w, x: 400..<520, y: 860..<980) > 8, "disabled: not mosaicked")
        // Session c (16:9 → 1080x608 at y 656; box x 0.05…0.45): at 8 s, mosaic left of centre, detail at the old centre's right.
        let c = try Self.grayFrame(out, at: 8.0, width: w, height: h)
        let movedInside = Self.detail(c, width: w, x: 200..<300, y: 900..<1000)
        let oldRight = Self.detail(c, width: w, x: 620..<720, y: 900..<1000)
        #expect(movedInside < oldRight / 3, "moved: inside \(movedInside), where it was \(oldRight)")
    }

    @Test("the vlog's last picture keeps its duration: one 2 s card and one 1 s session are 3.000 s exactly")
    func exactLength() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let out = home.dir.path("exact.mp4")
        let run = try home.reel(["--week", "this", "--layout", "horizontal", "-o", out])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.probe(out, "v:0", "stream=duration") == ["3.000000"])
        #expect(try Self.probe(out, "v:0", "stream=nb_frames") == ["90"])
    }

    @Test("the vlog's output is never a session's video (also through a hard or symbolic link) nor the music")
    func outputIsNeverAnInput() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let video = home.dir.path("rec/f.mp4")
        let original = try Data(contentsOf: URL(fileURLWithPath: video))
        try FileManager.default.linkItem(atPath: video, toPath: home.dir.path("hard.mp4"))
        try FileManager.default.createSymbolicLink(atPath: home.dir.path("soft.mp4"), withDestinationPath: video)
        for output in [video, home.dir.path("hard.mp4"), home.dir.path("soft.mp4")] {
            let run = try home.reel(["--week", "this", "-o", output, "--overwrite"])
            #expect(run.status == 1 && run.stderr.contains("is the video of session ffffffff (\(video))"), "\(output): \(run.stderr)")
        }
        let music = home.dir.path("music.mp4")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "sine=f=440:sample_rate=48000", "-t", "1", "-c:a", "aac", music])
        #expect(made.status == 0, "\(made.stderr)")
        let musicBytes = try Data(contentsOf: URL(fileURLWithPath: music))
        let run = try home.reel(["--week", "this", "--bgm", music, "-o", music, "--overwrite"])
        #expect(run.status == 1 && run.stderr.contains("is the background music (--bgm)"), "\(run.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: video)) == original && (try Data(contentsOf: URL(fileURLWithPath: music))) == musicBytes)
    }

    @Test("a session video cut short: the vlog keeps what was read, says where it ends and of how long, and exits 3")
    func truncatedSession() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        // This week's session becomes 4 s long, moov first, with the last 30 % of the file missing.
        let video = home.dir.path("rec/f.mp4"), whole = home.dir.path("whole.mp4")
        try TestMedia.makeClip(at: whole, seconds: 4, width: 320, height: 240, audio: false,
                               extraArguments: ["-vf", "noise=alls=60:allf=u", "-crf", "14", "-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 7 / 10).write(to: URL(fileURLWithPath: video))
        let out = home.dir.path("cut.mp4")
        let run = try home.reel(["--week", "this", "--layout", "horizontal", "-o", out, "--json"])
        #expect(run.status == 3, "\(run.status) \(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = events.filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        let match = try #require(warnings.filter { $0.contains("\(video) ends at") }
            .compactMap { $0.firstMatch(of: /ends at (\d\.\d) s of its 4\.0 s: the rest is damaged or missing/) }.first, "\(warnings)")
        let readTo = Double(match.1)!
        #expect(readTo > 1 && readTo < 3.9, "\(warnings)")
        #expect(events.last?["partial"] as? Bool == true, "\(events.last ?? [:])")
        let length = Double(try Self.probe(out, "v:0", "stream=duration").first ?? "") ?? 0
        #expect(abs(length - (2 + readTo)) < 0.1, "the card and what was read: \(length) s")
    }

    @Test("SIGTERM while the vlog is made: it says so, removes the partial output, exits 143")
    func stoppedBySIGTERM() async throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        // This week's session reads from a pipe fed without end: the vlog cannot finish by itself.
        let pipe = home.dir.path("rec/endless.ts")
        #expect(mkfifo(pipe, 0o600) == 0)
        let feeder = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
                                                              "-c:v", "libx264", "-preset", "ultrafast", "-f", "mpegts", pipe])
        let library = try StudyLibrary(path: home.library)
        let start = try Date.ISO8601FormatStyle().parse("2026-11-25T00:00:00Z")
        try library.add(StudySession(id: UUID(uuidString: "99999999-0000-4000-8000-000000000000")!, startedAt: start,
                                     endedAt: start.addingTimeInterval(60), activeSeconds: 60, videoSeconds: 1, mode: .full,
                                     intervalSeconds: nil, filePath: pipe, thumbnailPath: nil, faceTrackPath: home.dir.path("rec/f.faces.json"),
                                     title: "Endless", tags: []))
        let out = home.dir.path("stopped.mp4")
        let vlog = try LineWatchedProcess(try ReelBinary.path(), ["vlog", "--date", "2026-11-25", "--library", home.library, "--week", "this",
                                                                 "--layout", "horizontal", "-o", out, "--json"], environment: home.environment)
        // Past Tuesday's card (60 pictures) and session (30) and Wednesday's card (60): into the endless session.
        let progress = await vlog.waitForLine(timeout: .seconds(240)) { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
            return event["event"] as? String == "progress" && (event["frames"] as? Int ?? 0) >= 160
        }
        #expect(progress != nil, "160 pictures done")
        vlog.send(SIGTERM)
        let result = await vlog.wait(timeout: .seconds(60))
        feeder.send(SIGKILL)
        _ = await feeder.wait(timeout: .seconds(10))
        #expect(!result.timedOut && !result.signalled && result.status == 143, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("reel vlog: stopped (SIGTERM): nothing was written; the partial output was removed"), "\(result.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: home.dir.url.path).filter { $0.hasPrefix(".stopped.mp4") }
        #expect(left.isEmpty && !FileManager.default.fileExists(atPath: out), "\(left)")
    }

    @Test("a session whose video is a still image is left out with a warning, as reel export refuses one")
    func stillImageSession() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        // Wednesday's usable session (History) now holds one PNG picture under its video's name.
        let video = home.dir.path("rec/c.mp4")
        try FileManager.default.removeItem(atPath: video)
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=640x360", "-frames:v", "1",
                                                 "-c:v", "png", "-f", "image2", video])
        #expect(made.status == 0, "\(made.stderr)")
        let out = home.dir.path("still.mp4")
        let run = try home.reel(["--week", "last", "--layout", "horizontal", "-o", out, "--json"])
        #expect(run.status == 0, "\(run.status) \(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = events.filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        #expect(warnings.contains { $0.contains("\(video) is a still image (png), not a video; skipped") }, "\(warnings)")
        let done = try #require(events.last { $0["event"] as? String == "done" })
        #expect(done["sessions"] as? Int == 2 && done["cards"] as? Int == 1, "Monday's two sessions only: \(done)")
    }

    @Test("a disk that fills while the vlog is finished (the remux): it says it failed and that nothing was written, and leaves no file (tmpfs in a private mount namespace; root)")
    func fullDiskWhileFinishing() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        // How big the vlog is: a tmpfs of 1.5 times that holds the encoded video, not a second copy of it.
        let whole = try home.reel(["--week", "this", "--layout", "horizontal", "-o", home.dir.path("whole.mp4")])
        #expect(whole.status == 0, "\(whole.stderr)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: home.dir.path("whole.mp4"))[.size] as? NSNumber).intValue
        let small = home.dir.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let script = #"mount -t tmpfs -o size="$4"k reel-test-vlog "$1" || exit 97; "$2" vlog --date 2026-11-25 --library "$3" --week this --layout horizontal -o "$1/out.mp4"; status=$?; echo "left: $(ls -A "$1" | wc -l)"; exit $status"#
        let result = try Subprocess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                             small, try ReelBinary.path(), home.library, String(bytes * 3 / 2 / 1024)],
                                        environment: home.environment)
        #expect(result.status != 97, "could not mount a tmpfs (root and util-linux's unshare needed): \(result.stderr)")
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("making the vlog failed after 90 pictures: ")
                && result.stderr.contains("; nothing was written to \(small)/out.mp4"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("left: 0\n"), "no output and no hidden file: \(result.stdout)")
    }

    @Test("an empty week, or one whose every session is left out, is a clear error and writes nothing; a missing --bgm file too")
    func emptyWeek() throws {
        let home = try Home()
        defer { home.dir.cleanup() }
        let out = home.dir.path("empty.mp4")
        let run = try ReelBinary.run(["vlog", "--date", "2026-12-30", "--week", "last", "--library", home.library, "-o", out],
                                     environment: home.environment)
        #expect(run.status == 1 && run.stderr.contains("no study sessions were recorded from 2026-12-21 to 2026-12-27"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let music = try home.reel(["--bgm", home.dir.path("nope.mp3"), "-o", out])
        #expect(music.status == 1 && music.stderr.contains("does not exist"), "\(music.stderr)")
        // A week whose every session is left out: the warning, then an error; nothing written.
        try FileManager.default.removeItem(atPath: home.dir.path("rec/f.mp4"))
        let none = try home.reel(["--week", "this", "-o", out])
        #expect(none.status == 1 && none.stderr.contains("This week") && none.stderr.contains("missing")
                && none.stderr.contains("none of the sessions from 2026-11-23 to 2026-11-29 could be used"), "\(none.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: home.dir.url.path)
        #expect(!leftovers.contains { $0.hasPrefix(".empty.mp4") }, "\(leftovers)")
    }
}
