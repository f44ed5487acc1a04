import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// The meter on exports made with ffmpeg: untouched (every face frame leaks), whole-frame and
/// box mosaics (none leaks; coverage), and its failure paths.
@Suite struct LeakMeterTests {
    /// The 640×360 clip, made once per test process (`SharedClips`): the tests only read it.
    static func clip(_ dir: TemporaryDirectory, _ scenario: PrivacyClips.Scenario = .single) throws -> PrivacyClips.Clip {
        try SharedClips.clip(scenario, width: 640, height: 360)
    }

    @Test func anUnprocessedExportLeaksInEveryFaceFrame() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        try ReferenceExports.reencode(clip.video, to: dir.path("plain.mp4"), crf: 23)
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("plain.mp4"))
        print(report.summary)
        #expect(report.frameCount == 420)
        #expect(report.framesWithFace == 360)
        #expect(report.leakedFrames.count == 360, "not flagged: \(report.frames.filter { !$0.leaked && !$0.result.faces.isEmpty }.map(\.index))")
        #expect(report.frames.allSatisfy { $0.result.faces.allSatisfy { $0.correlation > 0.7 } })
        // Untouched pictures: next to no changed area (encoding noise stays under the thresholds).
        #expect(report.meanCoverage < 0.1)
    }

    @Test func aWholeFrameMosaicLeaksNothingAndCoversEverythingSeen() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        try ReferenceExports.fullMosaic(clip.video, width: 640, height: 360, block: 19, to: dir.path("full.mp4"))
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("full.mp4"))
        print(report.summary)
        #expect(report.leakedFrames.isEmpty, "leaked: \(report.leakedRanges)")
        #expect(report.maxCorrelation < 0.2)
        // The window is 4× the face per side: a whole-frame mosaic is far over 3× the face area.
        #expect(report.meanCoverage > 5)
    }

    @Test func aBoxMosaicCoversAboutItsAreaRatio() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        try ReferenceExports.trackedMosaic(clip.video, scenario: .single, width: 640, height: 360, block: 19, boxScale: 1.2,
                                           to: dir.path("box.mp4"))
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("box.mp4"))
        print(report.summary)
        #expect(report.leakedFrames.isEmpty, "leaked: \(report.leakedRanges)")
        var expected: [Double] = []
        for frame in report.frames where !frame.result.faces.isEmpty {
            let boxes = ReferenceExports.trackedBoxes(scenario: .single, width: 640, height: 360, boxScale: 1.2, frame: frame.index)
            expected.append(boxes.reduce(0) { $0 + $1.clipped(toWidth: 640, height: 360).area } / frame.result.faceArea)
        }
        let meanExpected = expected.reduce(0, +) / Double(expected.count)
        print("box mosaic: expected coverage \(meanExpected), measured \(report.meanCoverage)")
        // Flat parts of the photo (its grey backdrop) change too little to be seen: a little under.
        #expect(report.meanCoverage > 0.8 * meanExpected && report.meanCoverage < 1.1 * meanExpected)
    }

    @Test func bothFacesAreMeasuredEachOnItsOwn() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir, .twoFaces)
        // A box mosaic over each face: neither leaks; untouched: both leak in every frame.
        try ReferenceExports.trackedMosaic(clip.video, scenario: .twoFaces, width: 640, height: 360, block: 19,
                                           to: dir.path("both.mp4"))
        let both = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("both.mp4"))
        #expect(both.leakedFrames.isEmpty, "leaked: \(both.leakedRanges)")
        try ReferenceExports.reencode(clip.video, to: dir.path("none.mp4"))
        let none = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("none.mp4"))
        #expect(none.frames.allSatisfy { $0.result.faces.count == 2 && $0.result.faces.allSatisfy(\.leaked) })
    }

    @Test func differentFrameCountsAreAnError() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-y", "-i", clip.video, "-frames:v", "400", "-c:v", "libx264", "-an", dir.path("short.mp4")])
        #expect { try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("short.mp4")) } throws: {
            guard case LeakMeter.Error.frameCountMismatch(_, 420, _, 400) = $0 else { return false }
            return String(describing: $0).contains("paired by index")
        }
    }

    @Test("paired by time, a stream that left frames out is measured frame against frame; by index it is refused")
    func pairedByTime() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        // Seven frames dropped while the face moves, the others keeping their times (as a live
        // stream under load leaves pictures out).
        try FFmpegTool.run("ffmpeg", ["-v", "error", "-y", "-i", clip.video, "-vf", "select='not(between(n,40,44)+between(n,200,201))'",
                                      "-fps_mode", "passthrough", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23", "-an",
                                      dir.path("dropped.mp4")])
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("dropped.mp4"), pairing: .byTime)
        print(report.summary)
        #expect(report.frameCount == 413 && report.framesLeftOut == 7)
        #expect(report.summary.contains("7 of the clip's frames left out"))
        #expect(!report.frames.map(\.index).contains(42) && report.frames.map(\.index).contains(45))
        // Paired right, an untouched picture correlates as a re-encode does (a frame off, the
        // moving face's fine detail would not).
        #expect(report.leakedFrames.count == report.framesWithFace)
        #expect(report.frames.allSatisfy { $0.result.faces.allSatisfy { $0.correlation > 0.7 } })
        #expect { try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("dropped.mp4")) } throws: {
            guard case LeakMeter.Error.frameCountMismatch(_, 420, _, 413) = $0 else { return false }
            return true
        }
    }

    @Test func aMissingExportIsAnFFmpegErrorWithItsMessage() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.clip(dir)
        #expect { try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: dir.path("missing.mp4")) } throws: {
            String(describing: $0).contains("missing.mp4")
        }
    }

    @Test func frameMeasureOnSyntheticPictures() {
        // Noise with a face box: identical pictures correlate 1, a flat export 0 and all changed.
        var rng = SplitMix64(seed: 5)
        let (w, h) = (200, 160)
        let source = (0..<(w * h)).map { _ in UInt8(truncatingIfNeeded: rng.next() % 200 + 20) }
        let face = TruthFace(layer: 0, centerX: 100, centerY: 80, width: 40, height: 50, angle: 0, frameWidth: w, frameHeight: h)
        let measure = FrameMeasure()
        let same = measure.measure(source: source, export: source, width: w, height: h, faces: [face])
        #expect(abs(same.faces[0].correlation - 1) < 1e-9 && same.faces[0].leaked && same.changedPixels == 0)
        var flat = source
        for y in 55..<105 { for x in 80..<120 { flat[y * w + x] = 128 } }
        let covered = measure.measure(source: source, export: flat, width: w, height: h, faces: [face])
        // Only the 2 px next to the flat rectangle's border keep any detail.
        #expect(abs(covered.faces[0].correlation) < 0.1 && !covered.faces[0].leaked, "\(covered.faces[0])")
        // The changed area is the 40 × 50 rectangle, give or take the 7 × 7 smoothing at its edges.
        #expect(abs(covered.coverage - 1) < 0.25, "\(covered.coverage)")
    }
}
