import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// `reel live --privacy`: the faces of a real-time file source are covered before the stream is
/// encoded. The published segments (init + segments joined, as a player reads them) are scored
/// frame by frame with the export's leak meter against the clip's known faces, each published
/// frame paired with the clip's frame at its time (a stream may leave a frame out under load);
/// the same run without `--privacy` shows the meter sees the faces.
@Suite("reel live --privacy: faces covered in the stream itself", .serialized)
struct LivePrivacyTests {
    static func environment(_ dir: TemporaryDirectory, models: String = TestModels.folder) -> [String: String] {
        ["XDG_STATE_HOME": dir.path("state"), "XDG_VIDEOS_DIR": dir.path("videos"), "REEL_MODELS_DIR": models]
    }

    /// The clip's faces (two astronauts, one smaller, 6 s at 720p), made once per run.
    static func clip() throws -> PrivacyClips.Clip {
        try SharedFixtures.shared("live-privacy-\(PrivacyClips.name(.twoFaces, width: 1280, height: 720))") { folder in
            try PrivacyClips.make(.twoFaces, width: 1280, height: 720, in: folder, photo: TestPhotos.astronautPath)
        }
    }

    /// Streams `clip` in real time to a folder at the clip's size; the published stream as one
    /// file (a ladder: the stream's folder), and the run.
    static func stream(_ clip: PrivacyClips.Clip, _ dir: TemporaryDirectory, _ extra: [String],
                       quality: [String] = ["--quality", "medium"], archive: String? = nil) throws -> (String, Subprocess) {
        let run = try ReelBinary.run(["live", "--source", "file:" + clip.video, "--output", dir.path("out"), "--stream-id", "faces",
                                      "--landscape", "--quiet"] + (archive.map { ["--archive", $0] } ?? ["--no-archive"]) + quality + extra,
                                     environment: environment(dir))
        // A ladder's rungs are each in a folder of their own: the caller joins them.
        let folder = dir.path("out/streams/faces")
        guard FileManager.default.fileExists(atPath: folder + "/seg") else { return (folder, run) }
        return (try PublishedStream.joined(folder, into: dir.path("published.mp4")), run)
    }

    /// A real-time stream leaves pictures out when the machine cannot keep up, and its summary
    /// counts them ("N frames dropped"): every clip frame the published stream lacks must be one
    /// it counted (fewer may be missing: where drops reach past a segment's end, the segmenter
    /// repeats the picture before in that place), and enough must be published for the leak
    /// count to mean something.
    static func expectAccounted(_ report: LeakReport, summary stdout: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let dropped = stdout.firstMatch(of: /(\d+) frames dropped/).flatMap { Int($0.1) }
        #expect(dropped.map { report.framesLeftOut <= $0 } ?? false,
                "the summary's drops against the frames the stream lacks: \(stdout)\n\(report.summary)", sourceLocation: sourceLocation)
        #expect(report.framesWithFace >= 30, "\(report.summary)", sourceLocation: sourceLocation)
    }

    /// Every leaking frame with the face's layer and correlation, for the failure message.
    static func leaks(_ report: LeakReport) -> String {
        report.frames.filter(\.leaked).map { frame in
            "#\(frame.index): " + frame.result.faces.filter(\.leaked).map { "face \($0.layer) r=\(String(format: "%.2f", $0.correlation))" }
                .joined(separator: ", ")
        }.joined(separator: "\n")
    }

    @Test("--privacy mosaic: no published frame shows a face, the archive keeps them; without it, the meter sees them")
    func mosaic() throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let archive = dir.path("archive.mp4")
        let (published, run) = try Self.stream(clip, dir, ["--privacy", "mosaic"], archive: archive)
        try #require(run.status == 0, "reel live failed: \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("faces: mosaic, found and covered before encoding"), "\(run.stdout)")
        #expect(run.stdout.contains("the archive keeps the picture as captured"), "\(run.stdout)")
        #expect(run.stdout.contains("faces: ok — mosaic"), "\(run.stdout)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
        print("live privacy \(clip.truth.name): \(run.stdout)\n\(report.summary)")
        Self.expectAccounted(report, summary: run.stdout)
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
        // Without --privacy-archive the archive keeps the faces. Its 1080p HEVC beside the
        // detector and the stream may not keep up on two cores (this clip's background is hard
        // to encode; on a loaded machine it can keep as few as 1 frame in 20): then it leaves
        // frames out on purpose, says how many it kept, and the frames it kept are measured.
        let kept = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: archive, pairing: .byTime)
        print("the archive:\n\(kept.summary)")
        let archived = run.stdout.firstMatch(of: /archive: ok — .*, (\d+) frames/).flatMap { Int($0.1) }
        #expect(archived == kept.frames.count, "the summary's count against the archive's frames: \(run.stdout)")
        #expect(kept.framesWithFace >= 1 && kept.leakedFrames.count > kept.framesWithFace * 9 / 10, "\(kept.summary)")

        let plainDir = try TemporaryDirectory()
        defer { plainDir.cleanup() }
        let (plain, plainRun) = try Self.stream(clip, plainDir, [])
        try #require(plainRun.status == 0, "reel live failed: \(plainRun.stderr)")
        let shown = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: plain, pairing: .byTime)
        print("the same without --privacy:\n\(shown.summary)")
        #expect(shown.leakedFrames.count > shown.framesWithFace * 9 / 10, "the meter sees the faces of the plain stream: \(shown.summary)")
    }

    @Test("--fast: a file read faster than the detector waits for it; every picture gets the faces of the detections after it, none leaks; --privacy-archive covers the archive too")
    func fasterThanTheDetector() throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let archive = dir.path("archive.mp4")
        let (published, run) = try Self.stream(clip, dir, ["--privacy", "mosaic", "--fast", "--privacy-archive"], archive: archive)
        try #require(run.status == 0, "reel live failed: \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("the archive is covered too"), "\(run.stdout)")
        // 6 s of video, a detection every 0.2 s: none skipped, none late.
        #expect(run.stdout.contains("faces: ok — mosaic, 30 detections"), "\(run.stdout)")
        #expect(!run.stdout.contains("detection fell behind"), "\(run.stdout)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
        print("live privacy --fast:\n\(report.summary)")
        #expect(report.framesLeftOut == 0 && report.framesWithFace > 150, "\(report.summary)")
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
        // Not in real time, the archive keeps every picture, each covered.
        let covered = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: archive, pairing: .byTime)
        print("the archive with --privacy-archive:\n\(covered.summary)")
        #expect(covered.framesLeftOut == 0 && covered.framesWithFace > 150)
        #expect(covered.leakedFrames.isEmpty, "the covered archive leaks (\(covered.leakedRanges)):\n\(Self.leaks(covered))")
    }

    /// The default tier holds the start's check (`missingModel()`); this adds the file going away after the start.
    @Test("the model removed while streaming: it was read at the start, so the stream goes on covered and ends well (long tier: make test-long)", .longTier)
    func modelRemovedMidRunLongTier() async throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let models = dir.path("models")
        try FileManager.default.createDirectory(atPath: models, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: TestModels.folder + "/centerface.onnx", toPath: models + "/centerface.onnx")
        let live = try BackgroundProcess(try ReelBinary.path(), ["live", "--source", "file:" + clip.video, "--output", dir.path("out"),
                                                                 "--stream-id", "faces", "--landscape", "--no-archive", "--quiet",
                                                                 "--quality", "medium", "--privacy", "mosaic"],
                                         environment: Self.environment(dir, models: models))
        let segments = dir.path("out/streams/faces/seg")
        _ = try await eventually("the first segment", within: 30) {
            ((try? FileManager.default.contentsOfDirectory(atPath: segments)) ?? []).first { $0.hasSuffix(".m4s") }
        }
        try FileManager.default.removeItem(atPath: models + "/centerface.onnx")
        let run = await live.wait(timeout: .seconds(60))
        try #require(!run.timedOut && run.status == 0, "reel live: \(run.status) \(run.stdout) \(run.stderr)")
        #expect(run.stdout.contains("faces: ok — mosaic"), "\(run.stdout)")
        let published = try PublishedStream.joined(dir.path("out/streams/faces"), into: dir.path("published.mp4"))
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
        print("live privacy, model removed:\n\(report.summary)")
        Self.expectAccounted(report, summary: run.stdout)
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
    }

    @Test("--ladder with --privacy mask: every rung is made from covered pictures (long tier: make test-long)", .longTier)
    func everyRungLongTier() throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let (_, run) = try Self.stream(clip, dir, ["--privacy", "mask"], quality: ["--ladder", "low,medium"])
        try #require(run.status == 0, "reel live failed: \(run.stdout) \(run.stderr)")
        for rung in ["low", "medium"] {
            let published = try PublishedStream.joined(dir.path("out/streams/faces/\(rung)"), into: dir.path("\(rung).mp4"))
            let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
            print("live privacy, rung \(rung):\n\(report.summary)")
            Self.expectAccounted(report, summary: run.stdout)
            #expect(report.leakedFrames.isEmpty, "rung \(rung) leaks (\(report.leakedRanges)):\n\(Self.leaks(report))")
        }
    }

    @Test("to reel serve with --low-latency: the segments on the origin are covered, and the playlist still conforms (long tier: make test-long)",
          .longTier)
    func toTheOriginLongTier() async throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try await withReelServeOrigin { origin in
            let run = try ReelBinary.run(["live", "--source", "file:" + clip.video, "--origin", origin.baseURL.absoluteString, "--token", origin.token,
                                          "--stream-id", "faces", "--landscape", "--quality", "medium", "--no-archive", "--quiet",
                                          "--low-latency", "--privacy", "mosaic"], environment: Self.environment(dir))
            try #require(run.status == 0, "reel live failed: \(run.stdout) \(run.stderr)")
            let playlist = String(decoding: try await origin.get("streams/faces/playlist.m3u8").body, as: UTF8.self)
            #expect(playlist.contains("#EXT-X-PART:") && playlist.contains("#EXT-X-ENDLIST"), "\(playlist)")
            #expect(LLHLSConformance.violations(playlist) == [])
            var joined = try await origin.get("streams/faces/init.mp4").body
            for uri in playlist.split(separator: "\n").filter({ !$0.hasPrefix("#") && !$0.isEmpty }) {
                joined += try await origin.get("streams/faces/" + uri).body
            }
            try joined.write(to: URL(fileURLWithPath: dir.path("origin.mp4")))
            let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("origin.mp4"), pairing: .byTime)
            print("live privacy to reel serve:\n\(report.summary)")
            Self.expectAccounted(report, summary: run.stdout)
            #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
        }
    }

    /// The default tier holds the border's rule (`CenterFaceEdgeTests`: the live border finds the
    /// faces cut by each edge); this is the whole stream on the export's edge clip, where the
    /// look-back along the way in and the walk-out rule do the work (it passed with no border at
    /// all too: a face that walks keeps its track; the border is for one that stays cut).
    @Test("faces walking out of every edge and back in, in real time: no published frame shows one (long tier: make test-long)", .longTier)
    func edgesLongTier() throws {
        let clip = try SharedFixtures.shared("live-privacy-\(PrivacyClips.name(.edges, width: 1280, height: 720))") { folder in
            try PrivacyClips.make(.edges, width: 1280, height: 720, in: folder, photo: TestPhotos.astronautPath)
        }
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let (published, run) = try Self.stream(clip, dir, ["--privacy", "mosaic"])
        try #require(run.status == 0, "reel live failed: \(run.stdout) \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: published, pairing: .byTime)
        print("live privacy \(clip.truth.name): \(run.stdout)\n\(report.summary)")
        Self.expectAccounted(report, summary: run.stdout)
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
    }

    @Test("--privacy without the CenterFace model refuses to start, saying how to get it; nothing is published")
    func missingModel() throws {
        let clip = try Self.clip()
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let run = try ReelBinary.run(["live", "--source", "file:" + clip.video, "--output", dir.path("out"), "--stream-id", "faces",
                                      "--no-archive", "--privacy", "mask"],
                                     environment: Self.environment(dir, models: dir.path("no-models")))
        #expect(run.status == 1)
        #expect(run.stderr.contains("--privacy needs the CenterFace model") && run.stderr.contains("make setup"), "\(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("out/streams/faces")), "nothing published")
    }
}
