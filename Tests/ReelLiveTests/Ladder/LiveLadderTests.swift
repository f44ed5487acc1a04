import Foundation
import ReelCore
import ReelTestSupport
import Testing

/// `reel live --ladder` with the real binary: every rung's files in its own folder, segments
/// cut at the same media times in every rung, a multivariant playlist whose numbers are what
/// was produced, ffmpeg playing it; a killed ladder run's spool published by `reel publish`.
@Suite("reel live --ladder", .serialized)
struct LiveLadderTests {
    /// The `#EXTINF` durations and `seg/` names of a media playlist.
    static func segments(_ playlist: String) -> [(duration: Double, uri: String)] {
        let lines = playlist.split(separator: "\n").map(String.init)
        return lines.indices.compactMap { index in
            guard lines[index].hasPrefix("#EXTINF:"), index + 1 < lines.count,
                  let duration = Double(lines[index].dropFirst(8).split(separator: ",").first ?? "") else { return nil }
            return (duration, lines[index + 1])
        }
    }

    /// The presentation times of the key frames of `init` + `segments`, read by ffprobe.
    static func keyFrameTimes(_ folder: URL, _ uris: [String], scratch: TemporaryDirectory, name: String) throws -> [String] {
        var whole = try Data(contentsOf: folder.appendingPathComponent("init.mp4"))
        for uri in uris { whole += try Data(contentsOf: folder.appendingPathComponent(uri)) }
        let file = scratch.path(name + ".mp4")
        try whole.write(to: URL(fileURLWithPath: file))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "packet=pts_time,flags",
                                                   "-of", "csv=p=0", file])
        return probe.stdout.split(separator: "\n").filter { $0.hasSuffix("K__") || $0.hasSuffix("K_") || $0.contains(",K") }
            .map { String($0.split(separator: ",")[0]) }
    }

    @Test("three rungs into a folder: the same cuts in every rung, a multivariant playlist of what was produced, ffmpeg plays it")
    func ladderIntoAFolder() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let run = try ReelBinary.run(["live", "--source", "test:640x360@30", "--ladder", "low,medium,640x360@600k", "--output", dir.path("out"),
                                      "--stream-id", "abr", "--duration", "8.5", "--no-archive", "--quiet", "--landscape", "--fast"],
                                     environment: ["XDG_STATE_HOME": dir.path("state")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("ladder medium 1280x720 1500 kbps, low 854x480 900 kbps, 360p-600k 640x360 600 kbps"), "\(run.stdout)")
        let stream = URL(fileURLWithPath: dir.path("out/streams/abr"))
        let multivariant = try String(contentsOf: stream.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
        let lines = multivariant.split(separator: "\n").map(String.init)
        #expect(lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.count == 3, "\(multivariant)")
        #expect(lines.filter { !$0.hasPrefix("#") } == ["medium/playlist.m3u8", "low/playlist.m3u8", "360p-600k/playlist.m3u8"])

        let scratch = try TemporaryDirectory()
        defer { scratch.cleanup() }
        var keyFrames: [[String]] = []
        var listings: [[(duration: Double, uri: String)]] = []
        for (index, rung) in ["medium", "low", "360p-600k"].enumerated() {
            let folder = stream.appendingPathComponent(rung)
            let playlist = try String(contentsOf: folder.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
            #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n"), "\(rung)")
            let listed = Self.segments(playlist)
            listings.append(listed)
            keyFrames.append(try Self.keyFrameTimes(folder, listed.map(\.uri), scratch: scratch, name: rung))
            // The variant's numbers: measured from this rung's files, CODECS from its init segment.
            let attributes = LLHLSConformance.attributes(lines[lines.firstIndex(of: "\(rung)/playlist.m3u8")! - 1].dropFirst("#EXT-X-STREAM-INF:".count))
            let sizes = try listed.map { try Data(contentsOf: folder.appendingPathComponent($0.uri)).count }
            let rates = zip(sizes, listed).filter { $1.duration >= 1.5 }.map { Double($0 * 8) / $1.duration }
            let average = Double(sizes.reduce(0, +) * 8) / listed.reduce(0) { $0 + $1.duration }
            let peak = Int(attributes["BANDWIDTH"] ?? "") ?? 0, averageListed = Int(attributes["AVERAGE-BANDWIDTH"] ?? "") ?? 0
            // EXTINF is printed to the millisecond: allow that rounding.
            #expect(abs(Double(averageListed) - average) <= average * 0.002, "\(rung): \(averageListed) vs \(average)")
            #expect(abs(Double(peak) - max(rates.max() ?? 0, average)) <= Double(peak) * 0.002, "\(rung): \(peak) vs \(rates)")
            let codecs = CodecString.codecs(ofInitSegment: try Data(contentsOf: folder.appendingPathComponent("init.mp4")))
            #expect(attributes["CODECS"] == codecs && codecs?.hasPrefix("avc1.") == true, "\(rung): \(attributes)")
            #expect(attributes["RESOLUTION"] == ["1280x720", "854x480", "640x360"][index] && attributes["FRAME-RATE"] == "30.000")
        }
        #expect(listings[0].count == 5, "8.5 s: four segments and a short one (which is no peak)")
        #expect(listings[1].map(\.duration) == listings[0].map(\.duration) && listings[2].map(\.duration) == listings[0].map(\.duration))
        #expect(keyFrames[0].count == listings[0].count, "one key frame a segment: \(keyFrames[0])")
        #expect(keyFrames[1] == keyFrames[0] && keyFrames[2] == keyFrames[0], "key frames at the same media times: \(keyFrames)")
        // The bit rates follow the rungs.
        let bandwidths = lines.filter { $0.hasPrefix("#EXT-X-STREAM-INF:") }.compactMap {
            Int(LLHLSConformance.attributes($0.dropFirst("#EXT-X-STREAM-INF:".count))["AVERAGE-BANDWIDTH"] ?? "")
        }
        #expect(bandwidths == bandwidths.sorted(by: >), "\(bandwidths)")

        // ffmpeg reads every variant of the multivariant playlist to the end.
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries",
                                                   "stream=width,nb_read_frames", "-of", "csv=p=0", stream.appendingPathComponent("playlist.m3u8").path])
        #expect(probe.status == 0, "\(probe.stderr)")
        let frames = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }
        #expect(Set(frames.compactMap(\.first)) == ["1280", "854", "640"], "\(probe.stdout)")
        #expect(frames.allSatisfy { $0.count == 2 && abs((Int($0[1]) ?? 0) - 255) <= 2 }, "8.5 s at 30 fps in every variant: \(probe.stdout)")
        #expect(!FileManager.default.fileExists(atPath: dir.path("state/reel/spool/abr")), "the spool is removed once everything is out")
    }

    @Test("bad ladders are refused before anything starts, saying why")
    func badLaddersAreRefused() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let cases: [([String], String)] = [
            (["--ladder", "low,huge"], "'huge' is not a rung"),
            (["--ladder", "low,medium,high,1280x720@4M,640x360@300k"], "a ladder has 1 to 4 rungs, got 5"),
            (["--ladder", "low,low"], "'low' is in the ladder twice"),
            (["--ladder", "low", "--quality", "high"], "--quality"),
        ]
        for (arguments, message) in cases {
            let run = try ReelBinary.run(["live", "--source", "test", "--output", dir.path("out"), "--duration", "1", "--no-archive"] + arguments,
                                         environment: ["XDG_STATE_HOME": dir.path("state")])
            #expect(run.status == 64 && run.stderr.contains(message), "\(arguments): \(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: dir.path("out")), "nothing was written")
    }

    @Test("a ladder whose rungs were all published but not its last multivariant playlist: reel live names it, reel publish puts it, or keeps it when the target fails")
    func aSpooledMultivariantAloneIsPublished() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let environment = ["XDG_STATE_HOME": dir.path("state")]
        // What LivePublisher leaves when every rung's spool was removed but the final PUT failed.
        let spool = dir.path("state/reel/spool/abr")
        let text = """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-STREAM-INF:BANDWIDTH=436000,AVERAGE-BANDWIDTH=402000,CODECS="avc1.64001e,mp4a.40.2",RESOLUTION=640x360,FRAME-RATE=30.000
            360p-1500k/playlist.m3u8
            #EXT-X-STREAM-INF:BANDWIDTH=171000,AVERAGE-BANDWIDTH=160000,CODECS="avc1.64000c,mp4a.40.2",RESOLUTION=320x180,FRAME-RATE=30.000
            180p-100k/playlist.m3u8

            """
        try FileManager.default.createDirectory(atPath: spool, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: spool + "/playlist.m3u8"))

        let same = try ReelBinary.run(["live", "--source", "test", "--output", dir.path("x"), "--stream-id", "abr", "--duration", "1",
                                       "--no-archive", "--quiet"], environment: environment)
        #expect(same.status == 1 && same.stderr.contains("stream ID abr has its playlist waiting in the spool"), "\(same.stderr)")
        let other = try ReelBinary.run(["live", "--source", "test", "--output", dir.path("x"), "--stream-id", "other", "--duration", "1",
                                        "--no-archive", "--quiet"], environment: environment)
        #expect(other.stderr.contains("1 stream waits in the spool: abr (its playlist not published)"), "\(other.stderr)")

        // A target that cannot take it (its streams folder is a file): said, and the spool stays.
        try FileManager.default.createDirectory(atPath: dir.path("blocked"), withIntermediateDirectories: true)
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: dir.path("blocked/streams")))
        let failed = try ReelBinary.run(["publish", "abr", "--output", dir.path("blocked")], environment: environment)
        #expect(failed.status == 1 && failed.stdout.contains("the multivariant playlist was not published"), "\(failed.stdout)\(failed.stderr)")
        #expect(FileManager.default.contents(atPath: spool + "/playlist.m3u8") == Data(text.utf8), "kept, unchanged")

        let published = try ReelBinary.run(["publish", "abr", "--output", dir.path("second")], environment: environment)
        #expect(published.status == 0 && published.stdout.contains("every rung was published before"), "\(published.stdout)\(published.stderr)")
        #expect(FileManager.default.contents(atPath: dir.path("second/streams/abr/playlist.m3u8")) == Data(text.utf8))
        #expect(!FileManager.default.fileExists(atPath: spool), "the spool is removed once the playlist was published")
    }

    /// The default tier holds its rules: `ladderIntoAFolder()` and `ladderIntoABucket()` (every rung and the multivariant playlist) and `LiveResumeTests.killedThenPublished()`.
    @Test("a ladder run killed mid-stream: reel live names its spool, reel publish publishes every rung and the multivariant playlist (long tier: make test-long)", .longTier)
    func killedLadderIsPublishedLongTier() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let environment = ["XDG_STATE_HOME": dir.path("state")]
        let spool = dir.path("state/reel/spool/cut")
        let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:320x240@30", "--ladder", "low,320x240@300k", "--landscape", "--output",
                                                             dir.path("first"), "--stream-id", "cut", "--duration", "60", "--no-archive", "--quiet"],
                                         environment: environment)
        // Killed once the multivariant playlist is spooled and each rung has two segments.
        let deadline = ContinuousClock.now + .seconds(30)
        func segmentsSpooled(_ rung: String) -> Int {
            ((try? FileManager.default.contentsOfDirectory(atPath: spool + "/\(rung)/seg")) ?? []).count
        }
        while ContinuousClock.now < deadline && !(FileManager.default.fileExists(atPath: spool + "/playlist.m3u8")
            && segmentsSpooled("low") >= 2 && segmentsSpooled("240p-300k") >= 2) {
            try await Task.sleep(for: .milliseconds(100))
        }
        reel.send(SIGKILL)
        _ = await reel.wait(timeout: .seconds(10))
        let spooled = ["low", "240p-300k"].map(segmentsSpooled)
        #expect(spooled.allSatisfy { $0 >= 2 }, "\(spooled)")

        let other = try ReelBinary.run(["live", "--source", "test", "--output", dir.path("other"), "--stream-id", "other", "--duration", "1",
                                        "--no-archive", "--quiet"], environment: environment)
        #expect(other.stderr.contains("1 stream waits in the spool: cut"), "\(other.stderr)")

        let published = try ReelBinary.run(["publish", "cut", "--output", dir.path("second")], environment: environment)
        #expect(published.status == 0, "\(published.stdout)\(published.stderr)")
        #expect(!FileManager.default.fileExists(atPath: spool), "the spool is removed once everything was published")
        let stream = URL(fileURLWithPath: dir.path("second/streams/cut"))
        let multivariant = try String(contentsOf: stream.appendingPathComponent("playlist.m3u8"), encoding: .utf8)
        #expect(multivariant.contains("low/playlist.m3u8\n") && multivariant.contains("240p-300k/playlist.m3u8\n"), "\(multivariant)")
        for (rung, count) in zip(["low", "240p-300k"], spooled) {
            let playlist = try String(contentsOf: stream.appendingPathComponent("\(rung)/playlist.m3u8"), encoding: .utf8)
            #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n") && Self.segments(playlist).count >= count, "\(rung): \(playlist)")
        }
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=width", "-of", "csv=p=0",
                                                   stream.appendingPathComponent("playlist.m3u8").path])
        #expect(probe.status == 0 && Set(probe.stdout.split(separator: "\n")) == ["854", "320"], "\(probe.stdout)\(probe.stderr)")
    }

    @Test("a ladder into a bucket (moto): every variant played back from the bucket by ffmpeg to the last frame")
    func ladderIntoABucket() async throws {
        try await Self.publishLadderToMoto(seconds: 10)
    }

    @Test("acceptance: 60 s of a three-rung ladder into a bucket (moto), played back by ffmpeg (long tier: make test-long)",
          .longTier)
    func sixtySecondsIntoABucketLongTier() async throws {
        try await Self.publishLadderToMoto(seconds: 60)
    }

    /// `reel live --ladder` for `seconds` into moto, then ffprobe reads every variant of the
    /// multivariant playlist from the bucket over HTTP and counts its frames.
    static func publishLadderToMoto(seconds: Int) async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let result = try ReelBinary.run(["live", "--source", "test:640x360@30", "--ladder", "low,480x270@500k,320x180@250k", "--landscape"]
                + server.liveArguments + ["--stream-id", "s3abr", "--duration", "\(seconds)", "--no-archive", "--quiet"],
                environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            #expect(result.status == 0, "reel live failed:\n\(result.stdout)\n\(result.stderr)")
            // Frames the live queue let go under load are bridged by repeats: the count holds.
            let multivariant = try await server.get("streams/s3abr/playlist.m3u8")
            #expect(multivariant.status == 200)
            let text = String(decoding: multivariant.body, as: UTF8.self)
            #expect(text.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["low/playlist.m3u8", "270p-500k/playlist.m3u8", "180p-250k/playlist.m3u8"],
                    "\(text)")
            let probe = try Subprocess.run("/usr/bin/timeout", ["120", "/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v",
                                                                "-show_entries", "stream=width,nb_read_frames", "-of", "csv=p=0",
                                                                server.baseURL.absoluteString + "streams/s3abr/playlist.m3u8"])
            #expect(probe.status == 0, "\(probe.stderr)")
            let rows = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }.filter { $0.count == 2 }
            #expect(Set(rows.map { $0[0] }) == ["854", "480", "320"], "\(probe.stdout)")
            #expect(rows.allSatisfy { abs((Int($0[1]) ?? 0) - 30 * seconds) <= 2 }, "\(seconds) s at 30 fps in every variant: \(probe.stdout)")
        }
    }

    /// The default tier holds its rules: `ladderIntoABucket()` (the rungs) and `LiveLowLatencyTests.publishesConformingParts()` (the LL-HLS rules).
    @Test("a low-latency ladder to reel serve: every rung's playlist keeps the LL-HLS rules, the stream is listed once, ffmpeg plays each variant (long tier: make test-long)", .longTier)
    func lowLatencyLadderThroughReelServeLongTier() async throws {
        try await withReelServeOrigin(token: "ladder-test-token") { origin in
            let state = try TemporaryDirectory()
            defer { state.cleanup() }
            let live = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test:640x360@30", "--ladder", "480x270@500k,320x180@250k",
                                                                 "--landscape", "--low-latency"] + origin.liveArguments
                                                 + ["--stream-id", "llabr", "--duration", "8", "--no-archive", "--quiet"],
                                             environment: ["XDG_STATE_HOME": state.path("state")])
            // While it runs: the top rung reports the other at its own last part, and a blocking
            // reload of the other rung at that part (what a player switching rungs asks) is answered.
            var report: [String: String]?
            let deadline = ContinuousClock.now + .seconds(20)
            while report == nil, ContinuousClock.now < deadline {
                let answer = try await origin.get("streams/llabr/270p-500k/playlist.m3u8")
                let text = String(decoding: answer.body, as: UTF8.self)
                if let line = text.split(separator: "\n").first(where: { $0.hasPrefix("#EXT-X-RENDITION-REPORT:") }) {
                    #expect(LLHLSConformance.violations(text).isEmpty, "\(LLHLSConformance.violations(text))\n\(text)")
                    report = LLHLSConformance.attributes(line.dropFirst("#EXT-X-RENDITION-REPORT:".count))
                } else {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let reported = try #require(report, "no rendition report in the top rung's playlist")
            #expect(reported["URI"] == "../180p-250k/playlist.m3u8", "\(reported)")
            let msn = try #require(reported["LAST-MSN"]), part = try #require(reported["LAST-PART"])
            let switched = try await origin.get("streams/llabr/180p-250k/playlist.m3u8?_HLS_msn=\(msn)&_HLS_part=\(part)")
            let switchedText = String(decoding: switched.body, as: UTF8.self)
            #expect(switched.status == 200 && switchedText.contains("part/\(String(format: "%06d", Int(msn) ?? 0)).\(part).m4s"), "\(switchedText)")
            let run = await live.wait(timeout: .seconds(60))
            let multivariant = String(decoding: try await origin.get("streams/llabr/playlist.m3u8").body, as: UTF8.self)
            #expect(multivariant.split(separator: "\n").filter { !$0.hasPrefix("#") } == ["270p-500k/playlist.m3u8", "180p-250k/playlist.m3u8"],
                    "\(multivariant)")
            for rung in ["270p-500k", "180p-250k"] {
                let playlist = String(decoding: try await origin.get("streams/llabr/\(rung)/playlist.m3u8").body, as: UTF8.self)
                #expect(playlist.hasSuffix("#EXT-X-ENDLIST\n") && playlist.contains("#EXT-X-PART:"), "\(rung): \(playlist)")
                #expect(LLHLSConformance.violations(playlist).isEmpty, "\(rung): \(LLHLSConformance.violations(playlist))")
            }
            let list = String(decoding: try await origin.get("api/streams").body, as: UTF8.self)
            #expect(list.contains("\"playlistURL\":\"/streams/llabr/playlist.m3u8\"") && list.contains("\"isFinished\":true"), "\(list)")
            #expect(list.contains("\"renditions\":[\"180p-250k\",\"270p-500k\"]"), "\(list)")
            let probe = try Subprocess.run("/usr/bin/timeout", ["60", "/usr/bin/ffprobe", "-v", "error", "-count_frames", "-select_streams", "v",
                                                                "-show_entries", "stream=width,nb_read_frames", "-of", "csv=p=0",
                                                                origin.baseURL.appendingPathComponent("streams/llabr/playlist.m3u8").absoluteString])
            #expect(probe.status == 0, "\(probe.stderr)")
            let rows = probe.stdout.split(separator: "\n").map { $0.split(separator: ",").map(String.init) }.filter { $0.count == 2 }
            #expect(Set(rows.map { $0[0] }) == ["480", "320"] && rows.allSatisfy { abs((Int($0[1]) ?? 0) - 240) <= 2 }, "\(probe.stdout)")
        }
    }
}

