import Foundation
import ReelCore
import ReelLive
import ReelTestSupport
import Testing

/// Publishing to an origin whose disk is full: `reel serve` with its data folder on a small
/// tmpfs in a private mount namespace (``ReelServeOrigin/DataFolder/tmpfs(bytes:inodes:)``;
/// needs root, as CI runs). The origin answers 507; the publisher keeps every segment in its
/// spool, retries, says why it is stuck, and catches up once there is room again. nginx is left
/// out here on purpose: what is tested is the publisher's side of a 507, and `reel serve` is
/// the origin whose 507 this project defines (its own tests: ReelOriginTests' storage failures).
@Suite("reel live and a full origin", .serialized)
struct LiveFullOriginTests {
    @Test("the publisher's summary names the 507 and the full disk; every segment stays in the spool")
    func publisherReportsAFullOrigin() async throws {
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 512 << 10)) { origin in
            let spool = try PublishFixtures.temporaryDirectory("spool")
            defer { try? FileManager.default.removeItem(at: spool) }
            let layout = try StreamLayout(streamID: "full")
            let publisher = try HLSPublisher(
                settings: .init(layout: layout, targetDuration: 2, spoolDirectory: spool, drainTimeout: .seconds(3)),
                targets: [try HTTPOriginTarget(baseURL: origin.baseURL, token: origin.token)])
            publisher.submitInit(PublishFixtures.initBytes)
            for sequence in 1...16 { PublishFixtures.submit(sequence, to: publisher) }  // 16 × 48 KiB: more than 512 KiB
            let report = await publisher.finish()

            #expect(!report.isComplete && report.drainTimedOut)
            guard case .incomplete(let missing) = report.targets[0].outcome else {
                Issue.record("expected an incomplete origin, got \(report)")
                return
            }
            #expect(missing.initPublished && !missing.notListed.isEmpty && !missing.endlistPublished)
            let text = report.description
            #expect(text.contains("NOT complete") && text.contains("HTTP 507"), "\(text)")
            #expect(text.contains("no space left on the device while storing streams/full/"), "the origin's own reason: \(text)")
            #expect(text.contains("The origin's disk is full"), "\(text)")
            #expect(text.contains("kept in the spool at \(spool.path)"), "\(text)")

            // The spool is the whole stream, playable: init, every segment, a playlist with ENDLIST.
            #expect(report.spoolKept)
            #expect(try Data(contentsOf: spool.appendingPathComponent("seg/000016.m4s")) == PublishFixtures.segmentBytes(16))
            #expect(try String(contentsOf: spool.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
                    == PublishFixtures.finalPlaylist(segments: 16).rendered())
            // What the origin holds is consistent: its playlist lists only segments it has, whole.
            let served = try await origin.get(layout.playlistPath)
            #expect(served.status == 200)
            let listed = PublishFixtures.listedSegments(in: String(decoding: served.body, as: UTF8.self))
            #expect(!listed.isEmpty && listed.count < 16, "\(listed)")
            for (index, uri) in listed.enumerated() {
                #expect(try await origin.get("\(layout.directory)/\(uri)").body == PublishFixtures.segmentBytes(index + 1))
            }
        }
    }

    @Test("reel live to an origin whose disk fills up: the refused segments wait in the spool, and all arrive once space is freed")
    func liveCatchesUpOnceSpaceIsFreed() async throws {
        try await withReelServeOrigin(dataFolder: .tmpfs(bytes: 2 << 20)) { origin in
            // An old stream fills most of the 2 MiB: room for the start of the new one only
            // (at the low preset a 2 s segment of the test source is 100 to 230 kB).
            #expect(try await origin.put("streams/old/seg/000001.m4s", Data(repeating: 1, count: 1_850_000)).status == 201)
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test"] + origin.liveArguments + [
                "--stream-id", "full", "--quality", "low", "--duration", "8", "--no-archive", "--quiet"],
                environment: ["XDG_STATE_HOME": dir.path("state")])
            let deadline = ContinuousClock.now + .seconds(15)
            while !origin.accessLog.contains(" 507 ") && reel.isRunning && ContinuousClock.now < deadline {
                try await Task.sleep(for: .milliseconds(100))
            }
            let refused = try #require(origin.accessLog.split(separator: "\n").first { $0.contains(" 507 ") }, "the disk never filled up")
            #expect(refused.contains(" PUT /streams/full/"), "\(refused)")
            #expect(reel.isRunning, "a full origin does not stop the stream")
            // The refused upload waits in the spool.
            let path = try #require(refused.split(separator: " ").first { $0.hasPrefix("/streams/full/") })
            let spooled = dir.path("state/reel/spool/full/" + path.dropFirst("/streams/full/".count))
            #expect(FileManager.default.fileExists(atPath: spooled), "\(spooled) is in the spool")

            // The operator frees space; the publisher's next retry goes through and it catches up.
            #expect(try await origin.delete("streams/old").status == 204)
            let result = await reel.wait(timeout: .seconds(60))
            #expect(!result.timedOut && result.status == 0, "reel live: \(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("failed attempts were retried"), "\(result.stdout)")
            let summed = try await LiveEndToEndTests.checkFinishedStream(origin: origin, streamID: "full")
            #expect(summed > 7 && summed < 9, "the whole 8 s arrived: \(summed)")
            #expect(!FileManager.default.fileExists(atPath: dir.path("state/reel/spool/full/seg")), "the spool is removed once all arrived")
        }
    }
}
