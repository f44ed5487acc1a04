import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// `reel export --privacy mask`: the solid fill instead of the mosaic, as sure as the mosaic.
@Suite("reel export --privacy mask")
struct ExportMaskTests {
    @Test("two faces masked: no frame leaks, and the fill is the mask's mid grey")
    func mask() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try PrivacyClips.make(.twoFaces, width: 1280, height: 720, in: dir.path("clips"), photo: TestPhotos.astronautPath)
        let (output, run) = try PrivacyAcceptanceTests.export(clip, dir, ["--privacy", "mask"])
        try #require(run.status == 0, "reel export failed: \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: output)
        print("export --privacy mask \(clip.truth.name):\n\(report.summary)")
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(PrivacyAcceptanceTests.leaks(report))")
        // The middle of the large face in the first frame is flat mid grey (Y 128, read back through x264 and a conversion to full-range grey: about 130).
        let face = try #require(clip.truth.frames.first?.faces.first)
        let gray = try FFmpegTool.run("ffmpeg", ["-v", "error", "-i", output, "-frames:v", "1", "-vf",
                                       "crop=8:8:\(Int(face.centerX) - 4):\(Int(face.centerY) - 4)", "-f", "rawvideo", "-pix_fmt", "gray", "-"])
        #expect(!gray.isEmpty && gray.allSatisfy { abs(Int($0) - 129) <= 6 }, "\(Array(gray))")
    }
}
