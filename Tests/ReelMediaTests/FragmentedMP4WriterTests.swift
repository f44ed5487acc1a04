import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia

@Suite("Fragmented MP4 writer, remuxer, thumbnail")
struct FragmentedMP4WriterTests {
    /// 90 frames of the synthetic source at 30 fps, cut after every 30th; the bytes of each cut.
    func record(to path: String) throws -> [Data] {
        let writer = try FragmentedMP4Writer(
            video: VideoEncoderSettings(codec: .h264, width: 320, height: 180, framesPerSecond: 30, bitRate: 500_000,
                                        preset: .ultrafast, keyFrameInterval: 60, zeroLatency: true),
            metadata: ["title": "fragments"])
        let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 30, realTime: false)
        var pieces: [Data] = []
        var frames = 0
        var first: MediaTime?
        try source.run { sample in
            guard case .video(let frame) = sample else { return }
            if first == nil { first = frame.captureTime }
            try writer.appendVideo(frame, pts: frame.captureTime - first!)
            frames += 1
            if frames % 30 == 0 { pieces.append(try writer.cutFragment()) }
            if frames == 90 { source.stop() }
        }
        #expect(try writer.cutFragment().isEmpty, "nothing pending: nothing to cut")
        pieces.append(try writer.finish())
        try pieces.reduce(Data(), +).write(to: URL(fileURLWithPath: path))
        return pieces
    }

    func frameCount(_ path: String) throws -> Int {
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                   "stream=nb_read_frames", "-of", "csv=p=0", path])
        return Int(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test("every cut is a whole fragment: the file cut short after any of them plays up to there")
    func crashSafePrefixes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let pieces = try record(to: dir.path("whole.mp4"))
        #expect(MP4Boxes.topLevel(pieces[0]).map(\.type) == ["ftyp", "moov", "moof", "mdat"], "the header comes with the first cut")
        #expect(MP4Boxes.topLevel(pieces[1]).map(\.type) == ["moof", "mdat"])
        var prefix = Data()
        for (index, piece) in pieces.prefix(3).enumerated() {
            prefix += piece
            try prefix.write(to: URL(fileURLWithPath: dir.path("cut.mp4")))
            #expect(try frameCount(dir.path("cut.mp4")) == 30 * (index + 1))
        }
        #expect(try frameCount(dir.path("whole.mp4")) == 90)
    }

    @Test("the remuxer makes a normal MP4 with the moov first, the same frames and the metadata")
    func faststart() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        _ = try record(to: dir.path("fragmented.mp4"))
        let summary = try MP4Remuxer.faststart(from: dir.path("fragmented.mp4"), to: dir.path("normal.mp4"))
        #expect(summary.packets == 90)
        #expect(summary.duration == MediaTime(value: 3, timescale: 1))
        let boxes = MP4Boxes.topLevel(try Data(contentsOf: URL(fileURLWithPath: dir.path("normal.mp4")))).map(\.type)
        #expect(boxes.filter { $0 != "free" } == ["ftyp", "moov", "mdat"], "\(boxes)")
        #expect(try frameCount(dir.path("normal.mp4")) == 90)
        let tags = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "format_tags=title", "-of", "csv=p=0", dir.path("normal.mp4")])
        #expect(tags.stdout.contains("fragments"))
    }

    @Test("an archive-writer file copied with its end given: the last picture keeps its duration (24 at 10 fps → 2.4 s, 1 → 0.1 s); without, it ends where the last starts")
    func lastPictureDuration() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        for count in [24, 1] {
            let fragmented = dir.path("archive-\(count).mp4")
            let writer = try MP4ArchiveWriter(path: fragmented, video: VideoEncoderSettings(
                codec: .h264, width: 320, height: 180, framesPerSecond: 10, bitRate: 500_000, preset: .ultrafast,
                keyFrameInterval: 20, zeroLatency: false), audio: nil)
            let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 10, realTime: false)
            var frames = 0
            try source.run { sample in
                guard case .video(let frame) = sample, frames < count else { return }
                try writer.appendVideo(frame, pts: MediaTime(value: Int64(frames), timescale: 10))
                frames += 1
                if frames == count { source.stop() }
            }
            try writer.finish()
            let end = MediaTime(value: Int64(count), timescale: 10)
            let exact = try MP4Remuxer.faststart(from: fragmented, to: dir.path("exact-\(count).mp4"), videoEnd: end)
            #expect(exact.packets == count && exact.duration == end, "\(exact)")
            let merged = try MP4Remuxer.merge(video: fragmented, audioFrom: nil, to: dir.path("merged-\(count).mp4"), videoEnd: end)
            #expect(merged.duration == end, "\(merged)")
            for file in ["exact", "merged"] {
                let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=duration", "-of", "csv=p=0",
                                                           dir.path("\(file)-\(count).mp4")])
                #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == String(format: "%.6f", end.seconds), "\(file)")
            }
            let plain = try MP4Remuxer.faststart(from: fragmented, to: dir.path("plain-\(count).mp4"))
            #expect(plain.duration == end - MediaTime(value: 1, timescale: 10), "FFmpeg's mov demuxer drops the last duration: \(plain)")
        }
    }

    @Test("a thumbnail is a JPEG of the picture at the time asked, scaled to fit, aspect kept")
    func thumbnail() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        _ = try record(to: dir.path("v.mp4"))
        let jpeg = try Thumbnail.jpeg(ofVideoAt: dir.path("v.mp4"), at: MediaTime(value: 3, timescale: 2), maxWidth: 160)
        try jpeg.write(to: URL(fileURLWithPath: dir.path("t.jpg")))
        let probe = try Subprocess.run("ffprobe", ["-v", "error", "-show_entries", "stream=codec_name,width,height", "-of", "csv=p=0", dir.path("t.jpg")])
        #expect(probe.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "mjpeg,160,90")
        // Past the end: the last picture.
        #expect(!(try Thumbnail.jpeg(ofVideoAt: dir.path("v.mp4"), at: MediaTime(value: 60, timescale: 1))).isEmpty)
        #expect(Thumbnail.fitted(width: 1080, height: 1920, maxWidth: 640, maxHeight: 640) == (360, 640))
    }
}
