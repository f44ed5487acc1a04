import Foundation
import ReelCore
import ReelMedia
import ReelTestSupport
import Testing
@testable import ReelLive

@Suite("Archive branch")
struct ArchiveBranchTests {
    @Test("HEVC 1080x1920 + AAC in one MP4 covering the capture, decoding cleanly")
    func archiveDecodes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let source = TestPatternSource(width: 1280, height: 720, framesPerSecond: 30, realTime: false)
        let settings = ArchiveSettings.default
        let size = settings.dimensions(.portrait)
        let branch = try ArchiveBranch(
            path: dir.path("archive.mp4"),
            video: VideoEncoderSettings(codec: .hevc, width: size.width, height: size.height, framesPerSecond: 30,
                                        bitRate: settings.videoBitsPerSecond, preset: .ultrafast, keyFrameInterval: 60),
            audio: AudioEncoderSettings(channels: 1, bitRate: settings.audioBitsPerSecond),
            frameDuration: source.format.frameDuration)
        var first: MediaTime?
        try source.run { sample in
            if first == nil { first = sample.captureTime }
            if (sample.captureTime - first!).seconds >= 3 { source.stop(); return }
            try branch.handle(sample)
        }
        try branch.finish()
        #expect(branch.framesWritten == 90)
        #expect(abs(branch.duration.seconds - 3) < 0.001)
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries",
                                                   "stream=codec_name,codec_tag_string,width,height:format=duration",
                                                   "-of", "compact=p=0", dir.path("archive.mp4")])
        #expect(probe.status == 0, "\(probe.stderr)")
        #expect(probe.stdout.contains("codec_name=hevc|codec_tag_string=hvc1|width=1080|height=1920"), "\(probe.stdout)")
        #expect(probe.stdout.contains("codec_name=aac"), "\(probe.stdout)")
        let duration = probe.stdout.split(separator: "\n").last { $0.hasPrefix("duration=") }.flatMap { Double($0.dropFirst(9)) }
        #expect(duration.map { abs($0 - 3) < 0.1 } == true, "container duration \(String(describing: duration))")
        let decode = try Subprocess.run("ffmpeg", ["-v", "warning", "-i", dir.path("archive.mp4"), "-f", "null", "-"])
        #expect(decode.status == 0 && decode.stderr.isEmpty, "decoding warned: \(decode.stderr)")
    }

    @Test("refuses to overwrite an existing file")
    func refusesExisting() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("taken.mp4")
        try Data("precious".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: FFmpegError.self) {
            try ArchiveBranch(path: path, video: VideoEncoderSettings(codec: .hevc, width: 64, height: 64, framesPerSecond: 30,
                                                                     bitRate: 100_000), audio: nil,
                              frameDuration: MediaTime(value: 1, timescale: 30))
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data("precious".utf8))
    }
}
