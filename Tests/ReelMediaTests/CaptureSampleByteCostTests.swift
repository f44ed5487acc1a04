import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelMedia

@Suite("Capture sample byte cost")
struct CaptureSampleByteCostTests {
    @Test("a decoded picture costs at least its planes and each shared buffer once; an audio block its samples")
    func decodedSamples() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let file = dir.path("clip.mp4")
        try TestMedia.makeClip(at: file, seconds: 1, width: 640, height: 360)
        let source = try FileSource(path: file, realTime: false)
        var videoCosts: [Int] = [], audioCosts: [Int] = []
        var audioSamples: [Int] = []
        try source.run { sample in
            switch sample {
            case .video(let frame): videoCosts.append(sample.byteCost); _ = frame
            case .audio(let block): audioCosts.append(sample.byteCost); audioSamples.append(block.sampleCount * block.channelCount)
            }
        }
        let planes = 640 * 360 * 3 / 2
        #expect(!videoCosts.isEmpty && videoCosts.allSatisfy { $0 >= planes })
        // Padding and alignment, not a second copy: well under two pictures.
        #expect(videoCosts.allSatisfy { $0 < 2 * planes }, "\(videoCosts.max() ?? 0) bytes for a \(planes)-byte picture")
        #expect(!audioCosts.isEmpty)
        for (cost, samples) in zip(audioCosts, audioSamples) {
            #expect(cost >= samples * 4, "float samples: \(cost) bytes for \(samples) samples")
        }
    }

    @Test("a picture made by the test pattern costs its one buffer")
    func testPattern() throws {
        let source = TestPatternSource(width: 320, height: 180, framesPerSecond: 30, realTime: false)
        var cost = 0
        try source.run { sample in
            if case .video = sample { cost = sample.byteCost; source.stop() }
        }
        #expect(cost >= 320 * 180 * 3 / 2 && cost < 320 * 180 * 2)
    }
}
