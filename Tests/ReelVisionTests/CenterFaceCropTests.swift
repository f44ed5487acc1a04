import Foundation
import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// Crops (``DetectorPicture/cropped(_:)``) and CenterFace on a crop at its own size
/// (``CenterFaceDetector/detect(_:in:)``): the small-face path.
@Suite struct CenterFaceCropTests {
    @Test(arguments: [DetectorPicture.Format.yuv420p, .gray8, .rgb24])
    func aCropSharesThePlanes(format: DetectorPicture.Format) throws {
        var picture = TestPicture(width: 9, height: 7, grey: 0)
        for i in 0..<picture.rgb.count { picture.rgb[i] = UInt8(i % 251) }
        picture.withDetectorPicture(format) { whole in
            let crop = whole.cropped(x: 3, y: 1, width: 3, height: 4)
            let even = format == .yuv420p
            // yuv420p: corners out to even (2, 0)...(6, 6); others exact.
            #expect(crop.width == (even ? 4 : 3) && crop.height == (even ? 6 : 4))
            let (ox, oy) = even ? (2, 0) : (3, 1)
            for index in crop.planes.indices {
                #expect(crop.planes[index].stride == whole.planes[index].stride)
                let shift = index == 0 ? 0 : 1, bytes = format == .rgb24 ? 3 : 1
                let expected = whole.planes[index].base + (oy >> shift) * whole.planes[index].stride + (ox >> shift) * bytes
                #expect(crop.planes[index].base == expected, "plane \(index)")
            }
            // Clipped to the picture, and empty when outside.
            let edge = whole.cropped(x: 7, y: 5, width: 10, height: 10)
            #expect(edge.width == 9 - (even ? 6 : 7) && edge.height == 7 - (even ? 4 : 5))
            #expect(whole.cropped(x: 20, y: 0, width: 4, height: 4).width == 0)
            #expect(whole.clipped(.init(x: -3, y: -3, width: 5, height: 5)) == .init(x: 0, y: 0, width: 2, height: 2))
        }
    }

    /// The astronaut scaled so its face is 20 px tall, on the 1280 × 720 wall at (700, 400).
    static func smallFace() throws -> (canvas: TestPicture, face: NormalizedRect, centre: (x: Int, y: Int)) {
        let factor = 20 / TestPicture.astronautFace.height
        var canvas = TestPicture.wall(width: 1280, height: 720)
        canvas.paste(try TestPicture.astronaut().scaledAveraging(by: factor), x: 700, y: 400)
        let f = TestPicture.astronautFace
        let x = 700 + f.x * factor, y = 400 + f.y * factor, w = f.width * factor, h = f.height * factor
        return (canvas, NormalizedRect(x: x / 1280, y: y / 720, width: w / 1280, height: h / 720), (Int(x + w / 2), Int(y + h / 2)))
    }

    @Test(arguments: [DetectorPicture.Format.yuv420p, .gray8])
    func aCropFindsASmallFace(format: DetectorPicture.Format) throws {
        let (canvas, face, centre) = try Self.smallFace()
        let whole = try CenterFaceDetectorTests.detector(inputWidth: 320)
        let near = try CenterFaceDetectorTests.detector(inputWidth: 1280)
        try canvas.withDetectorPicture(format) { picture in
            let missed = try whole.detect(picture)
            #expect(!missed.contains { iou($0.box, face) > 0.2 }, "320 wide on the whole picture: \(missed)")
            let rect = DetectorPicture.PixelRect(x: centre.x - 80, y: centre.y - 80, width: 160, height: 160)
            let found = try near.detect(picture, in: rect)
            let hit = try #require(found.first, "\(format): nothing in the crop")
            print("crop \(format): \(hit.box) vs \(face), IoU \(iou(hit.box, face)), score \(hit.score)")
            #expect(iou(hit.box, face) >= 0.4, "\(hit.box) vs \(face)")
        }
    }
}
