import Foundation
@testable import ReelMedia
import ReelCore
import Testing

@Suite("PortraitSource given a frame shape: landscape turns a portrait picture anticlockwise, auto turns nothing")
struct FrameShapeSourceTests {
    @Test("landscape: a portrait picture is turned a quarter anticlockwise, every plane: source (x, y) lands at (y, width − 1 − x)")
    func turnsAnticlockwise() throws {
        let source = PortraitSource(PatternSource(width: 36, height: 64, count: 1), shape: .landscape)
        #expect(source.format.width == 64 && source.format.height == 36)
        var frames: [VideoFrame] = []
        try source.run { if case let .video(frame) = $0 { frames.append(frame) } }
        let frame = try #require(frames.first)
        #expect(frame.width == 64 && frame.height == 36)
        let f = frame.avFrame.pointee
        for y in 0..<64 {
            for x in 0..<36 {
                #expect(f.data.0![(35 - x) * Int(f.linesize.0) + y] == PatternSource.luma(x, y))
            }
        }
        for y in 0..<32 {
            for x in 0..<18 {
                #expect(f.data.1![(17 - x) * Int(f.linesize.1) + y] == PatternSource.chroma(x, y))
                #expect(f.data.2![(17 - x) * Int(f.linesize.2) + y] == 255 - PatternSource.chroma(x, y))
            }
        }
    }

    @Test("auto keeps either shape, and landscape keeps a landscape picture, untouched")
    func keepsOwnShape() throws {
        var sizes: [String] = []
        for (width, height, shape) in [(64, 36, OverlayFrameShape.auto), (36, 64, .auto), (64, 36, .landscape)] {
            let source = PortraitSource(PatternSource(width: width, height: height, count: 1), shape: shape)
            #expect(source.format.width == width && source.format.height == height)
            try source.run { sample in
                guard case let .video(frame) = sample else { return }
                sizes.append("\(frame.width)x\(frame.height)")
                #expect(frame.avFrame.pointee.data.0![Int(frame.avFrame.pointee.linesize.0) + 5] == PatternSource.luma(5, 1))
            }
        }
        #expect(sizes == ["64x36", "36x64", "64x36"])
    }
}
