import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia

@Suite("File source")
struct FileSourceTests {
    @Test("samples leave in capture order across streams, even when the video decoder holds pictures back (B-frames)")
    func captureOrder() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.path("bframes.mp4")
        // libx264's defaults use B-frames: the decoder outputs each picture a few packets late.
        try TestMedia.makeClip(at: file, seconds: 3, width: 320, height: 240, extraArguments: ["-bf", "3"])
        let source = try FileSource(path: file, realTime: false)
        #expect(source.format.width == 320 && source.format.audio?.sampleRate == 48_000)
        var times: [MediaTime] = []
        var video = 0, audio = 0
        try source.run { sample in
            times.append(sample.captureTime)
            if case .video = sample { video += 1 } else { audio += 1 }
        }
        #expect(video == 90)
        #expect(audio > 100)
        let outOfOrder = zip(times, times.dropFirst()).filter { $0.0 > $0.1 }.count
        #expect(outOfOrder == 0, "\(outOfOrder) samples left before an earlier one")
    }

    @Test("real-time pacing: 2 s of file take about 2 s")
    func pacing() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.path("two.mp4")
        try TestMedia.makeClip(at: file, seconds: 2, width: 160, height: 120, audio: false)
        let source = try FileSource(path: file, realTime: true)
        let start = MonotonicClock.now()
        var lateness: [Double] = []
        try source.run { sample in lateness.append((MonotonicClock.now() - sample.captureTime).seconds) }
        let elapsed = (MonotonicClock.now() - start).seconds
        #expect(elapsed > 1.9 && elapsed < 2.6, "\(elapsed) s")
        #expect((lateness.max() ?? 1) < 0.05, "each frame leaves when its time comes: worst \(lateness.max() ?? 0) s late")
    }
}
