import Foundation
import ReelRuntime
import ReelTestSupport
import Synchronization
import Testing

/// `reel live --origin s3://…` as a user runs it, against moto on loopback (signatures checked),
/// played back over plain HTTP from the bucket.
@Suite("reel live to S3 (moto)", .serialized)
struct LiveS3Tests {
    /// `published N of M segments` from the summary line.
    static func publishedCounts(_ stdout: String) -> (published: Int, produced: Int)? {
        guard let range = stdout.range(of: #"\d+ of \d+ segments published"#, options: .regularExpression) else { return nil }
        let numbers = stdout[range].split(separator: " ").compactMap { Int($0) }
        return numbers.count == 2 ? (numbers[0], numbers[1]) : nil
    }

    @Test("8 s of the test source: every listed object exists, ENDLIST, ffmpeg plays it from the bucket, about 240 frames")
    func publishesAndPlays() async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let result = try ReelBinary.run(["live", "--source", "test"] + server.liveArguments + [
                "--stream-id", "s3play", "--duration", "8", "--no-archive", "--quiet"],
                environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            #expect(result.status == 0, "reel live failed:\n\(result.stdout)\n\(result.stderr)")
            #expect(result.stdout.contains("playlist: \(server.endpoint)/\(server.bucket)/live/streams/s3play/playlist.m3u8"), "\(result.stdout)")
            let summed = try await LiveEndToEndTests.checkFinishedStream(origin: server, streamID: "s3play")
            #expect(summed > 7.9 && summed < 8.1, "\(summed)")
            let frames = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v", "-show_entries", "stream=nb_read_frames",
                                                        "-of", "csv=p=0", server.baseURL.absoluteString + "streams/s3play/playlist.m3u8"])
            // The HLS demuxer shows the stream once per program: "240\n\n240\n".
            let count = frames.stdout.split(whereSeparator: \.isNewline).compactMap { Int($0) }.first ?? 0
            #expect(abs(count - 240) <= 2, "8 s at 30 fps read back over HTTP: \(frames.stdout) \(frames.stderr)")
            #expect(try await server.get("streams/s3play/seg/000000.m4s").status == 404, "the start check's upload was deleted")
        }
    }

    @Test("a wrong secret or a missing bucket: non-zero exit before capture, the clear 403 / 404 sentence, the secret never printed")
    func refusedBeforeCapture() async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let wrongSecret = "WRONG-secret-value-1234567890"
            let wrong = try ReelBinary.run(["live", "--source", "test"] + server.liveArguments + [
                "--stream-id", "s3wrong", "--duration", "5", "--no-archive", "--quiet"],
                environment: server.environment(secret: wrongSecret).merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            #expect(wrong.status != 0)
            #expect(wrong.stderr.contains("the bucket does not take the stream, so nothing was started"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("403 SignatureDoesNotMatch: the secret key does not match the access key \(server.accessKeyID)"), "\(wrong.stderr)")
            #expect(wrong.stderr.contains("Check AWS_SECRET_ACCESS_KEY"), "\(wrong.stderr)")
            #expect(!(wrong.stdout + wrong.stderr).contains(wrongSecret) && !(wrong.stdout + wrong.stderr).contains(server.secretAccessKey))
            #expect(!wrong.stdout.contains("stream:"), "nothing was captured: \(wrong.stdout)")
            #expect(try await server.get("streams/s3wrong/seg/000000.m4s").status == 404)

            let missing = try ReelBinary.run(["live", "--source", "test", "--origin", "s3://no-such-bucket/live", "--s3-endpoint", server.endpoint,
                                              "--stream-id", "s3missing", "--duration", "5", "--no-archive", "--quiet"],
                                             environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            #expect(missing.status != 0 && !missing.stdout.contains("stream:"))
            #expect(missing.stderr.contains("The bucket \"no-such-bucket\" does not exist at \(server.endpoint) (404 NoSuchBucket)"), "\(missing.stderr)")

            let token = try ReelBinary.run(["live", "--source", "test"] + server.liveArguments + ["--token", "t", "--duration", "1"],
                                           environment: server.environment())
            #expect(token.status != 0 && token.stderr.contains("--token is for an HTTP origin"), "\(token.stderr)")
        }
    }

    /// Long tier: the S3 target's retries and failures are tested against moto in the default
    /// tier (`S3TargetTests`), and an outage end to end by `LiveLowLatencyTests`.
    @Test("moto paused (SIGSTOP) for 10 s of a 20 s stream: nothing lost, the playlist never lists a missing object (long tier)",
          .longTier)
    func pausedMidStreamLongTier() async throws {
        try await withMotoS3 { server in
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let reel = try BackgroundProcess(ReelBinary.path(), ["live", "--source", "test"] + server.liveArguments + [
                "--stream-id", "s3pause", "--duration", "20", "--no-archive", "--quiet"],
                environment: server.environment().merging(["XDG_STATE_HOME": dir.path("state")]) { $1 })
            let up = Locked(true)
            let log = LiveEndToEndTests.ReaderLog()
            let reader = Task {
                await LiveEndToEndTests.read(origin: server, streamID: "s3pause", log: log, until: { !reel.isRunning },
                                             originUp: { up.withLock { $0 } })
            }
            // Paused once the reader has the first two segments.
            try await eventually("the first two segments read", within: 30) { log.segmentsFetched >= 3 ? true : nil }
            up.withLock { $0 = false }
            server.pause()
            let pausedAt = ContinuousClock.now
            // The pause is real: a GET gets no answer (the client gives up after 5 s).
            let answered = try? await server.get("streams/s3pause/playlist.m3u8")
            #expect(answered == nil, "moto answered while stopped")
            // The pause is the scenario: 10 s of real capture while the bucket does not answer.
            try await Task.sleep(until: pausedAt + .seconds(10))
            server.resume()
            // Requests the reader had in flight during the pause may still fail: failures count
            // again once a poll that began after the resume has begun (its predecessor is done).
            let pollsAtResume = log.polls
            try await eventually("the reader polling after the resume", within: 30) { log.polls >= pollsAtResume + 2 ? true : nil }
            up.withLock { $0 = true }
            let result = await reel.wait(timeout: .seconds(120))
            await reader.value
            #expect(!result.timedOut)
            #expect(result.status == 0, "reel live failed:\n\(result.stdout)\n\(result.stderr)")
            #expect(log.problems.isEmpty, "reader saw: \(log.problems)")
            #expect(log.segmentsFetched >= 6, "the reader saw the stream grow (\(log.segmentsFetched) in \(log.polls) polls)")
            let counts = try #require(Self.publishedCounts(result.stdout), "\(result.stdout)")
            #expect(counts.published == counts.produced && counts.produced == 10, "every segment the encoder made: \(result.stdout)")
            let summed = try await LiveEndToEndTests.checkFinishedStream(origin: server, streamID: "s3pause")
            #expect(summed > 19.9 && summed < 20.1, "the whole 20 s is in the bucket: \(summed)")
        }
    }
}
