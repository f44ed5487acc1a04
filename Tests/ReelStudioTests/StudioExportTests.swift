import Foundation
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The export job's API: a session exported with its edits (the file plays, the library notes
/// it, it downloads with byte ranges), a long one cancelled with nothing left, the weekly
/// vlog, and the refusals.
@Suite("Studio export and vlog", .serialized)
struct StudioExportTests {
    static func job(_ studio: TestStudio) throws -> [String: Any] {
        StudioReviewTests.object(try studio.api([studio.base + "/api/export"]))
    }

    /// Polls the job until `done` holds of it (60 s at most).
    static func waitForJob(_ studio: TestStudio, until done: ([String: Any]) -> Bool) async throws -> [String: Any] {
        try await studio.waitForJSON("/api/export", "the job", until: done)
    }

    @Test("export a session: 202, finished, the file plays with the edits' size and length; noted in the library; served with ranges and as a download")
    func exportSession() async throws {
        let exports = try TemporaryDirectory()
        defer { exports.cleanup() }
        try await withStudio(configure: { $0.exportFolder = exports.path("out") }) { studio in
            let fixture = try ReviewFixture(studio)
            let cookie = try studio.signIn()
            #expect(try Self.job(studio)["state"] as? String == "idle")
            #expect(try studio.api([studio.base + "/api/export/file"]).status == 404, "nothing made yet")
            let started = try studio.post("/api/export", json: #"{"session":"\#(fixture.id)","size":"source","caption":true}"#, cookie: cookie)
            #expect(started.status == 202 && started.text.contains(#""state":"running""#), "\(started.text)")
            let done = try await Self.waitForJob(studio) { $0["state"] as? String != "running" }
            #expect(done["state"] as? String == "finished" && done["fraction"] as? Double == 1, "\(done)")
            let output = try #require(done["output"] as? String)
            #expect(output.hasPrefix(exports.path("out") + "/reel-") && output.hasSuffix("-reviewed.mp4"), "\(output)")
            let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=codec_name,width,height:format=duration",
                                                       "-of", "default=nw=1", output])
            #expect(probe.stdout.contains("codec_name=h264") && probe.stdout.contains("width=640") && probe.stdout.contains("height=360"), "\(probe.stdout)")
            let seconds = Double(probe.stdout.split(separator: "\n").first { $0.hasPrefix("duration=") }?.dropFirst(9) ?? "") ?? 0
            #expect(abs(seconds - 3) < 0.2, "\(probe.stdout)")
            let noted = try StudyLibrary(path: studio.server.settings.libraryPath, create: false).exports(of: fixture.reviewed.id)
            #expect(noted.map(\.path) == [output] && noted.first?.privacy == "mosaic")

            let whole = try studio.api([studio.base + "/api/export/file"])
            let written = try Data(contentsOf: URL(fileURLWithPath: output))
            #expect(whole.status == 200 && whole.headers["content-type"] == "video/mp4" && whole.body == written)
            let part = try studio.api(["-H", "Range: bytes=0-99", studio.base + "/api/export/file"])
            #expect(part.status == 206 && part.body.count == 100)
            let download = try studio.api([studio.base + "/api/export/file?download=1"])
            #expect(download.headers["content-disposition"] == "attachment; filename=\"\((output as NSString).lastPathComponent)\"")

            let again = try studio.post("/api/export", json: #"{"session":"\#(fixture.id)","size":"720p"}"#, cookie: cookie)
            #expect(again.status == 202)
            let second = try await Self.waitForJob(studio) { $0["state"] as? String != "running" }
            #expect((second["output"] as? String)?.hasSuffix("-reviewed-2.mp4") == true, "never over the first: \(second)")

            let bare = try studio.post("/api/export", json: #"{"session":"\#(fixture.bare.id.uuidString.lowercased())"}"#, cookie: cookie)
            #expect(bare.status == 202, "the refusal comes from the exporter, as for reel export")
            let failed = try await Self.waitForJob(studio) { $0["state"] as? String != "running" }
            #expect(failed["state"] as? String == "failed" && (failed["message"] as? String)?.contains("no face positions") == true, "\(failed)")
            #expect(try studio.api([studio.base + "/api/export/file"]).status == 404, "the failed job has no file")
            for body in [#"{"session":"nope"}"#, #"{"session":"\#(fixture.id)","size":"4k"}"#, "{}"] {
                #expect(try studio.post("/api/export", json: body, cookie: cookie).status == 400, "\(body)")
            }
            #expect(try studio.post("/api/export", json: #"{"session":"\#(UUID().uuidString)"}"#, cookie: cookie).status == 404)
        }
    }

    @Test("a long export shows its progress, refuses a second job, and cancelled (or the studio stopped) leaves nothing in the folder")
    func cancel() async throws {
        let exports = try TemporaryDirectory()
        defer { exports.cleanup() }
        try await withStudio(configure: { $0.exportFolder = exports.path("out") }) { studio in
            let fixture = try ReviewFixture(studio, seconds: 40)
            let cookie = try studio.signIn()
            #expect(try studio.post("/api/export", json: #"{"session":"\#(fixture.id)","size":"source"}"#, cookie: cookie).status == 202)
            let busy = try studio.post("/api/vlog", json: #"{"week":"this"}"#, cookie: cookie)
            #expect(busy.status == 409 && busy.text.contains("is running"), "\(busy.text)")
            let moving = try await Self.waitForJob(studio) { ($0["fraction"] as? Double ?? 0) > 0 || $0["state"] as? String != "running" }
            #expect(moving["state"] as? String == "running" && (moving["frames"] as? Int ?? 0) > 0, "progress while running: \(moving)")
            let cancelled = try studio.post("/api/export/stop", cookie: cookie)
            #expect(cancelled.status == 200)
            let stopped = try await Self.waitForJob(studio) { $0["state"] as? String != "running" }
            #expect(stopped["state"] as? String == "stopped" && (stopped["message"] as? String)?.contains("cancelled") == true, "\(stopped)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: exports.path("out")).isEmpty, "no output, no hidden file")

            // The studio stopping mid-export stops it and waits: nothing is left either.
            #expect(try studio.post("/api/export", json: #"{"session":"\#(fixture.id)","size":"source"}"#, cookie: cookie).status == 202)
            _ = try await Self.waitForJob(studio) { ($0["frames"] as? Int ?? 0) > 0 || $0["state"] as? String != "running" }
            await studio.server.stop()
            #expect(studio.server.exports.current.state == .stopped, "\(studio.server.exports.current)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: exports.path("out")).isEmpty, "no output, no hidden file")
        }
    }

    @Test("the weekly vlog from the page: this week's session in a playable file; a week without sessions is 422")
    func vlog() async throws {
        let exports = try TemporaryDirectory()
        defer { exports.cleanup() }
        try await withStudio(configure: { $0.exportFolder = exports.path("out") }) { studio in
            let fixture = try ReviewFixture(studio, startedAt: Date())
            let cookie = try studio.signIn()
            _ = fixture
            let started = try studio.post("/api/vlog", json: #"{"week":"this","layout":"horizontal"}"#, cookie: cookie)
            #expect(started.status == 202, "\(started.text)")
            let done = try await Self.waitForJob(studio) { $0["state"] as? String != "running" }
            #expect(done["state"] as? String == "finished" && done["kind"] as? String == "vlog", "\(done)")
            let output = try #require(done["output"] as? String)
            let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries", "stream=width,height", "-of", "csv=p=0", output])
            #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "1920,1080", "\(probe.stdout) \(probe.stderr)")
            let empty = try studio.post("/api/vlog", json: #"{"week":"last"}"#, cookie: cookie)
            #expect(empty.status == 422 && empty.text.contains("holds no session"), "\(empty.text)")
            #expect(try studio.post("/api/vlog", json: #"{"week":"next"}"#, cookie: cookie).status == 400)
        }
    }
}
