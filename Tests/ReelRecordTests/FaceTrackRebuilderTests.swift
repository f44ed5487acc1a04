import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia
@testable import ReelRecord

/// Faces found again in a finished video, in process: the recording's own
/// cadence (every written frame of a timelapse, every 0.2 s of a full recording), from a
/// given video time. Needs the CenterFace model (`make setup`).
@Suite("Face track rebuilder", .serialized)
struct FaceTrackRebuilderTests {
    /// A finished recording without face positions, made by the recorder from a scripted source.
    func recording(_ dir: TemporaryDirectory, mode: RecordingMode) async throws -> String {
        let settings = RecordSettings(source: .file(path: "scripted"), mode: mode, interval: MediaTime(seconds: 1), canvas: .hd720,
                                      outputPath: dir.path("out/\(mode.rawValue).mp4"), stateFolder: dir.path("state"))
        let source = ScriptedSource([.frames(from: 0, to: 300, at: 0)], base: MonotonicClock.now())
        let report = await (try StudyRecorder(settings: settings, reporter: CollectingReporter(), openSource: { _ in source })).run()
        try #require(report.succeeded, "\(report)")
        return try #require(report.outputPath)
    }

    @Test("timelapse: every written frame from the given time, at its video time; full: one every 0.2 s")
    func cadence() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let lapse = try await recording(dir, mode: .timelapse)
        let fromHalf = try FaceTrackRebuilder.installed().samples(in: lapse, from: MediaTime(value: 1, timescale: 2), mode: .timelapse,
                                                                 intervalSeconds: 1)
        #expect(fromHalf.map(\.time) == (5..<10).map { MediaTime(value: Int64($0) * 60, timescale: 600) }, "frames k/10 s, k ≥ 5")
        #expect(fromHalf.allSatisfy { $0.kind == .defaultRegion }, "nobody in the scripted pictures: the top region")
        let full = try await recording(dir, mode: .full)
        let samples = try FaceTrackRebuilder.installed().samples(in: full, from: .zero, mode: .full, intervalSeconds: nil)
        let duration = try VideoInspection.duration(of: full)
        #expect(samples.count == Int((duration / 0.2).rounded(.up)), "\(samples.count) samples for \(duration) s")
        #expect(zip(samples, samples.dropFirst()).allSatisfy { ($1.time - $0.time) >= MediaTime(value: 1, timescale: 5) })
    }
}
