import Foundation
import ReelTestSupport
import Testing

/// `reel live --low-latency` publishing to `reel serve`, with the real binary: the playlists a
/// player sees while it runs keep every LL-HLS rule, blocking reload and the preload hint
/// answer when the part is stored, the parts are the segment's bytes, and ffmpeg plays it.
@Suite("reel live --low-latency against reel serve", .serialized)
struct LiveLowLatencyTests {
    static let token = "low-latency-test-token"

    /// Every distinct playlist version a poller saw while the stream ran, and what it checked.
    final class Watch: @unchecked Sendable {
        let lock = NSLock()
        var versions: [String] = []
        var missing: [String] = []
    }

    @Test("12 s of LL-HLS: every playlist conforms and lists only stored files, parts join to segments, ffmpeg plays it")
    func publishesConformingParts() async throws {
        try await withReelServeOrigin(token: Self.token) { origin in
            let state = try TemporaryDirectory()
            defer { state.cleanup() }
            let live = try LineWatchedProcess(try ReelBinary.path(), ["live", "--source", "test:640x360@30"] + origin.liveArguments + [
                "--stream-id", "ll", "--duration", "12", "--no-archive", "--quiet", "--low-latency"],
                environment: ["XDG_STATE_HOME": state.path("state")])
            let watch = Watch()
            let poller = Task { await Self.poll(origin, watch: watch) }
            let ended = await live.wait(timeout: .seconds(60))
            poller.cancel()
            _ = await poller.value
            #expect(ended.status == 0, "\(ended.stderr)")

            let versions = watch.lock.withLock { watch.versions }
            #expect(versions.count >= 20, "a playlist per part: \(versions.count) versions seen")
            for text in versions {
                let problems = LLHLSConformance.violations(text)
                #expect(problems.isEmpty, "\(problems.joined(separator: "; "))\n\(text)")
            }
            #expect(watch.lock.withLock { watch.missing }.isEmpty, "listed but not stored: \(watch.missing)")
            #expect(versions.contains { $0.contains("#EXT-X-PRELOAD-HINT") && !$0.contains("#EXTINF") },
                    "parts were listed before the first segment was complete")
            let hinted = versions.filter { $0.contains("#EXT-X-PRELOAD-HINT") }.count
            #expect(hinted >= versions.count - 3, "every live version hints the next part, but the last ones: \(hinted) of \(versions.count)")

            let final = String(decoding: try await origin.get("streams/ll/playlist.m3u8").body, as: UTF8.self)
            #expect(final.hasSuffix("#EXT-X-ENDLIST\n"))
            #expect(LLHLSConformance.violations(final).isEmpty)
            try Self.checkPartsJoinToSegments(origin, final)
            try Self.checkIndependence(origin)
            // Bounded: ffmpeg's HLS reader reloads a playlist without ENDLIST for ever.
            let probe = try Subprocess.run("/usr/bin/timeout", ["60", "/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v",
                                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                                origin.baseURL.appendingPathComponent("streams/ll/playlist.m3u8").absoluteString])
            #expect(probe.status == 0, "\(probe.stderr)")
            // One line for the program and one for the stream, both the video's count.
            let frames = probe.stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? 0
            #expect(abs(frames - 360) <= 3, "12 s at 30 fps, read back by ffprobe: \(frames) frames")
        }
    }

    /// Polls the playlist every 50 ms; for each new version, every listed part and segment
    /// must be there already.
    static func poll(_ origin: ReelServeOrigin, stream: String = "ll", watch: Watch) async {
        var last = ""
        while !Task.isCancelled {
            if let answer = try? await origin.get("streams/\(stream)/playlist.m3u8"), answer.status == 200 {
                let text = String(decoding: answer.body, as: UTF8.self)
                if text != last {
                    last = text
                    watch.lock.withLock { watch.versions.append(text) }
                    let uris = text.split(separator: "\n").compactMap { line -> String? in
                        if line.hasPrefix("seg/") { return String(line) }
                        if line.hasPrefix("#EXT-X-PART:") { return LLHLSConformance.attributes(line.dropFirst("#EXT-X-PART:".count))["URI"] }
                        return nil
                    }
                    for uri in uris.suffix(8) {
                        let status = (try? await origin.get("streams/\(stream)/\(uri)").status) ?? 0
                        // Cancelling the poller cancels the request in flight: that is no missing file.
                        if Task.isCancelled { return }
                        if status != 200 { watch.lock.withLock { watch.missing.append("\(uri): \(status)") } }
                    }
                }
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
    }

    /// Each segment whose parts are listed is its parts' bytes joined (a player reading parts
    /// and one reading segments get the same fragments); every part file of the stream is
    /// used by exactly one segment.
    static func checkPartsJoinToSegments(_ origin: ReelServeOrigin, _ playlist: String) throws {
        let folder = origin.data.appendingPathComponent("streams/ll")
        let partFiles = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("part").path)
        let segments = playlist.split(separator: "\n").filter { $0.hasPrefix("seg/") }
        var joinedParts = 0
        for uri in segments {
            let sequence = String(uri.dropFirst(4).dropLast(4))
            let parts = partFiles.filter { $0.hasPrefix(sequence + ".") }
                .sorted { Int($0.split(separator: ".")[1])! < Int($1.split(separator: ".")[1])! }
            #expect(!parts.isEmpty, "segment \(sequence) was published in parts")
            let joined = try parts.reduce(into: Data()) { $0 += try Data(contentsOf: folder.appendingPathComponent("part/\($1)")) }
            let segment = try Data(contentsOf: folder.appendingPathComponent(String(uri)))
            #expect(joined == segment, "segment \(sequence) equals its \(parts.count) parts joined")
            joinedParts += parts.count
        }
        #expect(joinedParts == partFiles.count, "no part file outside the segments")
    }

    /// Part 0 starts with a key frame and the other parts do not: init + part, read by ffprobe.
    static func checkIndependence(_ origin: ReelServeOrigin) throws {
        let folder = origin.data.appendingPathComponent("streams/ll")
        let scratch = try TemporaryDirectory()
        defer { scratch.cleanup() }
        for name in ["000002.0.m4s", "000002.1.m4s", "000003.0.m4s", "000003.4.m4s"] {
            let file = URL(fileURLWithPath: scratch.path(name + ".mp4"))
            try (try Data(contentsOf: folder.appendingPathComponent("init.mp4")) + Data(contentsOf: folder.appendingPathComponent("part/\(name)")))
                .write(to: file)
            // The container's sync-sample flag of the first video packet: what a player goes by.
            let probe = try Subprocess.run("/usr/bin/ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=flags",
                                                                "-read_intervals", "%+#1", "-of", "csv=p=0", file.path])
            let flags = probe.stdout.split(separator: "\n").first.map(String.init) ?? "none"
            #expect(flags.hasPrefix("K") == name.hasSuffix(".0.m4s"), "first packet of part \(name): flags \(flags)")
        }
    }

    @Test("blocking reload and the preload hint: held until the part is stored, then answered with it")
    func blockingReloadAgainstTheLiveStream() async throws {
        try await withReelServeOrigin(token: Self.token) { origin in
            let state = try TemporaryDirectory()
            defer { state.cleanup() }
            let live = try LineWatchedProcess(try ReelBinary.path(), ["live", "--source", "test:640x360@30"] + origin.liveArguments + [
                "--stream-id", "ll", "--duration", "8", "--no-archive", "--quiet", "--low-latency"],
                environment: ["XDG_STATE_HOME": state.path("state")])
            defer { live.send(SIGKILL) }
            // Wait for the first segment, then ask for what comes next.
            var text = ""
            for _ in 0..<200 where !text.contains("#EXTINF") {
                try await Task.sleep(for: .milliseconds(50))
                text = String(decoding: (try? await origin.get("streams/ll/playlist.m3u8").body) ?? Data(), as: UTF8.self)
            }
            let hint = try #require(text.split(separator: "\n").first { $0.hasPrefix("#EXT-X-PRELOAD-HINT:") })
            let hinted = try #require(LLHLSConformance.attributes(hint.dropFirst("#EXT-X-PRELOAD-HINT:".count))["URI"])
            let (hintedSequence, hintedIndex) = try #require(LLHLSConformance.partAddress(hinted))
            // Four parts after the hinted one (six parts a segment at 30 fps): more than a
            // second away, not stored when asked, so the origin holds the request.
            let (msn, index) = hintedIndex + 4 < 6 ? (hintedSequence, hintedIndex + 4) : (hintedSequence + 1, hintedIndex + 4 - 6)
            let wanted = "part/\(String(format: "%06d", msn)).\(index).m4s"
            let askedAt = Date()
            let asked = ContinuousClock.now
            let reload = try await origin.get("streams/ll/playlist.m3u8?_HLS_msn=\(msn)&_HLS_part=\(index)")
            let reloadWait = ContinuousClock.now - asked
            #expect(reload.status == 200)
            let answered = String(decoding: reload.body, as: UTF8.self)
            #expect(answered.contains("URI=\"\(wanted)\""), "the held answer lists the part asked for:\n\(answered)")
            let storedAt = try FileManager.default.attributesOfItem(atPath: origin.data.appendingPathComponent("streams/ll/\(wanted)").path)[.modificationDate] as? Date
            #expect(try #require(storedAt) >= askedAt, "the part was stored after the request came, so it was held")
            #expect(reloadWait < .seconds(6), "answered within three target durations (\(reloadWait))")

            // A request for the part the new playlist hints is held until the part exists.
            let nextHint = try #require(answered.split(separator: "\n").first { $0.hasPrefix("#EXT-X-PRELOAD-HINT:") })
            let nextURI = try #require(LLHLSConformance.attributes(nextHint.dropFirst("#EXT-X-PRELOAD-HINT:".count))["URI"])
            let partAsked = ContinuousClock.now
            let partAnswer = try await origin.get("streams/ll/\(nextURI)")
            let partWait = ContinuousClock.now - partAsked
            #expect(partAnswer.status == 200)
            let stored = try Data(contentsOf: origin.data.appendingPathComponent("streams/ll/\(nextURI)"))
            #expect(partAnswer.body == stored && !stored.isEmpty, "the held GET got the part's bytes")
            #expect(partWait < .seconds(6), "(\(partWait))")

            // Too far ahead: refused at once.
            let tooFar = try await origin.get("streams/ll/playlist.m3u8?_HLS_msn=\(msn + 3)")
            #expect(tooFar.status == 400)
            print("blocking reload held \(reloadWait), hinted part held \(partWait)")
        }
    }

    /// The default tier holds its rules: `PublishQueueTests` (an outage backs off, loses nothing, catches up) and `HLSPublisherTests`' outage against a real origin.
    @Test("the origin goes away for 3 s: no segment lost, parts resume, every stored playlist conforms (long tier: make test-long)", .longTier)
    func originOutageLongTier() async throws {
        try await withReelServeOrigin(token: Self.token) { origin in
            let state = try TemporaryDirectory()
            defer { state.cleanup() }
            let live = try LineWatchedProcess(try ReelBinary.path(), ["live", "--source", "test:640x360@30"] + origin.liveArguments + [
                "--stream-id", "ll", "--duration", "14", "--no-archive", "--quiet", "--low-latency"],
                environment: ["XDG_STATE_HOME": state.path("state")])
            var text = ""
            for _ in 0..<200 where !text.contains("#EXTINF") {
                try await Task.sleep(for: .milliseconds(50))
                text = String(decoding: (try? await origin.get("streams/ll/playlist.m3u8").body) ?? Data(), as: UTF8.self)
            }
            await origin.stop()
            // The outage is the scenario: 3 s of real capture with the origin gone.
            try await Task.sleep(for: .seconds(3))
            try await origin.restart()
            let ended = await live.wait(timeout: .seconds(90))
            #expect(ended.status == 0, "\(ended.stderr)")
            let final = String(decoding: try await origin.get("streams/ll/playlist.m3u8").body, as: UTF8.self)
            #expect(final.hasSuffix("#EXT-X-ENDLIST\n"))
            #expect(LLHLSConformance.violations(final).isEmpty, "\(LLHLSConformance.violations(final))")
            let segments = final.split(separator: "\n").filter { $0.hasPrefix("seg/") }
            #expect(segments.count == 7, "14 s of 2 s segments, none lost: \(segments.count)")
            for uri in final.split(separator: "\n").compactMap({ line -> String? in
                line.hasPrefix("#EXT-X-PART:") ? LLHLSConformance.attributes(line.dropFirst("#EXT-X-PART:".count))["URI"] : nil
            }) {
                #expect(try await origin.get("streams/ll/\(uri)").status == 200, "listed part \(uri) is stored")
            }
            #expect(final.contains("part/000007.0.m4s"), "parts resumed after the outage:\n\(final)")
        }
    }

    /// Long tier: the window's rules are tested without I/O (`SlidingWindowTests`) and a killed
    /// windowed run end to end (`LiveResumeTests`); this adds 24 s of LL-HLS on a window.
    @Test("--window 16 with LL-HLS for 24 s: the playlist keeps 8 segments numbered on, every version conforms, blocking reload and delta updates work on it, older segments stay stored, ffprobe plays the window (long tier)",
          .longTier)
    func slidingWindowLongTier() async throws {
        try await withReelServeOrigin(token: Self.token) { origin in
            let state = try TemporaryDirectory()
            defer { state.cleanup() }
            let live = try LineWatchedProcess(try ReelBinary.path(), ["live", "--source", "test:640x360@30"] + origin.liveArguments + [
                "--stream-id", "win", "--duration", "24", "--no-archive", "--quiet", "--low-latency", "--window", "16"],
                environment: ["XDG_STATE_HOME": state.path("state")])
            defer { live.send(SIGKILL) }
            let watch = Watch()
            let poller = Task { await Self.poll(origin, stream: "win", watch: watch) }
            // Once the window slides (segment 10 listed): a blocking reload for the next
            // segment's first part is held and answered, and a delta update skips the oldest.
            var text = ""
            for _ in 0..<400 where !text.contains("seg/000010.m4s") {
                try await Task.sleep(for: .milliseconds(50))
                text = String(decoding: (try? await origin.get("streams/win/playlist.m3u8").body) ?? Data(), as: UTF8.self)
            }
            let listed = text.split(separator: "\n").compactMap { $0.hasPrefix("seg/") ? Int($0.dropFirst(4).dropLast(4)) : nil }
            let last = try #require(listed.last)
            #expect(listed == Array((last - 7)...last) && text.contains("#EXT-X-MEDIA-SEQUENCE:\(last - 7)\n"), "\(text)")
            let reload = try await origin.get("streams/win/playlist.m3u8?_HLS_msn=\(last + 1)&_HLS_part=0")
            let held = String(decoding: reload.body, as: UTF8.self)
            #expect(reload.status == 200 && held.contains("URI=\"part/\(String(format: "%06d", last + 1)).0.m4s\""), "\(reload.status)\n\(held)")
            let delta = String(decoding: try await origin.get("streams/win/playlist.m3u8?_HLS_skip=YES").body, as: UTF8.self)
            #expect(delta.contains("#EXT-X-SKIP:SKIPPED-SEGMENTS="), "\(delta)")
            #expect(LLHLSConformance.violations(delta).isEmpty, "\(LLHLSConformance.violations(delta))\n\(delta)")

            let ended = await live.wait(timeout: .seconds(60))
            poller.cancel()
            _ = await poller.value
            #expect(ended.status == 0, "\(ended.stderr)")
            let versions = watch.lock.withLock { watch.versions }
            for version in versions {
                let problems = LLHLSConformance.violations(version)
                #expect(problems.isEmpty, "\(problems.joined(separator: "; "))\n\(version)")
                #expect(version.components(separatedBy: "#EXTINF:").count - 1 <= 8, "at most 8 segments listed:\n\(version)")
            }
            #expect(watch.lock.withLock { watch.missing }.isEmpty, "listed but not stored: \(watch.missing)")

            let final = String(decoding: try await origin.get("streams/win/playlist.m3u8").body, as: UTF8.self)
            #expect(final.hasSuffix("#EXT-X-ENDLIST\n") && final.contains("#EXT-X-MEDIA-SEQUENCE:5\n") && final.contains("seg/000012.m4s"),
                    "12 segments, the last 8 listed:\n\(final)")
            #expect(try await origin.get("streams/win/seg/000001.m4s").status == 200, "a segment that left the window stays stored")
            let probe = try Subprocess.run("/usr/bin/timeout", ["60", "/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v",
                                                                "-show_entries", "stream=nb_read_frames", "-of", "csv=p=0",
                                                                origin.baseURL.appendingPathComponent("streams/win/playlist.m3u8").absoluteString])
            let frames = probe.stdout.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.first ?? 0
            #expect(probe.status == 0 && abs(frames - 480) <= 3, "the window's 16 s at 30 fps: \(frames) frames \(probe.stderr)")
        }
    }

    @Test("settings LL-HLS cannot keep are refused before capture, saying what to do")
    func refusals() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        func live(_ arguments: [String]) throws -> Subprocess {
            try ReelBinary.run(["live", "--no-archive", "--quiet", "--duration", "2"] + arguments,
                               environment: ["XDG_STATE_HOME": dir.path("state"), "AWS_ACCESS_KEY_ID": "a", "AWS_SECRET_ACCESS_KEY": "b"])
        }
        let short = try live(["--source", "test:320x240@30", "--output", dir.path("out"), "--part-seconds", "0.05"])
        #expect(short.status != 0 && short.stderr.contains("--part-seconds must be between 0.1 and 1"), "\(short.stderr)")
        let bucket = try live(["--source", "test:320x240@30", "--origin", "s3://bucket/live", "--s3-endpoint", "http://127.0.0.1:9/",
                               "--s3-region", "us-east-1", "--low-latency"])
        #expect(bucket.status != 0 && bucket.stderr.contains("reel serve does"), "\(bucket.stderr)")
        let slow = try live(["--source", "test:320x240@1", "--output", dir.path("slow"), "--low-latency"])
        #expect(slow.status != 0 && slow.stderr.contains("at least 2 fps"), "\(slow.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("slow/streams/")), "nothing published")
        let narrow = try live(["--source", "test:320x240@30", "--output", dir.path("narrow"), "--window", "10"])
        #expect(narrow.status != 0 && narrow.stderr.contains("--window must be at least 6 segments long (12 s"), "\(narrow.stderr)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("narrow/streams/")), "nothing published")
    }
}
