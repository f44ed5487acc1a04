import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia
@testable import ReelRecord

/// The recorder's claim on its output in process: the default name numbered
/// when taken, the placeholder while recording, and a finish that finds its placeholder
/// replaced (never overwritten: finished under the next free name).
@Suite("Output claim", .serialized)
struct OutputClaimTests {
    /// A scripted source that runs `beforeRun` (once the recorder has claimed its output) first.
    final class HookedSource: CaptureSource, @unchecked Sendable {
        let inner: ScriptedSource
        let beforeRun: () -> Void
        init(_ inner: ScriptedSource, beforeRun: @escaping () -> Void) {
            self.inner = inner
            self.beforeRun = beforeRun
        }
        var format: CaptureFormat { inner.format }
        var name: String { inner.name }
        func run(_ deliver: (CaptureSample) throws -> Void) throws {
            beforeRun()
            try inner.run(deliver)
        }
        func stop() { inner.stop() }
    }

    func settings(_ dir: TemporaryDirectory, numbered: Bool) -> RecordSettings {
        var settings = RecordSettings(source: .file(path: "scripted"), mode: .timelapse, interval: MediaTime(seconds: 1), canvas: .hd720,
                                      outputPath: dir.path("out/study.mp4"), stateFolder: dir.path("state"))
        settings.numbersOutputWhenTaken = numbered
        return settings
    }

    func record(_ settings: RecordSettings, beforeRun: @escaping () -> Void = {}) async throws -> RecordReport {
        let source = HookedSource(ScriptedSource([.frames(from: 0, to: 90, at: 0)], base: MonotonicClock.now()), beforeRun: beforeRun)
        return await (try StudyRecorder(settings: settings, reporter: CollectingReporter(), openSource: { _ in source })).run()
    }

    @Test("the default name, taken (a file, or another's thumbnail), becomes NAME-3.mp4; the placeholder names the session while recording")
    func numberedDefaultName() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        try FileManager.default.createDirectory(atPath: dir.path("out"), withIntermediateDirectories: true)
        try Data("first".utf8).write(to: URL(fileURLWithPath: dir.path("out/study.mp4")))
        try Data("a thumbnail".utf8).write(to: URL(fileURLWithPath: dir.path("out/study-2.jpg")))
        let s = settings(dir, numbered: true)
        var seen = ""
        let report = try await record(s) { seen = (try? String(contentsOfFile: dir.path("out/study-3.mp4"), encoding: .utf8)) ?? "" }
        #expect(report.succeeded, "\(report)")
        #expect(report.outputPath == dir.path("out/study-3.mp4"))
        #expect(seen == RecordingOutput.placeholderText(id: s.id), "claimed before the first frame")
        #expect(try String(contentsOfFile: dir.path("out/study.mp4"), encoding: .utf8) == "first")
        #expect(try MP4Remuxer.tags(of: dir.path("out/study-3.mp4"))["description"] == RecordingOutput.videoStamp(id: s.id))
        #expect(FileManager.default.fileExists(atPath: dir.path("out/study-3.jpg")))
    }

    @Test("a placeholder replaced while recording is never overwritten: the recording is finished as NAME-2.mp4 and says so")
    func placeholderReplaced() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let s = settings(dir, numbered: false)
        let report = try await record(s) {
            try? Data("someone else's".utf8).write(to: URL(fileURLWithPath: dir.path("out/study.mp4")))
        }
        #expect(report.succeeded, "\(report)")
        #expect(report.outputPath == dir.path("out/study-2.mp4"))
        #expect(report.warnings.contains { $0.contains("finished as \(dir.path("out/study-2.mp4"))") }, "\(report.warnings)")
        #expect(try String(contentsOfFile: dir.path("out/study.mp4"), encoding: .utf8) == "someone else's")
        #expect(try VideoInspection.decodeErrors(of: dir.path("out/study-2.mp4")) == "")
        #expect(!FileManager.default.fileExists(atPath: s.sessionFolder))
    }

    @Test("nothing recorded: the placeholder is removed, nothing else")
    func nothingRecordedReleases() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let s = settings(dir, numbered: false)
        let source = ScriptedSource([], base: MonotonicClock.now())
        let report = await (try StudyRecorder(settings: s, reporter: CollectingReporter(), openSource: { _ in source })).run()
        #expect(!report.succeeded && report.finishError?.contains("nothing was recorded") == true, "\(report)")
        #expect(!FileManager.default.fileExists(atPath: s.outputPath))
    }
}
