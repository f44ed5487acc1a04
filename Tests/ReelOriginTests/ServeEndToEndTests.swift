import Foundation
import ReelTestSupport
import Testing

/// `reel serve` and `reel live` as a user runs them: the publisher PUTs to Reel's own origin
/// and ffmpeg plays the stream over HTTP, while it grows and after it ended.
@Suite("reel serve end to end", .serialized)
struct ServeEndToEndTests {
    /// Starts `reel serve` on a free port and waits for /health.
    static func serve(data: String, extra: [String] = []) async throws -> (BackgroundProcess, String) {
        let port = try Loopback.freePort()
        let server = try BackgroundProcess(ReelBinary.path(), ["serve", "--port", String(port), "--data", data] + extra)
        let base = "http://127.0.0.1:\(port)/"
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline {
            if server.isRunning, (try? curl([base + "health"]))?.status == 200 { return (server, base) }
            try await Task.sleep(for: .milliseconds(50))
        }
        let result = await server.wait(timeout: .seconds(2))
        Issue.record("reel serve did not answer /health: \(result.stderr)")
        throw CancellationError()
    }

    @Test func liveStreamPublishedToReelServePlaysInFFmpeg() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let data = dir.path("origin")
        let (server, base) = try await Self.serve(data: data)
        let tokenPath = data + "/token"
        let token = try String(contentsOfFile: tokenPath, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(token.count == 64 && token.allSatisfy(\.isHexDigit), "256 random bits in hex")
        let mode = try FileManager.default.attributesOfItem(atPath: tokenPath)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        let live = try BackgroundProcess(ReelBinary.path(), [
            "live", "--source", "test", "--duration", "12", "--origin", base, "--token", token, "--no-archive",
            "--stream-id", "e2e", "--quiet"], environment: ["XDG_STATE_HOME": dir.path("state")])
        // A player that joins while the stream grows, from its first segment, until ENDLIST.
        let playlist = base + "streams/e2e/playlist.m3u8"
        let deadline = ContinuousClock.now + .seconds(20)
        while (try? curl([playlist]))?.status != 200 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(200))
        }
        let growing = try BackgroundProcess("/usr/bin/ffmpeg", ["-nostdin", "-v", "warning", "-live_start_index", "0", "-i", playlist, "-f", "null", "-"])
        let published = await live.wait(timeout: .seconds(60))
        #expect(published.status == 0 && !published.timedOut, "reel live: \(published.stderr)")
        let watched = await growing.wait(timeout: .seconds(30))
        // FFmpeg 5.1's HLS demuxer reads the init section again after each playlist reload and
        // then warns about a second moov; that comes from the player, not the origin (the same
        // media played after the end is clean, below). Any other warning fails.
        let otherWarnings = watched.stderr.split(separator: "\n").filter {
            !$0.contains("Found duplicated MOOV Atom. Skipped it") && !$0.contains("Last message repeated")
                && !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        #expect(watched.status == 0 && !watched.timedOut && otherWarnings.isEmpty, "ffmpeg while growing: \(watched.stderr)")

        let final = try curl([playlist])
        let text = String(decoding: final.body, as: UTF8.self)
        #expect(final.status == 200 && text.hasSuffix("#EXT-X-ENDLIST\n"), "complete playlist with ENDLIST")
        let segments = text.split(separator: "\n").filter { $0.hasPrefix("seg/") }
        #expect(segments.count >= 5, "about 12 s in 2 s segments (\(segments.count))")
        #expect(segments.first == "seg/000001.m4s")

        let played = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "warning", "-i", playlist, "-f", "null", "-"])
        #expect(played.status == 0 && played.stderr.isEmpty, "ffmpeg afterwards: \(played.stderr)")

        let list = String(decoding: try curl([base + "api/streams"]).body, as: UTF8.self)
        #expect(list.contains("\"streamId\":\"e2e\"") && list.contains("\"isFinished\":true")
                && list.contains("\"segmentCount\":\(segments.count)"), "\(list)")

        server.send(SIGTERM)
        let stopped = await server.wait(timeout: .seconds(15))
        #expect(stopped.status == 0 && !stopped.timedOut)
        #expect(stopped.stdout.contains("token:     \(tokenPath)") && stopped.stdout.contains("base URL:  \(base)"))
        #expect(stopped.stdout.contains(" PUT /streams/e2e/seg/000001.m4s 201 "), "access log on standard output")
        #expect(stopped.stdout.contains(" PUT /streams/e2e/playlist.m3u8 204 "))
        #expect(stopped.stderr.contains("stopped"))
    }

    @Test func badCommandLinesAndTakenPortsAreClearErrors() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let badPort = try ReelBinary.run(["serve", "--port", "70000", "--data", dir.path("a")])
        #expect(badPort.status == 64 && badPort.stderr.contains("--port"))
        let help = try ReelBinary.run(["serve", "--help"])
        #expect(help.status == 0 && ["--host", "--port", "--data", "--token-file", "--access-log", "--hls-js"].allSatisfy(help.stdout.contains))
        for wrong in ["hls.min.js", "ftp://cdn.example.org/hls.js", "javascript:alert(1)", "https://"] {
            let refused = try ReelBinary.run(["serve", "--port", "0", "--hls-js", wrong, "--data", dir.path("e")])
            #expect(refused.status == 64 && refused.stderr.contains("--hls-js"), "\(wrong): \(refused.stderr)")
        }
        let badHost = try ReelBinary.run(["serve", "--host", "nowhere.invalid", "--port", "0", "--data", dir.path("b")])
        #expect(badHost.status == 1 && badHost.stderr.contains("--host"))
        #expect(!FileManager.default.fileExists(atPath: dir.path("b")), "nothing is created for a command that cannot run")

        // A chosen token file is created there, and used.
        let tokenFile = dir.path("secret/token")
        let (server, base) = try await Self.serve(data: dir.path("c"), extra: ["--token-file", tokenFile, "--access-log", "none"])
        let token = try String(contentsOfFile: tokenFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!FileManager.default.fileExists(atPath: dir.path("c/token")))
        #expect(try curl(["-X", "PUT", "--data-binary", "x", "-H", "Authorization: Bearer \(token)", base + "streams/t/init.mp4"]).status == 201)
        let port = String(base.split(separator: ":").last!.dropLast())
        let taken = try ReelBinary.run(["serve", "--port", port, "--data", dir.path("d")])
        #expect(taken.status == 1 && taken.stderr.contains("--port"), "\(taken.stderr)")
        server.send(SIGINT)
        let stopped = await server.wait(timeout: .seconds(15))
        #expect(stopped.status == 0 && stopped.stdout.contains(tokenFile) && !stopped.stdout.contains(" PUT "))
    }
}
