import Foundation
import ReelPrivacyBench
import ReelTestSupport
import Testing

/// The privacy acceptance test: the real `reel export` on clips with known face positions (the
/// astronaut moving, tilted ±30°, dimmed, 40 % out of the frame, absent and back; two faces),
/// measured by `LeakMeter` (fine-detail correlation inside each known face; threshold and
/// calibration in `LeakMeter`'s documentation). No frame may leak a face, and the changed area
/// must stay within 3× the face area and 2.5× the head's on average. Figures are printed for
/// the report. The clips of faces overlapping are in `PrivacyOverlapAcceptanceTests`.
@Suite("privacy acceptance: reel export on the privacy clips", .serialized)
struct PrivacyAcceptanceTests {
    static func export(_ clip: PrivacyClips.Clip, _ dir: TemporaryDirectory, _ extra: [String] = []) throws -> (String, Subprocess) {
        let output = dir.path("export.mp4")
        // XDG_DATA_HOME stays the user's: the CenterFace model is found there (`make setup`).
        let run = try ReelBinary.run(["export", clip.video, "-o", output, "--size", "source", "--json"] + extra,
                                     environment: ["XDG_STATE_HOME": dir.path("state"), "XDG_CACHE_HOME": dir.path("cache")])
        if !extra.contains("none") {
            // The acceptance is CenterFace's: without the model Reel falls back to Haar (a warning), which is not measured here.
            #expect(run.stdout.contains(#""detector":"CenterFace""#), "not CenterFace (run make setup): \(run.stdout.suffix(400)) \(run.stderr)")
        }
        return (output, run)
    }

    /// Every leaking frame with its phase, the face box and the correlation, for the report.
    static func leaks(_ report: LeakReport) -> String {
        report.frames.filter(\.leaked).map { frame in
            let faces = frame.result.faces.filter(\.leaked).map {
                "layer \($0.layer) box \(Int($0.box.x)),\(Int($0.box.y)) \(Int($0.box.width))x\(Int($0.box.height)) r=\(String(format: "%.2f", $0.correlation))"
            }
            return "#\(frame.index) \(frame.phase): \(faces.joined(separator: "; "))"
        }.joined(separator: "\n")
    }

    @Test("one face through every phase at 720p: no frame leaks, coverage ≤ 3× the face")
    func singleFace() throws {
        try singleFace(width: 1280, height: 720)
    }

    @Test("the same at 1080p (long tier: make test-long)", .longTier)
    func singleFace1080pLongTier() throws {
        try singleFace(width: 1920, height: 1080)
    }

    /// The `.single` clip at 720p is read by two tests (hidden, and `--privacy none`): made once.
    static func sharedClip(_ scenario: PrivacyClips.Scenario, width: Int, height: Int) throws -> PrivacyClips.Clip {
        try SharedFixtures.shared("privacy-\(PrivacyClips.name(scenario, width: width, height: height))") { folder in
            try PrivacyClips.make(scenario, width: width, height: height, in: folder, photo: TestPhotos.astronautPath)
        }
    }

    func singleFace(width: Int, height: Int) throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.sharedClip(.single, width: width, height: height)
        let started = Date()
        let (output, run) = try Self.export(clip, dir)
        let seconds = Date().timeIntervalSince(started)
        try #require(run.status == 0, "reel export failed: \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: output)
        print("privacy acceptance \(clip.truth.name): export \(String(format: "%.1f", seconds)) s (\(String(format: "%.1f", Double(report.frameCount) / seconds)) fps)\n\(report.summary)")
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
        #expect(report.meanCoverage <= 3, "mean coverage \(report.meanCoverage)× the face area")
        #expect(report.meanHeadCoverage <= 2.5, "mean coverage \(report.meanHeadCoverage)× the head area")
    }

    @Test("two faces, one smaller: both hidden in every frame")
    func twoFaces() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try PrivacyClips.make(.twoFaces, width: 1280, height: 720, in: dir.path("clips"), photo: TestPhotos.astronautPath)
        let (output, run) = try Self.export(clip, dir)
        try #require(run.status == 0, "reel export failed: \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: output)
        print("privacy acceptance \(clip.truth.name):\n\(report.summary)")
        #expect(report.frames.allSatisfy { $0.result.faces.count == 2 })
        for layer in 0..<2 {
            let leaked = report.frames.filter { $0.result.faces.contains { $0.layer == layer && $0.leaked } }.map(\.index)
            #expect(leaked.isEmpty, "face \(layer) (\(layer == 0 ? "large" : "small")) leaks in frames \(leaked)")
        }
        #expect(report.meanCoverage <= 3, "mean coverage \(report.meanCoverage)× the face area")
        #expect(report.meanHeadCoverage <= 2.5, "mean coverage \(report.meanHeadCoverage)× the head area")
    }

    /// The hard cases, one clip each at 720p: out of each edge and back, rolled ±45°,
    /// turned to profile, 20 and 30 px faces, across the picture in 1 s, dimmed to a quarter,
    /// two faces crossing. A face shown once is a failure: no frame may leak. Coverage is
    /// printed (the benchmark holds it against deface's) and kept within the goal, 2.5× the
    /// head's area (the face's area, the older measure, at most 3.2×: the profile clip's 3.05×
    /// is the highest; docs/privacy.md).
    /// Three of the seven in the default tier (turned away, fast, two faces crossing: the ones
    /// that needed the tracker's every rule); all seven in the long tier, about 15 s each.
    @Test("the hard cases: no frame leaks a face", arguments: [PrivacyClips.Scenario.profile, .fast, .crossing])
    func hardCase(_ scenario: PrivacyClips.Scenario) throws {
        try Self.hardCase(scenario)
    }

    @Test("the other hard cases: no frame leaks a face (long tier)", .longTier, arguments: [PrivacyClips.Scenario.edges, .roll, .small, .dim])
    func hardCaseLongTier(_ scenario: PrivacyClips.Scenario) throws {
        try Self.hardCase(scenario)
    }

    static func hardCase(_ scenario: PrivacyClips.Scenario) throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try PrivacyClips.make(scenario, width: 1280, height: 720, in: dir.path("clips"), photo: TestPhotos.astronautPath)
        let (output, run) = try Self.export(clip, dir)
        try #require(run.status == 0, "reel export failed: \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: output)
        print("privacy acceptance \(clip.truth.name):\n\(report.summary)")
        #expect(report.framesWithFace > 0)
        #expect(report.leakedFrames.isEmpty, "leaking frames (\(report.leakedRanges)):\n\(Self.leaks(report))")
        // Coverage is held to the head, not the face's truth box: a face turned to 80° is a
        // 37 px strip in a 141 px head (profile: 4.1× that strip, 0.95× the head).
        #expect(report.meanHeadCoverage <= 2.5, "mean coverage \(report.meanHeadCoverage)× the head area")
    }

    @Test("--privacy none leaks every face frame (the meter sees an unhidden face)")
    func privacyNoneLeaks() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let clip = try Self.sharedClip(.single, width: 1280, height: 720)
        let (output, run) = try Self.export(clip, dir, ["--privacy", "none"])
        try #require(run.status == 0, "reel export failed: \(run.stderr)")
        let report = try LeakMeter().measure(clip: clip.video, truth: clip.truth, export: output)
        print("privacy acceptance, --privacy none:\n\(report.summary)")
        #expect(report.leakedFrames.count == report.framesWithFace)
        #expect(report.framesWithFace == 360)
    }
}
