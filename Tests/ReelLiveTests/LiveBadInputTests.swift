import Foundation
import ReelTestSupport
import Testing

/// `reel live` given bad input: each a clear message and a non-zero exit, and whatever was
/// recorded before the failure kept.
@Suite("reel live with bad input", .serialized)
struct LiveBadInputTests {
    func reel(_ arguments: [String], in dir: TemporaryDirectory) throws -> Subprocess {
        try ReelBinary.run(["live"] + arguments, environment: ["XDG_STATE_HOME": dir.path("state"), "XDG_VIDEOS_DIR": dir.path("videos")])
    }

    @Test("a missing file source")
    func missingFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let result = try reel(["--source", "file:" + dir.path("nope.mp4"), "--output", dir.path("out")], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("no such file"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("videos")), "no empty archive left behind")
    }

    @Test("a camera that does not exist")
    func missingCamera() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let result = try reel(["--source", "v4l2:/dev/video-reel-missing", "--output", dir.path("out")], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("/dev/video-reel-missing") && result.stderr.contains("no such file or device"), "\(result.stderr)")
    }

    @Test("a file that is not media")
    func corruptFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        var generator = SystemRandomNumberGenerator()
        try Data((0..<100_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: URL(fileURLWithPath: dir.path("junk.mp4")))
        let result = try reel(["--source", "file:" + dir.path("junk.mp4"), "--output", dir.path("out")], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("cannot open it"), "\(result.stderr)")
    }

    @Test("a file damaged half way: the error is reported, the archive and the published stream are kept")
    func truncatedFile() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let good = dir.path("good.mp4")
        try TestMedia.makeClip(at: good, seconds: 8, width: 640, height: 360, extraArguments: ["-preset", "ultrafast", "-movflags", "+faststart"])
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count / 2).write(to: URL(fileURLWithPath: dir.path("half.mp4")))
        let archive = dir.path("archive.mp4")
        let result = try reel(["--source", "file:" + dir.path("half.mp4"), "--output", dir.path("out"), "--stream-id", "half",
                               "--archive", archive, "--fast", "--quiet"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("source: FAILED"), "\(result.stderr)")
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0", archive])
        let duration = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(duration > 2, "the archive keeps what was recorded: \(duration) s")
        let playlist = try String(contentsOfFile: dir.path("out/streams/half/playlist.m3u8"), encoding: .utf8)
        #expect(playlist.contains("#EXT-X-ENDLIST"), "the live stream was closed properly")
    }

    @Test("an unreachable origin at start")
    func unreachableOrigin() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let port = try Loopback.freePort()
        let result = try reel(["--source", "test", "--origin", "http://127.0.0.1:\(port)/", "--duration", "5"], in: dir)
        #expect(result.status == 1)
        #expect(result.stderr.contains("connection refused"), "\(result.stderr)")
        #expect(result.stderr.contains("nothing was started"), "\(result.stderr)")
    }

    @Test("an origin that refuses the token: none (401), then a wrong one (nginx 401, reel serve 403)", arguments: OriginKind.allCases)
    func unauthorized(_ kind: OriginKind) async throws {
        try await withOrigin(kind, token: "right-token-0123456789") { origin in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let none = try reel(["--source", "test", "--origin", origin.baseURL.absoluteString, "--duration", "5"], in: dir)
            #expect(none.status == 1)
            #expect(none.stderr.contains("HTTP 401"), "\(none.stderr)")
            #expect(none.stderr.contains("--token"), "says what to do: \(none.stderr)")
            #expect(none.stderr.contains("nothing was started"), "\(none.stderr)")
            let wrong = try reel(["--source", "test", "--origin", origin.baseURL.absoluteString, "--token", "wrong-token-0123456789",
                                  "--duration", "5"], in: dir)
            #expect(wrong.status == 1)
            // nginx's config answers 401 to any PUT without the right token; reel serve tells a
            // missing token (401) from a wrong one (403). Either way the token was refused.
            #expect(wrong.stderr.contains(kind == .nginx ? "HTTP 401" : "HTTP 403"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("the upload token was refused"), "\(wrong.stderr)")
        }
    }

    @Test("bad flags are usage errors (exit 64) with a hint")
    func badFlags() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let typo = try reel(["--qualty", "high"], in: dir)
        #expect(typo.status == 64)
        #expect(typo.stderr.contains("Did you mean '--quality'?"), "\(typo.stderr)")
        let source = try reel(["--source", "webcam", "--output", dir.path("o")], in: dir)
        #expect(source.status == 64)
        #expect(source.stderr.contains("--source"), "\(source.stderr)")
        let nowhere = try reel(["--source", "test"], in: dir)
        #expect(nowhere.status == 64)
        #expect(nowhere.stderr.contains("nowhere to publish"), "\(nowhere.stderr)")
        let both = try reel(["--source", "test", "--output", dir.path("o"), "--archive", dir.path("a.mp4"), "--no-archive"], in: dir)
        #expect(both.status == 64)
    }
}
