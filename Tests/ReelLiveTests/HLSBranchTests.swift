import ReelRuntime
import Foundation
import ReelCore
import ReelMedia
import ReelTestSupport
import Synchronization
import Testing
@testable import ReelLive

/// Collects what the HLS branch publishes (the branch's real output, bytes and all).
final class CollectingSink: HLSSegmentSink {
    struct Published { var sequence: Int; var duration: MediaTime; var date: Date; var followsDiscontinuity: Bool; var bytes: Data }
    let initBytes = Locked<Data?>(nil)
    let segments = Locked<[Published]>([])
    func publishInit(_ bytes: Data) { initBytes.withLock { $0 = bytes } }
    func publishSegment(sequence: Int, duration: MediaTime, date: Date, followsDiscontinuity: Bool, bytes: Data) {
        segments.withLock { $0.append(Published(sequence: sequence, duration: duration, date: date, followsDiscontinuity: followsDiscontinuity, bytes: bytes)) }
    }
}

@Suite("HLS branch")
struct HLSBranchTests {
    @Test("segments start on key frames, EXTINFs sum to the media, stream starts at 10 s, A/V both present")
    func timingAndCuts() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let sink = CollectingSink()
        let source = TestPatternSource(width: 640, height: 360, framesPerSecond: 30, realTime: false)
        let clock = CaptureClockMap(capture: MonotonicClock.now(), date: Date(timeIntervalSince1970: 1_800_000_000))
        let branch = try HLSBranch(
            video: VideoEncoderSettings(codec: .h264, width: 360, height: 640, framesPerSecond: 30, bitRate: 800_000,
                                        preset: .veryfast, keyFramesOnDemand: true, zeroLatency: true),
            audio: AudioEncoderSettings(channels: 1, bitRate: 64_000),
            segmentInterval: MediaTime(value: 2, timescale: 1), frameDuration: source.format.frameDuration,
            sink: sink, clock: clock)
        var first: MediaTime?
        var frames = 0
        try source.run { sample in
            if first == nil { first = sample.captureTime }
            // 7.5 s of media: 3 full segments and a short one.
            if (sample.captureTime - first!).seconds >= 7.5 { source.stop(); return }
            if case .video = sample { frames += 1 }
            try branch.handle(sample)
        }
        try branch.finish()
        let segments = sink.segments.withLock { $0 }
        let initBytes = try #require(sink.initBytes.withLock { $0 })
        #expect(segments.map(\.sequence) == [1, 2, 3, 4])
        #expect(branch.targetDuration == 2)
        for s in segments.dropLast() { #expect(s.duration == MediaTime(value: 2, timescale: 1), "segment \(s.sequence)") }
        let total = segments.reduce(MediaTime.zero) { $0 + $1.duration }
        #expect(abs(total.seconds - Double(frames) / 30) < 1.0 / 30 + 1e-6, "summed EXTINF within a frame of the media")
        // Dates advance by the segment durations.
        #expect(abs(segments[1].date.timeIntervalSince(segments[0].date) - 2) < 0.001)

        var whole = initBytes
        for s in segments { whole += s.bytes }
        let file = dir.path("stream.mp4")
        try whole.write(to: URL(fileURLWithPath: file))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,profile,start_time,has_b_frames",
                                                   "-of", "compact=p=0", file])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("codec_name=h264|profile=High"), "\(probe.stdout)")
        #expect(probe.stdout.contains("codec_name=aac"), "\(probe.stdout)")
        #expect(probe.stdout.contains("has_b_frames=0"), "\(probe.stdout)")
        let starts = probe.stdout.split(separator: "\n").compactMap { line in
            line.split(separator: "|").first { $0.hasPrefix("start_time=") }.flatMap { Double($0.dropFirst("start_time=".count)) }
        }
        #expect(starts.count == 2)
        #expect(abs(starts[0] - 10) < 0.001, "video starts at 10 s: \(starts)")
        #expect(abs(starts[1] - starts[0]) < 0.05, "A/V start offset kept: \(starts)")
        // A key frame exactly at each segment start (every 60 frames).
        let keys = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame",
                                                  "-of", "csv=p=0", file])
        let flags = keys.stdout.split(separator: "\n").map { $0.hasPrefix("1") }
        #expect(flags.count == frames)
        #expect(flags.enumerated().filter(\.element).map(\.offset) == [0, 60, 120, 180])
    }

    @Test("a source that stalls for longer than 10 intervals: the segment after the gap follows a discontinuity, and the playlist plays")
    func stallBecomesADiscontinuity() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let sink = CollectingSink()
        let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 30, realTime: false)
        let clock = CaptureClockMap(capture: MonotonicClock.now(), date: Date(timeIntervalSince1970: 1_800_000_000))
        let branch = try HLSBranch(
            video: VideoEncoderSettings(codec: .h264, width: 180, height: 320, framesPerSecond: 30, bitRate: 300_000,
                                        preset: .veryfast, keyFramesOnDemand: true, zeroLatency: true),
            audio: nil, segmentInterval: MediaTime(value: 2, timescale: 1), frameDuration: source.format.frameDuration,
            sink: sink, clock: clock)
        var first: MediaTime?
        try source.run { sample in
            guard case .video = sample else { return }
            if first == nil { first = sample.captureTime }
            let elapsed = (sample.captureTime - first!).seconds
            if elapsed >= 28 { source.stop(); return }
            // Frames from 3 s to 25 s never arrive: a 22 s stall, over 10 intervals of 2 s.
            if elapsed >= 3 && elapsed < 25 { return }
            try branch.handle(sample)
        }
        try branch.finish()
        let segments = sink.segments.withLock { $0 }
        #expect(segments.map(\.followsDiscontinuity) == [false, false, true, false], "\(segments.map { ($0.sequence, $0.duration.seconds) })")
        #expect(abs(segments[1].duration.seconds - 1) < 0.001, "the interrupted segment ends with its last frame")
        #expect(abs(segments[2].date.timeIntervalSince(segments[1].date) - 23) < 0.05, "the date after the gap is the capture's")

        // Rendered with EXT-X-DISCONTINUITY, the stream plays from files in ffmpeg.
        let folder = dir.url.appendingPathComponent("hls")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("seg"), withIntermediateDirectories: true)
        try #require(sink.initBytes.withLock { $0 }).write(to: folder.appendingPathComponent("init.mp4"))
        var playlist = HLSPlaylist(targetDuration: branch.targetDuration, isFinished: true)
        for segment in segments {
            try segment.bytes.write(to: folder.appendingPathComponent(StreamLayout.segmentURI(sequence: segment.sequence)))
            playlist.segments.append(.init(sequence: segment.sequence, duration: segment.duration, programDateTime: segment.date,
                                           followsDiscontinuity: segment.followsDiscontinuity))
        }
        let text = playlist.rendered()
        #expect(text.components(separatedBy: "#EXT-X-DISCONTINUITY\n#EXT-X-PROGRAM-DATE-TIME").count == 2, "\(text)")
        try text.write(to: folder.appendingPathComponent("playlist.m3u8"), atomically: true, encoding: .utf8)
        let played = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "error", "-allowed_extensions", "ALL",
                                                   "-i", folder.appendingPathComponent("playlist.m3u8").path, "-f", "null", "-"])
        #expect(played.status == 0 && played.stderr.isEmpty, "\(played.stderr)")
    }
}
