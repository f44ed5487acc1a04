import Foundation
import ReelTestSupport
import ReelCore
import Testing
@testable import ReelMedia

@Suite("fMP4 segmenter")
struct FMP4SegmenterTests {
    /// Runs the synthetic source as fast as possible for `seconds` of media.
    func capture(seconds: Double, width: Int = 320, height: Int = 240, _ body: (CaptureSample) throws -> Void) throws {
        let source = TestPatternSource(width: width, height: height, framesPerSecond: 30, realTime: false)
        var first: MediaTime?
        try source.run { sample in
            if first == nil { first = sample.captureTime }
            if (sample.captureTime - first!).seconds >= seconds { source.stop(); return }
            try body(sample)
        }
    }

    @Test("cuts a key-framed segment every 2 s with init once, and ffprobe reads it back")
    func segmentsDecode() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let segmenter = try FMP4Segmenter(
            video: VideoEncoderSettings(codec: .h264, width: 240, height: 426, framesPerSecond: 30, bitRate: 600_000,
                                        preset: .ultrafast, keyFramesOnDemand: true, zeroLatency: true),
            audio: AudioEncoderSettings(channels: 1, bitRate: 64_000))
        var firstVideo: MediaTime?
        var frames = 0
        var segments: [FMP4Segmenter.Segment] = []
        let ten = MediaTime(value: 10, timescale: 1)
        try capture(seconds: 7) { sample in
            switch sample {
            case .video(let frame):
                if firstVideo == nil { firstVideo = frame.captureTime }
                let pts = frame.captureTime - firstVideo! + ten
                try segmenter.appendVideo(frame, pts: pts, keyFrame: frames % 60 == 0)
                frames += 1
            case .audio(let block):
                guard let firstVideo, block.captureTime >= firstVideo else { return }
                try segmenter.appendAudio(block, pts: block.captureTime - firstVideo + ten)
            }
            segments += segmenter.takeSegments()
        }
        try segmenter.finish()
        segments += segmenter.takeSegments()
        let initBytes = try #require(segmenter.takeInitSegment())
        #expect(MP4Boxes.topLevel(initBytes).map(\.type) == ["ftyp", "moov"])
        #expect(segments.count == 4)  // 2 + 2 + 2 + 1 seconds
        for segment in segments.dropLast() { #expect(abs(segment.duration.seconds - 2.0) < 0.001) }
        #expect(abs(segments.last!.duration.seconds - 1.0) < 0.04)
        var whole = initBytes
        for (i, segment) in segments.enumerated() {
            #expect(MP4Boxes.topLevel(segment.bytes).map(\.type).contains("moof"), "segment \(i + 1)")
            whole += segment.bytes
        }
        try whole.write(to: dir.url.appendingPathComponent("all.mp4"))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries",
                                                   "frame=key_frame,pts_time", "-of", "csv=p=0", dir.path("all.mp4")])
        #expect(probe.status == 0, "\(probe.stderr)")
        let keyFrames = probe.stdout.split(separator: "\n").filter { $0.hasPrefix("1,") }
        #expect(keyFrames.count == 4)
        try Self.checkCodecString(of: initBytes, against: dir.path("all.mp4"))
        let decode = try Subprocess.run("ffmpeg", ["-v", "warning", "-i", dir.path("all.mp4"), "-f", "null", "-"])
        #expect(decode.status == 0)
        #expect(decode.stderr.isEmpty, "decoding warned: \(decode.stderr)")
    }

    /// The `CODECS` value read from the init segment names what ffprobe reads from the stream:
    /// the H.264 profile and level, and AAC-LC.
    static func checkCodecString(of initBytes: Data, against file: String) throws {
        let codecs = try #require(CodecString.codecs(ofInitSegment: initBytes))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "stream=profile,level",
                                                   "-of", "csv=p=0", file])
        let fields = probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines).split(separator: ",")
        let profiles = ["High": "64", "Main": "4d", "Constrained Baseline": "42", "Baseline": "42"]
        let profile = try #require(fields.first.flatMap { profiles[String($0)] }, "ffprobe: \(probe.stdout)")
        let level = try #require(fields.last.flatMap { Int($0) })
        let video = try #require(codecs.split(separator: ",").first)
        #expect(video.hasPrefix("avc1.\(profile)") && video.hasSuffix(String(format: "%02x", level)), "\(codecs) against ffprobe's \(probe.stdout)")
        #expect(codecs.hasSuffix(",mp4a.40.2"), "\(codecs)")
    }
}
