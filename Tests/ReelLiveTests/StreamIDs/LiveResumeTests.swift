import Foundation
import ReelTestSupport
import Testing

/// Nothing stranded (docs/publishing.md): a `reel live` killed (SIGKILL) while the origin is down
/// leaves its segments in the spool; the next `reel live` names the spool, and `reel publish ID`
/// publishes it and closes the playlist with ENDLIST.
@Suite("reel publish: a killed stream's spool is published after all", .serialized)
struct LiveResumeTests {
    /// Sequence numbers of the `seg/NNNNNN.m4s` files in a spool.
    static func spooledSegments(_ spool: String) -> [Int] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: spool + "/seg")) ?? []
        return names.compactMap { $0.hasSuffix(".m4s") ? Int($0.dropLast(4)) : nil }.sorted()
    }

    @Test("SIGKILL mid-stream with the origin stopped; reel live names the spool; reel publish lists every spooled segment, then ENDLIST")
    func killedThenPublished() async throws {
        try await withReelServeOrigin(token: "issue18-resume-token") { origin in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let environment = ["XDG_STATE_HOME": dir.path("state")]
            let spool = dir.path("state/reel/spool/killed")
            let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:320x240@30"] + origin.liveArguments + [
                "--stream-id", "killed", "--duration", "60", "--no-archive", "--quiet"], environment: environment)
            // The origin goes once it has two segments; the kill comes once two more were made
            // (spooled) with nowhere to publish them, and at least four are spooled.
            _ = try await eventually("two segments published", within: 30) { () -> Bool? in
                guard let answer = try? curl([origin.baseURL.absoluteString + "streams/killed/playlist.m3u8"]), answer.status == 200 else { return nil }
                return String(decoding: answer.body, as: UTF8.self).components(separatedBy: "#EXTINF:").count - 1 >= 2 ? true : nil
            }
            await origin.stop()
            let spooledAtStop = Self.spooledSegments(spool).count
            _ = try await eventually("segments spooled while the origin is down", within: 40) {
                Self.spooledSegments(spool).count >= max(4, spooledAtStop + 2) ? true : nil
            }
            reel.send(SIGKILL)
            _ = await reel.wait(timeout: .seconds(10))
            let spooled = Self.spooledSegments(spool)
            #expect(spooled.count >= 4 && spooled == Array(1...spooled.count), "\(spooled)")
            try await origin.restart()

            let other = try ReelBinary.run(["live", "--source", "test:320x240@30", "--output", dir.path("out"), "--stream-id", "other",
                                            "--duration", "1", "--no-archive", "--quiet"], environment: environment)
            #expect(other.status == 0, "\(other.stderr)")
            #expect(other.stderr.contains("reel live: 1 stream waits in the spool: killed (\(spooled.count) segments not published); "
                                          + "publish it with reel publish killed --origin URL"), "\(other.stderr)")
            let again = try ReelBinary.run(["live", "--source", "test"] + origin.liveArguments + ["--stream-id", "killed", "--duration", "1",
                                            "--no-archive", "--quiet"], environment: environment)
            #expect(again.status == 1 && again.stderr.contains("stream ID killed has \(spooled.count) segments waiting in the spool"), "\(again.stderr)")

            let published = try ReelBinary.run(["publish", "killed"] + origin.liveArguments, environment: environment)
            #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
            #expect(!FileManager.default.fileExists(atPath: spool), "the spool is removed once everything was acknowledged")
            let playlist = String(decoding: try await origin.get("streams/killed/playlist.m3u8").body, as: UTF8.self)
            #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlist)")
            let listed = playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }.compactMap { Int($0.dropFirst(4).dropLast(4)) }
            #expect(listed == spooled, "every spooled segment listed once, in order, no gap")
            for sequence in listed {
                let name = String(format: "seg/%06d.m4s", sequence)
                #expect(try await origin.get("streams/killed/\(name)").status == 200, "\(name)")
            }
            let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format=duration", "-of", "csv=p=0",
                                                       origin.baseURL.absoluteString + "streams/killed/playlist.m3u8"])
            let seconds = Double(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
            #expect(probe.status == 0 && abs(seconds - Double(spooled.count) * 2) < 2.5, "\(probe.stdout)\(probe.stderr)")

            let twice = try ReelBinary.run(["publish", "killed"] + origin.liveArguments, environment: environment)
            #expect(twice.status == 1 && twice.stderr.contains("nothing of stream ID killed waits to be published"), "\(twice.stderr)")
        }
    }

    /// The default tier holds a killed run's spool published (`killedThenPublished()`); this adds a spool with a window.
    @Test("a killed run with --window: its spool records the window, and reel publish lists the same window without being told (long tier: make test-long)", .longTier)
    func aKilledWindowIsPublishedAsAWindowLongTier() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let environment = ["XDG_STATE_HOME": dir.path("state")]
        let spool = dir.path("state/reel/spool/slid")
        let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:320x240@30", "--output", dir.path("first"),
                                                             "--stream-id", "slid", "--segment-seconds", "1", "--window", "6",
                                                             "--duration", "60", "--no-archive", "--quiet"], environment: environment)
        _ = try await eventually("8 segments spooled", within: 40) { Self.spooledSegments(spool).count >= 8 ? true : nil }
        reel.send(SIGKILL)
        _ = await reel.wait(timeout: .seconds(10))
        let spooled = Self.spooledSegments(spool)
        #expect(FileManager.default.contents(atPath: spool + "/window.txt") == Data("6\n".utf8), "the spool records the window")

        let published = try ReelBinary.run(["publish", "slid", "--output", dir.path("second")], environment: environment)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        #expect(!FileManager.default.fileExists(atPath: spool), "the spool (and its window note) removed")
        let playlist = try String(contentsOfFile: dir.path("second/streams/slid/playlist.m3u8"), encoding: .utf8)
        let listed = playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }.compactMap { Int($0.dropFirst(4).dropLast(4)) }
        let last = try #require(spooled.last)
        #expect(listed == Array((last - 5)...last), "the newest 6 of \(spooled): \(playlist)")
        #expect(playlist.contains("#EXT-X-MEDIA-SEQUENCE:\(last - 5)\n") && !playlist.contains("PLAYLIST-TYPE")
                && playlist.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlist)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("second/streams/slid/window.txt")), "the note is never published")
    }

    /// Runs `reel live` with `arguments` for 60 s, SIGKILLs it once two segments are spooled, publishes its spool
    /// with `reel publish` to the same target and checks the playlist read with `get`.
    static func killThenPublish(streamID: String, arguments: [String], environment: [String: String], spool: String,
                                get: (String) async throws -> (status: Int, body: Data)) async throws {
        let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:320x240@30"] + arguments + [
            "--stream-id", streamID, "--duration", "60", "--no-archive", "--quiet"], environment: environment)
        _ = try await eventually("two segments spooled", within: 30) { spooledSegments(spool).count >= 2 ? true : nil }
        reel.send(SIGKILL)
        _ = await reel.wait(timeout: .seconds(10))
        // What a kill in the middle of a write leaves (DurableFile's temporary files): no reason to keep the spool.
        for leftover in ["/.playlist.m3u8.\(reel.pid).k1ll.tmp", "/seg/.000099.m4s.\(reel.pid).k1ll.tmp"] {
            try Data("half".utf8).write(to: URL(fileURLWithPath: spool + leftover))
        }
        let spooled = spooledSegments(spool)
        #expect(spooled.count >= 1 && spooled == Array(1...max(1, spooled.count)), "\(spooled)")
        let published = try ReelBinary.run(["publish", streamID] + arguments, environment: environment)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        #expect(!FileManager.default.fileExists(atPath: spool))
        let playlist = String(decoding: try await get("streams/\(streamID)/playlist.m3u8").body, as: UTF8.self)
        #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n"), "\(playlist)")
        let listed = playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }.compactMap { Int($0.dropFirst(4).dropLast(4)) }
        #expect(listed == spooled)
        for sequence in listed {
            #expect(try await get("streams/\(streamID)/" + String(format: "seg/%06d.m4s", sequence)).status == 200)
        }
    }

    /// The default tier holds its rules: `killedThenPublished()` and `LiveS3Tests` (the same bucket publishing).
    @Test("a killed run's spool published to the --output folder and to a bucket (moto) (long tier: make test-long)", .longTier)
    func folderAndBucketLongTier() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let folder = FolderOrigin(root: URL(fileURLWithPath: dir.path("out")))
        try await Self.killThenPublish(streamID: "tofolder", arguments: ["--output", dir.path("out")],
                                       environment: ["XDG_STATE_HOME": dir.path("state")], spool: dir.path("state/reel/spool/tofolder")) {
            let answer = try await folder.get($0)
            return (answer.status, answer.body)
        }
        try await withMotoS3 { server in
            try await Self.killThenPublish(streamID: "tobucket", arguments: server.liveArguments,
                                           environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 },
                                           spool: dir.path("state/reel/spool/tobucket")) {
                let answer = try await server.get($0)
                return (answer.status, answer.body)
            }
        }
    }
}
