import Foundation
import ReelCore
import ReelExport
import ReelTestSupport
import ReelVision
import Testing

/// The exporter in process on synthetic clips (testsrc2 with a fixed pattern of fine noise,
/// so there is detail everywhere: a mosaic shows as a large difference, an untouched area as
/// encoding noise only), with stored tracks and scripted detectors.
@Suite("Privacy exporter", .serialized)
struct PrivacyExporterTests {
    final class Collect: ExportReporter, @unchecked Sendable {
        private let lock = NSLock()
        private var _warnings: [String] = [], _progress: [ExportProgress] = []
        var warnings: [String] { lock.withLock { _warnings } }
        var progress: [ExportProgress] { lock.withLock { _progress } }
        func info(_ line: String) {}
        func warning(_ line: String) { lock.withLock { _warnings.append(line) } }
        func progress(_ progress: ExportProgress) { lock.withLock { _progress.append(progress) } }
    }

    /// A detector that answers from a script by call number (one call per 0.2 s tick).
    final class ScriptedDetector: FaceDetector, @unchecked Sendable {
        let name = "scripted"
        private let lock = NSLock()
        private var calls = 0
        let script: @Sendable (Int) -> [NormalizedRect]
        init(_ script: @escaping @Sendable (Int) -> [NormalizedRect]) { self.script = script }
        var callCount: Int { lock.withLock { calls } }
        func detect(_ picture: DetectorPicture) throws -> [Detection] {
            let n = lock.withLock { () -> Int in defer { calls += 1 }; return calls }
            return script(n).map { Detection(kind: .face, box: $0, score: 0.9) }
        }
    }

    static let width = 1280, height = 720

    func clip(_ dir: TemporaryDirectory, seconds: Int = 4, audio: Bool = true) throws -> String {
        let path = dir.path("clip.mp4")
        try TestMedia.makeClip(at: path, seconds: seconds, width: Self.width, height: Self.height, audio: audio,
                               extraArguments: ["-vf", "noise=alls=40:allf=u", "-crf", "16", "-preset", "veryfast"])
        return path
    }

    func session(video: String) -> StudySession {
        StudySession(id: UUID(), startedAt: Date(timeIntervalSince1970: 1_796_000_000), endedAt: Date(timeIntervalSince1970: 1_796_000_004),
                     activeSeconds: 4, videoSeconds: 4, mode: .full, intervalSeconds: nil, filePath: video, thumbnailPath: nil,
                     faceTrackPath: nil, title: "Exported", tags: [])
    }

    /// A track with the same box every 0.2 s for `seconds`.
    func track(_ box: NormalizedRect, seconds: Double, segment: Int = 0, from start: Double = 0, kind: FaceTrackSample.Kind = .face) -> [FaceTrackSample] {
        stride(from: start, to: start + seconds, by: 0.2).map {
            FaceTrackSample(time: MediaTime(seconds: $0, timescale: 600), segment: segment, kind: kind, box: box)
        }
    }

    /// The middle of a box (its inner 50 %): inside the mosaic's opaque ellipse.
    func core(_ box: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: box.x + box.width / 4, y: box.y + box.height / 4, width: box.width / 2, height: box.height / 2)
    }

    @Test("a session's stored track: the mosaic hides the box, the rest is as in the source, audio copied packet for packet, moov first, nothing else left")
    func storedTrack() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try clip(dir)
        let box = NormalizedRect(x: 0.40, y: 0.30, width: 0.20, height: 0.35)
        var settings = ExportSettings(input: .session(session(video: source)), outputPath: dir.path("out/export.mp4"))
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        settings.faceTrack = FaceTrack(samples: track(box, seconds: 4.2))
        settings.size = .source
        let reporter = Collect()
        let report = try PrivacyExporter(settings: settings, reporter: reporter).run()
        #expect(report.frames == 120 && report.width == Self.width && report.height == Self.height)
        #expect(report.audioCopied && report.coveredAreas == 120 && report.detector == nil)
        #expect(abs(report.videoSeconds - 4) < 0.05)
        #expect(reporter.progress.last?.frames == 120)
        let output = dir.path("out/export.mp4")
        #expect(try ExportInspection.moovFirst(output))
        #expect(try ExportInspection.probe(output, "stream=codec_name") == ["h264", "aac"])
        #expect(try ExportInspection.audioPacketsMD5(output) == ExportInspection.audioPacketsMD5(source), "the audio is copied, not re-encoded")
        let a = try ExportInspection.grayFrames(of: source, width: Self.width, height: Self.height)
        let b = try ExportInspection.grayFrames(of: output, width: Self.width, height: Self.height)
        #expect(a.count == 120 && b.count == 120)
        let outside = NormalizedRect(x: 0, y: 0, width: 0.3, height: 1)
        for i in stride(from: 0, to: 120, by: 10) {
            let hidden = ExportInspection.meanDifference(a[i], b[i], width: Self.width, height: Self.height, in: core(box))
            let kept = ExportInspection.meanDifference(a[i], b[i], width: Self.width, height: Self.height, in: outside)
            #expect(hidden > 7, "frame \(i): the face box is hidden (mean difference \(hidden))")
            #expect(kept < 4.5, "frame \(i): the rest is the source up to encoding noise (\(kept))")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path("out")) == ["export.mp4"], "no hidden file left")
    }

    @Test("--privacy stamp: the image covers the box (fitted, alpha-blended); a review stamp replaces the mosaic for its segment only")
    func stamp() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try clip(dir, seconds: 2, audio: false)
        let white = dir.path("white.png")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=white:s=64x64,format=rgba", "-frames:v", "1", white])
        #expect(made.status == 0, "\(made.stderr)")
        let box = NormalizedRect(x: 0.40, y: 0.30, width: 0.20, height: 0.35)
        var settings = ExportSettings(input: .session(session(video: source)), outputPath: dir.path("stamped.mp4"))
        settings.faceTrack = FaceTrack(samples: track(box, seconds: 2.2))
        settings.size = .source
        settings.privacy = .stamp(path: white)
        _ = try PrivacyExporter(settings: settings, reporter: Collect()).run()
        let b = try ExportInspection.grayFrames(of: dir.path("stamped.mp4"), width: Self.width, height: Self.height)
        // The square stamp is fitted into the box and centred: its middle is white (luma ≈ 235 in limited range, 255 decoded).
        let centre = NormalizedRect(x: 0.48, y: 0.45, width: 0.04, height: 0.05)
        var sum = 0, count = 0
        for y in Int(centre.y * 720)..<Int((centre.y + centre.height) * 720) {
            for x in Int(centre.x * 1280)..<Int((centre.x + centre.width) * 1280) { sum += Int(b[30][y * 1280 + x]); count += 1 }
        }
        #expect(Double(sum) / Double(count) > 245, "the stamp is there: mean grey \(Double(sum) / Double(count))")
    }

    @Test("review edits: a disabled segment's pictures are as in the source while the other segment stays hidden; an offset moves the box")
    func edits() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try clip(dir, audio: false)
        let first = NormalizedRect(x: 0.1, y: 0.2, width: 0.2, height: 0.3), second = NormalizedRect(x: 0.6, y: 0.4, width: 0.2, height: 0.3)
        let faceTrack = FaceTrack(samples: track(first, seconds: 2) + track(second, seconds: 2.2, segment: 1, from: 2, kind: .widenedFace))
        var settings = ExportSettings(input: .session(session(video: source)), outputPath: dir.path("export.mp4"))
        settings.faceTrack = faceTrack
        settings.size = .source
        try settings.edits.apply(.disable, to: FaceSegmentID(segment: 1), in: faceTrack)
        try settings.edits.apply(.offset(dx: 0.2, dy: 0), to: FaceSegmentID(segment: 0), in: faceTrack)
        _ = try PrivacyExporter(settings: settings, reporter: Collect()).run()
        let a = try ExportInspection.grayFrames(of: source, width: Self.width, height: Self.height)
        let b = try ExportInspection.grayFrames(of: dir.path("export.mp4"), width: Self.width, height: Self.height)
        func diff(_ i: Int, _ r: NormalizedRect) -> Double { ExportInspection.meanDifference(a[i], b[i], width: Self.width, height: Self.height, in: r) }
        let moved = NormalizedRect(x: 0.3, y: 0.2, width: 0.2, height: 0.3)
        for i in [5, 30, 50] {
            #expect(diff(i, core(moved)) > 7, "frame \(i): segment 0 hidden where the offset put it")
            #expect(diff(i, core(first)) < 4.5, "frame \(i): not where it was recorded")
        }
        for i in [70, 90, 115] {
            #expect(diff(i, core(second)) < 4.5, "frame \(i): the disabled segment is left as recorded")
            #expect(diff(i, core(moved)) < 4.5, "frame \(i): segment 0's box is not used after its last sample's segment ended")
        }
        // The raw track is not touched by edits.
        #expect(faceTrack.samples.first?.box == first)
    }

    @Test("faces found while exporting: one detection per 0.2 s, boxes interpolated in between, a face appearing is covered from the tick before")
    func detection() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try clip(dir, audio: false)
        // Face A moves right 0.02 per tick; face B appears at the 6th detection (1.0 s).
        let detector = ScriptedDetector { n in
            [NormalizedRect(x: 0.10 + 0.02 * Double(n), y: 0.30, width: 0.08, height: 0.14)]
                + (n >= 5 ? [NormalizedRect(x: 0.70, y: 0.55, width: 0.08, height: 0.14)] : [])
        }
        var settings = ExportSettings(input: .file(source), outputPath: dir.path("export.mp4"))
        settings.size = .source
        let report = try PrivacyExporter(settings: settings, reporter: Collect(), detector: { FaceDetectorChoice(detector: detector, warning: nil) }).run()
        #expect(detector.callCount == 20 && report.detections == 20, "4 s at 0.2 s")
        #expect(report.subjects == 2 && report.detector == "scripted")
        let a = try ExportInspection.grayFrames(of: source, width: Self.width, height: Self.height)
        let b = try ExportInspection.grayFrames(of: dir.path("export.mp4"), width: Self.width, height: Self.height)
        func diff(_ i: Int, _ r: NormalizedRect) -> Double { ExportInspection.meanDifference(a[i], b[i], width: Self.width, height: Self.height, in: r) }
        // Between ticks 3 (0.6 s) and 4 (0.8 s), frame 21 (0.7 s): face A is near x 0.17 + its width.
        let faceA = NormalizedRect(x: 0.17, y: 0.30, width: 0.08, height: 0.14)
        #expect(diff(21, core(faceA)) > 7, "between two detections the face is covered")
        // Face B first detected at 1.0 s; frames 25–29 (0.83–0.97 s) come before that detection.
        let faceB = NormalizedRect(x: 0.70, y: 0.55, width: 0.08, height: 0.14)
        for i in 25...29 { #expect(diff(i, core(faceB)) > 7, "frame \(i): the new face is covered before its first detection") }
        #expect(diff(10, core(faceB)) < 4.5, "long before it appears, its place is untouched")
    }

    @Test("a detector failing part way (on the detection thread): the export stops with its message and leaves nothing")
    func detectorFailure() throws {
        struct Broken: Error, CustomStringConvertible { var description: String { "the network broke at detection 7" } }
        final class FailingDetector: FaceDetector, @unchecked Sendable {
            let name = "failing"
            private let lock = NSLock()
            private var calls = 0
            func detect(_ picture: DetectorPicture) throws -> [Detection] {
                let n = lock.withLock { () -> Int in defer { calls += 1 }; return calls }
                if n == 7 { throw Broken() }
                return [Detection(kind: .face, box: NormalizedRect(x: 0.4, y: 0.3, width: 0.1, height: 0.15), score: 0.9)]
            }
        }
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = try clip(dir, audio: false)
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        var settings = ExportSettings(input: .file(source), outputPath: out + "/export.mp4")
        settings.size = .source
        do {
            _ = try PrivacyExporter(settings: settings, reporter: Collect(), detector: { FaceDetectorChoice(detector: FailingDetector(), warning: nil) }).run()
            Issue.record("the export went on without its detector")
        } catch {
            #expect("\(error)".contains("the network broke at detection 7"), "\(error)")
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: out)) == [], "nothing left in the output folder")
    }

    @Test("bad input: a missing, non-video or cut-short file, an existing output, a session without positions: a clear message and nothing left behind")
    func badInput() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let out = dir.path("out")
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        func fails(_ settings: ExportSettings, _ expected: String) {
            #expect(throws: (any Error).self) { try PrivacyExporter(settings: settings, reporter: Collect(), detector: { FaceDetectorChoice(detector: ScriptedDetector { _ in [] }, warning: nil) }).run() }
            do {
                _ = try PrivacyExporter(settings: settings, reporter: Collect(), detector: { FaceDetectorChoice(detector: ScriptedDetector { _ in [] }, warning: nil) }).run()
            } catch {
                #expect("\(error)".contains(expected), "\(error)")
            }
            #expect((try? FileManager.default.contentsOfDirectory(atPath: out)) == [], "nothing left in the output folder")
        }
        fails(ExportSettings(input: .file(dir.path("missing.mp4")), outputPath: out + "/a.mp4"), "no such file")
        try Data(String(repeating: "not a video ", count: 500).utf8).write(to: URL(fileURLWithPath: dir.path("notes.mp4")))
        fails(ExportSettings(input: .file(dir.path("notes.mp4")), outputPath: out + "/a.mp4"), "cannot read the video")
        let source = try clip(dir, audio: false)
        fails(ExportSettings(input: .session(session(video: source)), outputPath: out + "/a.mp4"), "--all-faces")
        fails(ExportSettings(input: .file(source), outputPath: dir.path("no/such/folder/a.mp4")), "does not exist")
        fails(ExportSettings(input: .file(source), outputPath: out + "/a.mov"), ".mp4")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: dir.path("taken.mp4")))
        fails(ExportSettings(input: .file(source), outputPath: dir.path("taken.mp4")), "--overwrite")
        #expect(try String(contentsOfFile: dir.path("taken.mp4"), encoding: .utf8) == "keep me")

        // Cut short (moov first, the rest of the file missing): what can be read is exported, with a warning.
        let whole = dir.path("whole.mp4")
        try TestMedia.makeClip(at: whole, seconds: 6, width: 640, height: 360, audio: false, extraArguments: ["-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: whole))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: dir.path("cut.mp4")))
        let reporter = Collect()
        var settings = ExportSettings(input: .file(dir.path("cut.mp4")), outputPath: out + "/cut.mp4")
        settings.privacy = .none
        let report = try PrivacyExporter(settings: settings, reporter: reporter).run()
        #expect(report.frames > 30 && report.frames < 180, "\(report.frames)")
        #expect(reporter.warnings.contains { $0.contains("of its 6.0 s: the rest is damaged or missing") }, "\(reporter.warnings)")
        #expect(report.partial)
    }

    @Test("the caption's study time: video time in a full recording, × 10 × interval in a timelapse; labels by language")
    func caption() {
        let full = ExportCaption(label: "勉強時間", date: "2026-11-30", clock: .videoTime)
        #expect(full.text(at: MediaTime(seconds: 3725.9)) == "勉強時間 1:02:05 · 2026-11-30")
        let timelapse = ExportCaption(label: "Study time", date: "2026-11-30", clock: .timelapse(interval: 5, framesPerSecond: 10))
        #expect(timelapse.text(at: MediaTime(value: 12, timescale: 10)) == "Study time 0:01:00 · 2026-11-30", "frame 12 = 12 intervals of 5 s")
        #expect(ExportCaption.defaultLabel(language: "ja_JP.UTF-8") == "勉強時間")
        #expect(ExportCaption.defaultLabel(language: "en_GB.UTF-8") == "Study time" && ExportCaption.defaultLabel(language: nil) == "Study time")
        #expect(ExportCaption.dateText(Date(timeIntervalSince1970: 1_796_000_000), timeZone: TimeZone(identifier: "UTC")!) == "2026-11-30")
    }
}
