import Foundation
import ReelTestSupport
import Testing

/// Four ways an export once went wrong, through the `reel` binary: an export never writes over
/// its own input, is stopped cleanly by Ctrl-C and SIGTERM, keeps the last picture's duration,
/// and says when its source is damaged or is no video at all.
@Suite("reel export: its input is safe, stops are clean, durations exact, damage told", .serialized)
struct ExportSafetyTests {
    /// `count` pictures at `rate` per second, 320x240, no audio (a Reel timelapse is 10 fps).
    static func clip(_ path: String, pictures count: Int, rate: Int) throws {
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=\(rate)",
                                                 "-frames:v", String(count), "-c:v", "libx264", path])
        #expect(made.status == 0, "\(made.stderr)")
    }

    static func probe(_ path: String, _ entries: String, stream: String = "v:0") throws -> String {
        let run = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", stream, "-show_entries", entries,
                                                 "-of", "default=nw=1:nk=1", path])
        return run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func hiddenFiles(in folder: String, of name: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".\(name).") }
    }

    // MARK: the output is never the input

    @Test("the output is never the input: same path, a symbolic link, a hard link, a path through a missing folder's '..'; nor --faces-out")
    func outputIsNeverTheInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let face = dir.path("face.mp4")
        try Self.clip(face, pictures: 10, rate: 10)
        let original = try Data(contentsOf: URL(fileURLWithPath: face))
        try FileManager.default.createSymbolicLink(atPath: dir.path("soft.mp4"), withDestinationPath: face)
        try FileManager.default.linkItem(atPath: face, toPath: dir.path("hard.mp4"))
        for output in [face, dir.path("soft.mp4"), dir.path("hard.mp4"), dir.path("missing/../face.mp4")] {
            let run = try ReelBinary.run(["export", face, "-o", output, "--overwrite", "--privacy", "none"])
            #expect(run.status == 1 && run.stderr.contains("is the video being exported (\(face))") && run.stderr.contains("choose another -o"),
                    "\(output): \(run.status) \(run.stderr)")
        }
        let facesOut = try ReelBinary.run(["export", face, "-o", dir.path("out.mp4"), "--faces-out", dir.path("hard.mp4"), "--detector", "haar"])
        #expect(facesOut.status == 1 && facesOut.stderr.contains("--faces-out \(dir.path("hard.mp4")) is the video being exported"),
                "\(facesOut.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: face)) == original, "the original is untouched")
        let attributes = try FileManager.default.attributesOfItem(atPath: dir.path("soft.mp4"))
        #expect(attributes[.type] as? FileAttributeType == .typeSymbolicLink, "the link is still a link")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        #expect(Self.hiddenFiles(in: dir.url.path, of: "face.mp4").isEmpty)
    }

    // MARK: the last picture's duration

    @Test("the last picture keeps its own duration: 24 timelapse pictures are 2.400 s, one is 0.100 s, 90 at 30 fps are 3.000 s")
    func lastPictureDuration() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        for (pictures, rate, seconds) in [(24, 10, "2.400000"), (1, 10, "0.100000"), (90, 30, "3.000000")] {
            let source = dir.path("src-\(pictures).mp4"), output = dir.path("out-\(pictures).mp4")
            try Self.clip(source, pictures: pictures, rate: rate)
            #expect(try Self.probe(source, "stream=duration") == seconds, "the source itself")
            let run = try ReelBinary.run(["export", source, "-o", output, "--privacy", "none", "--size", "source", "--json"])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(try Self.probe(output, "stream=duration") == seconds, "\(pictures) pictures at \(rate) fps")
            #expect(try Self.probe(output, "format=duration") == seconds)
            #expect(try Self.probe(output, "stream=nb_frames") == String(pictures))
            let done = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.last
            #expect(abs((done?["videoSeconds"] as? Double ?? 0) - Double(seconds)!) < 0.0005, "the report says so too: \(done ?? [:])")
        }
    }

    // MARK: a damaged source, or no video at all

    @Test("a faststart MP4 cut short is exported as far as it goes, with a warning saying how far, and exit status 3")
    func truncatedSource() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let whole = dir.path("whole.mp4"), cut = dir.path("cut.mp4"), output = dir.path("out.mp4")
        try TestMedia.makeClip(at: whole, seconds: 20, width: 320, height: 240, extraArguments: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count * 885 / 1000).write(to: URL(fileURLWithPath: cut))
        let run = try ReelBinary.run(["export", cut, "-o", output, "--privacy", "none", "--size", "source", "--json"])
        #expect(run.status == 3, "\(run.status) \(run.stderr)")
        let events = run.stdout.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        let warnings = events.filter { $0["event"] as? String == "warning" }.compactMap { $0["message"] as? String }
        let pattern = /ends at (\d+\.\d) s of its 20\.0 s: the rest is damaged or missing.*; exported (\d+\.\d) s/
        let match = try #require(warnings.compactMap { $0.firstMatch(of: pattern) }.first, "\(warnings)")
        let readTo = Double(match.1)!, exported = Double(match.2)!
        #expect(readTo > 10 && readTo < 19.5 && abs(readTo - exported) <= 0.1, "\(warnings)")
        let done = try #require(events.last { $0["event"] as? String == "done" })
        #expect(done["partial"] as? Bool == true, "\(done)")
        let kept = Double(try Self.probe(output, "stream=duration")) ?? 0
        #expect(abs(kept - exported) < 0.1, "the partial export is kept and is as long as said: \(kept)")
        let help = try ReelBinary.run(["export", "--help"])
        #expect(help.stdout.contains("3 exported only in part"), "\(help.stdout)")
    }

    @Test("a still image is not a video: refused with what it is, nothing written")
    func stillImage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let png = dir.path("photo.png")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "testsrc2=size=64x48", "-frames:v", "1", png])
        #expect(made.status == 0, "\(made.stderr)")
        let run = try ReelBinary.run(["export", png, "-o", dir.path("out.mp4"), "--privacy", "none"])
        #expect(run.status == 1 && run.stderr.contains("\(png) is a still image (png), not a video"), "\(run.status) \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out.mp4")))
        #expect(Self.hiddenFiles(in: dir.url.path, of: "out.mp4").isEmpty)
    }

    // MARK: clean stops

    /// An endless 320x240 video through a named pipe: the export cannot end by itself, so it
    /// is stopped at a moment it announces (N pictures done), not after a sleep.
    struct EndlessSource {
        let path: String
        let feeder: BackgroundProcess

        init(at path: String) throws {
            self.path = path
            #expect(mkfifo(path, 0o600) == 0, "mkfifo \(path)")
            feeder = try BackgroundProcess("/usr/bin/ffmpeg", ["-v", "quiet", "-y", "-f", "lavfi", "-i", "testsrc2=size=320x240:rate=30",
                                                             "-c:v", "libx264", "-preset", "ultrafast", "-f", "mpegts", path])
        }

        func stop() async {
            feeder.send(SIGKILL)
            _ = await feeder.wait(timeout: .seconds(10))
        }
    }

    @Test("Ctrl-C and SIGTERM during an export: it says so, removes the partial output, exits 130 / 143", arguments: [SIGINT, SIGTERM])
    func stopped(by signal: Int32) async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try EndlessSource(at: dir.path("endless.ts"))
        let output = dir.path("out.mp4")
        let export = try LineWatchedProcess(try ReelBinary.path(), ["export", source.path, "-o", output, "--privacy", "none", "--json"])
        let progress = await export.waitForLine(timeout: .seconds(120)) { line in
            guard let event = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return false }
            return event["event"] as? String == "progress" && (event["frames"] as? Int ?? 0) >= 30
        }
        #expect(progress != nil, "30 pictures done")
        #expect(Self.hiddenFiles(in: dir.url.path, of: "out.mp4").contains { $0.contains(".video-") }, "the partial output exists before the stop")
        export.send(signal)
        let result = await export.wait(timeout: .seconds(60))
        await source.stop()
        let (name, status) = signal == SIGINT ? ("Ctrl-C", Int32(130)) : ("SIGTERM", Int32(143))
        #expect(!result.timedOut && !result.signalled && result.status == status, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("reel export: stopped (\(name)): nothing was written; the partial output was removed"), "\(result.stderr)")
        #expect(result.stdout.contains("\"event\":\"stopped\""), "\(result.stdout.suffix(300))")
        #expect(Self.hiddenFiles(in: dir.url.path, of: "out.mp4").isEmpty, "\(Self.hiddenFiles(in: dir.url.path, of: "out.mp4"))")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a second Ctrl-C right after the first: whether it ends the process at once or comes too late, no hidden file is left")
    func secondInterrupt() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try EndlessSource(at: dir.path("endless.ts"))
        let output = dir.path("out.mp4")
        let export = try LineWatchedProcess(try ReelBinary.path(), ["export", source.path, "-o", output, "--privacy", "none", "--json"])
        let progress = await export.waitForLine(timeout: .seconds(120)) { $0.contains("\"event\":\"progress\"") && !$0.contains("\"frames\":0,") }
        #expect(progress != nil)
        #expect(!Self.hiddenFiles(in: dir.url.path, of: "out.mp4").isEmpty, "the partial output exists before the stop")
        export.send(SIGINT)
        export.send(SIGINT)
        let result = await export.wait(timeout: .seconds(60))
        await source.stop()
        let cleanStop = !result.signalled && result.status == 130 && result.stderr.contains("reel export: stopped (Ctrl-C)")
        let escalated = result.signalled && result.status == SIGINT
        #expect(!result.timedOut && (cleanStop || escalated), "\(result.status) \(result.signalled) \(result.stderr)")
        #expect(Self.hiddenFiles(in: dir.url.path, of: "out.mp4").isEmpty, "\(Self.hiddenFiles(in: dir.url.path, of: "out.mp4"))")
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    @Test("a disk that fills while the export is finished (the remux): it says it failed and that nothing was written, and leaves no file (tmpfs in a private mount namespace; root)")
    func fullDiskWhileFinishing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = dir.path("noise.mp4")
        try TestMedia.makeClip(at: source, seconds: 3, width: 640, height: 360, audio: false,
                               extraArguments: ["-vf", "noise=alls=60:allf=u", "-crf", "14"])
        // How big the export is: a tmpfs of 1.5 times that holds the encoded video, not a second copy of it.
        let whole = try ReelBinary.run(["export", source, "-o", dir.path("whole.mp4"), "--privacy", "none"])
        #expect(whole.status == 0, "\(whole.stderr)")
        let bytes = try #require(try FileManager.default.attributesOfItem(atPath: dir.path("whole.mp4"))[.size] as? NSNumber).intValue
        let small = dir.path("small")
        try FileManager.default.createDirectory(atPath: small, withIntermediateDirectories: true)
        let script = #"mount -t tmpfs -o size="$4"k reel-test-export "$1" || exit 97; "$2" export "$3" -o "$1/out.mp4" --privacy none; status=$?; echo "left: $(ls -A "$1" | wc -l)"; exit $status"#
        let result = try Subprocess.run("/usr/bin/unshare", ["--mount", "--propagation", "private", "/bin/sh", "-c", script, "sh",
                                                             small, try ReelBinary.path(), source, String(bytes * 3 / 2 / 1024)])
        #expect(result.status != 97, "could not mount a tmpfs (root and util-linux's unshare needed): \(result.stderr)")
        #expect(result.status == 1, "\(result.status) \(result.stderr)")
        #expect(result.stderr.contains("exporting \(source) failed after 90 pictures: ")
                && result.stderr.contains("; nothing was written to \(small)/out.mp4"), "\(result.stderr)")
        #expect(result.stdout.hasSuffix("left: 0\n"), "no output and no hidden file: \(result.stdout)")
    }

    @Test("hidden files an export killed outright left behind are removed by the next export to the same output; a running one's are not")
    func staleHiddenFiles() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = dir.path("src.mp4")
        try Self.clip(source, pictures: 5, rate: 10)
        // A process that has ended: its id names no process any more.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let gone = ended.processIdentifier, alive = getpid()
        let stale = [".out.mp4.video-\(gone)-1f2e.mp4", ".out.mp4.finishing-\(gone)-1f2e.mp4"]
        let kept = [".out.mp4.video-\(alive)-2a3b.mp4", ".other.mp4.video-\(gone)-1f2e.mp4", ".out.mp4.video-4c5d.mp4"]
        for name in stale + kept { try Data("partial".utf8).write(to: URL(fileURLWithPath: dir.path(name))) }
        let run = try ReelBinary.run(["export", source, "-o", dir.path("out.mp4"), "--privacy", "none"])
        #expect(run.status == 0, "\(run.stderr)")
        let left = Set((try FileManager.default.contentsOfDirectory(atPath: dir.url.path)).filter { $0.hasPrefix(".") })
        #expect(left == Set(kept), "only files of processes that are gone, of this output, named by Reel: \(left)")
        #expect(run.stdout.contains("removed 2 hidden partial files"), "\(run.stdout)")
    }
}
