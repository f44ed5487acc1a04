import CFFmpeg
import ReelRuntime
import Foundation
import ReelCore
@testable import ReelMedia
import ReelTestSupport
import Synchronization
import Testing
@testable import ReelLive

/// Collects one rendition's output, parts included.
final class RenditionSink: HLSSegmentSink {
    let initBytes = Locked<Data?>(nil)
    let segments = Locked<[CollectingSink.Published]>([])
    let parts = Locked<[PublishQueue.PartInfo]>([])
    func publishInit(_ bytes: Data) { initBytes.withLock { $0 = bytes } }
    func publishSegment(sequence: Int, duration: MediaTime, date: Date, followsDiscontinuity: Bool, bytes: Data) {
        segments.withLock { $0.append(.init(sequence: sequence, duration: duration, date: date, followsDiscontinuity: followsDiscontinuity, bytes: bytes)) }
    }
    func publishPart(_ info: PublishQueue.PartInfo, bytes: Data) { parts.withLock { $0.append(info) } }
}

@Suite("HLS branch, ABR ladder")
struct HLSBranchLadderTests {
    /// Three rungs from one capture that stalls twice (a short stall the policies fill, a long
    /// one that becomes a discontinuity), with LL-HLS parts of a third of a second: every rung gets the same segments
    /// (durations, dates, discontinuities), the same parts, and key frames on the same frames.
    @Test func everyRungIsCutAtTheSameTimes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let sizes = [(360, 640, 900_000), (270, 480, 500_000), (180, 320, 250_000)]
        let sinks = sizes.map { _ in RenditionSink() }
        let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 30, realTime: false)
        let clock = CaptureClockMap(capture: MonotonicClock.now(), date: Date(timeIntervalSince1970: 1_800_000_000))
        let renditions = zip(sizes, sinks).map { size, sink in
            HLSBranch.Rendition(video: VideoEncoderSettings(codec: .h264, width: size.0, height: size.1, framesPerSecond: 30, bitRate: size.2,
                                                            preset: .veryfast, keyFramesOnDemand: true, zeroLatency: true),
                                audio: AudioEncoderSettings(channels: 1, bitRate: 64_000), sink: sink)
        }
        let branch = try HLSBranch(renditions: renditions, segmentInterval: MediaTime(value: 2, timescale: 1),
                                   frameDuration: source.format.frameDuration, partInterval: MediaTime(value: 1, timescale: 3), clock: clock)
        var first: MediaTime?
        try source.run { sample in
            if first == nil { first = sample.captureTime }
            let elapsed = (sample.captureTime - first!).seconds
            if elapsed >= 32 { source.stop(); return }
            // Video from 3.0 to 3.4 s never arrives (a stall the policies fill with repeats), nor
            // from 5 to 27 s (longer than 10 intervals: a discontinuity).
            if case .video = sample, (elapsed >= 3.0 && elapsed < 3.4) || (elapsed >= 5 && elapsed < 27) { return }
            try branch.handle(sample)
        }
        try branch.finish()

        let segments = sinks.map { $0.segments.withLock { $0 } }
        let parts = sinks.map { $0.parts.withLock { $0 } }
        #expect(segments[0].count == 6, "\(segments[0].map(\.duration.seconds))")
        #expect(segments[0].map(\.followsDiscontinuity) == [false, false, false, true, false, false])
        for rung in 1..<sinks.count {
            #expect(segments[rung].map(\.sequence) == segments[0].map(\.sequence))
            #expect(segments[rung].map(\.duration) == segments[0].map(\.duration), "rung \(rung)")
            #expect(segments[rung].map(\.date) == segments[0].map(\.date), "rung \(rung)")
            #expect(segments[rung].map(\.followsDiscontinuity) == segments[0].map(\.followsDiscontinuity), "rung \(rung)")
            #expect(parts[rung].map(\.part) == parts[0].map(\.part), "rung \(rung): the same parts, durations and independence")
        }
        let expectedParts = segments[0].reduce(0) { $0 + Int(($1.duration.seconds * 3).rounded(.up)) }
        #expect(parts[0].count == expectedParts, "a part every ten frames: \(parts[0].count)")
        // The bit rates differ as asked: the top rung's bytes are the most.
        let bytes = segments.map { $0.reduce(0) { $0 + $1.bytes.count } }
        #expect(bytes[0] > bytes[1] && bytes[1] > bytes[2], "\(bytes)")

        // Key frames on the same frames in every rung, and the size asked for.
        var keyFrames: [[Int]] = []
        for (index, sink) in sinks.enumerated() {
            var whole = try #require(sink.initBytes.withLock { $0 })
            for segment in segments[index] { whole += segment.bytes }
            let file = dir.path("rung\(index).mp4")
            try whole.write(to: URL(fileURLWithPath: file))
            let probe = try Subprocess.run("ffprobe", ["-v", "error", "-select_streams", "v", "-show_entries", "frame=key_frame,width,height",
                                                       "-of", "csv=p=0", file])
            let rows = probe.stdout.split(separator: "\n").map { $0.split(separator: ",") }
            #expect(rows.allSatisfy { $0.count == 3 && Int($0[1]) == sizes[index].0 && Int($0[2]) == sizes[index].1 }, "\(rows.prefix(2))")
            keyFrames.append(rows.enumerated().filter { $0.element.first == "1" }.map(\.offset))
        }
        #expect(keyFrames[0].count == segments[0].count, "one key frame a segment: \(keyFrames[0])")
        #expect(keyFrames[1] == keyFrames[0] && keyFrames[2] == keyFrames[0], "\(keyFrames)")
    }

    /// A flat grey picture at `level` (chroma neutral), captured at frame `index` of 30 fps.
    static func flatFrame(level: UInt8, index: Int, width: Int, height: Int) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: width, height: height, format: AV_PIX_FMT_YUV420P)
        let f = frame.pointee
        for y in 0..<height { memset(f.data.0! + y * Int(f.linesize.0), Int32(level), width) }
        for y in 0..<(height / 2) {
            memset(f.data.1! + y * Int(f.linesize.1), 128, width / 2)
            memset(f.data.2! + y * Int(f.linesize.2), 128, width / 2)
        }
        return VideoFrame(taking: frame, captureTime: MediaTime(value: Int64(index), timescale: 30))
    }

    /// The mean luma of every decoded frame of `file`, in order.
    static func meanLuma(_ file: String, width: Int, height: Int) throws -> [Double] {
        let raw = file + ".gray"
        let decoded = try Subprocess.run("ffmpeg", ["-nostdin", "-v", "error", "-i", file, "-map", "0:v", "-f", "rawvideo", "-pix_fmt", "gray", raw])
        #expect(decoded.status == 0, "\(decoded.stderr)")
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        let size = width * height
        return stride(from: 0, to: bytes.count - size + 1, by: size).map { start in
            Double(bytes[start..<(start + size)].reduce(0) { $0 + Int($1) }) / Double(size)
        }
    }

    /// A live queue that stays full: the top rung takes a new picture every second frame, then
    /// every fourth two seconds later, repeating the one before in between; the low rung keeps
    /// every picture, and both keep every frame, key frame and segment.
    @Test func aFullLiveQueueThinsTheTopRungWithRepeatedPictures() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let sinks = [RenditionSink(), RenditionSink()]
        let renditions = zip([(320, 180), (160, 90)], sinks).map { size, sink in
            HLSBranch.Rendition(video: VideoEncoderSettings(codec: .h264, width: size.0, height: size.1, framesPerSecond: 30, bitRate: 300_000,
                                                            preset: .veryfast, keyFramesOnDemand: true, zeroLatency: true),
                                audio: nil, sink: sink)
        }
        let branch = try HLSBranch(renditions: renditions, segmentInterval: MediaTime(value: 2, timescale: 1),
                                   frameDuration: MediaTime(value: 1, timescale: 30),
                                   clock: CaptureClockMap(capture: MonotonicClock.now(), date: Date()))
        branch.queueLoad = { (depth: 60, capacity: 60) }
        // Every frame a different flat grey, far from the one before: a repeated picture shows.
        for index in 0..<150 {
            try branch.handle(.video(try Self.flatFrame(level: UInt8(16 + (index * 53) % 200), index: index, width: 320, height: 180)))
        }
        try branch.finish()
        let start = MediaTime(value: 10, timescale: 1)
        #expect(branch.load?.events == [.thinned(at: start, rung: 0, factor: 2), .thinned(at: start + MediaTime(value: 2, timescale: 1), rung: 0, factor: 4)])

        var means: [[Double]] = []
        for (index, sink) in sinks.enumerated() {
            var whole = try #require(sink.initBytes.withLock { $0 })
            for segment in sink.segments.withLock({ $0 }) { whole += segment.bytes }
            let file = dir.path("rung\(index).mp4")
            try whole.write(to: URL(fileURLWithPath: file))
            means.append(try Self.meanLuma(file, width: [320, 160][index], height: [180, 90][index]))
        }
        #expect(means[0].count == 150 && means[1].count == 150, "every frame is there: \(means.map(\.count))")
        // The top rung's distinct pictures, as runs of frames of the same grey: 2 long for 2 s, then 4.
        var runs: [Int] = []
        for (index, mean) in means[0].enumerated() {
            if index > 0 && abs(mean - means[0][index - 1]) < 4 { runs[runs.count - 1] += 1 } else { runs.append(1) }
        }
        let expectedRuns: [Int] = Array(repeating: 2, count: 30) + Array(repeating: 4, count: 22) + [2]
        #expect(runs == expectedRuns, "\(runs)")
        let lowChanges = zip(means[1], means[1].dropFirst()).filter { pair in abs(pair.0 - pair.1) >= 4 }.count
        #expect(lowChanges == 149, "the low rung has a new picture every frame")
        #expect(branch.load?.repeated == [30 + 88 * 3 / 4 + 1, 0])
    }
}

