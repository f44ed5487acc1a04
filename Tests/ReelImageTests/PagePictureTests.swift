import Foundation
import ReelCore
import ReelImage
import ReelTestSupport
import Testing

/// What a browser is shown: artwork as an sRGB PNG, a photo reduced to sRGB, the circle mask.
@Suite("Pictures for the page")
struct PagePictureTests {
    @Test("artwork → an 8-bit sRGB PNG with straight alpha, reduced by whole boxes past the bound")
    func artworkPNG() throws {
        // Half-transparent linear-P3 pure green on the left half, opaque linear mid grey on the right.
        let (w, h) = (8, 4)
        var samples = [UInt16]()
        for _ in 0..<h {
            for x in 0..<w {
                samples += x < w / 2 ? [0, 32768, 0, 32768] : [11796, 11796, 11796, 65535]
            }
        }
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("art.png")
        try Artwork(width: w, height: h, samples: samples).displayPNG(maxSide: 4).write(to: URL(fileURLWithPath: path))
        let shown = try DecodedImage(path: path)
        #expect(shown.width == 4 && shown.height == 2 && shown.hasAlpha && shown.format == "PNG")
        let left = Array(shown.samples[0..<4]).map { Int($0) / 257 }, right = Array(shown.samples[12..<16]).map { Int($0) / 257 }
        // Linear 0.18 grey is sRGB 118; P3's green is outside sRGB: clipped to sRGB green, red 0; alpha kept.
        #expect(right == [118, 118, 118, 255], "\(right)")
        #expect(left[0] == 0 && left[1] == 255 && left[2] <= 40 && abs(left[3] - 128) <= 1, "\(left)")
    }

    @Test("a Display P3 photo reduced to sRGB: the profile is honoured, not taken as sRGB")
    func reducedSRGB() throws {
        // A P3 photo of one colour, written as TIFF (with Reel's P3 profile) and read back.
        let p3 = RGBPicture(width: 4, height: 4, samples: Array(repeating: [40000, 20000, 10000], count: 16).flatMap { $0 }, space: .displayP3)
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("p3.tiff")
        try StillEncoder.encode(p3, as: .tiff, metadata: StillMetadata(date: Date(), camera: "", software: "")).write(to: URL(fileURLWithPath: path))
        let reduced = try DecodedImage(path: path).reducedSRGB(maxSide: 2)
        let expected = p3.converted(to: .sRGB).samples
        #expect(reduced.width == 2 && reduced.height == 2 && reduced.space == .sRGB)
        for c in 0..<3 { #expect(abs(Int(reduced.samples[c]) - Int(expected[c])) <= 300, "channel \(c): \(reduced.samples[c]) vs \(expected[c])") }
        #expect(abs(Int(reduced.samples[0]) - 40000) > 1000, "converted, not passed through")
    }

    @Test("the circle mask blacks out the corners and keeps the middle")
    func masked() {
        let picture = RGBPicture(width: 10, height: 10, samples: Array(repeating: 50000, count: 300), space: .linearDisplayP3)
        let masked = picture.masked(.circle)
        #expect(Array(masked.samples[0..<3]) == [0, 0, 0])
        #expect(Array(masked.samples[(5 * 10 + 5) * 3..<(5 * 10 + 5) * 3 + 3]) == [50000, 50000, 50000])
        #expect(picture.masked(.none).samples == picture.samples)
    }
}

@Suite("Reading photos upright")
struct UprightReadingTests {
    /// 64x32 with four coloured quadrants (sRGB): red, green / blue, white.
    static let quadrants: RGBPicture = {
        var samples = [UInt16]()
        for y in 0..<32 {
            for x in 0..<64 {
                let colour: [UInt16] = y < 16 ? (x < 32 ? [65535, 0, 0] : [0, 65535, 0]) : (x < 32 ? [0, 0, 65535] : [65535, 65535, 65535])
                samples += colour
            }
        }
        return RGBPicture(width: 64, height: 32, samples: samples, space: .sRGB)
    }()

    /// The dominant channel at a point of a decoded picture: "r", "g", "b" or "w".
    static func colour(_ image: DecodedImage, _ x: Int, _ y: Int) -> String {
        let i = (y * image.width + x) * 4
        let (r, g, b) = (image.samples[i] > 40000, image.samples[i + 1] > 40000, image.samples[i + 2] > 40000)
        return r && g && b ? "w" : r ? "r" : g ? "g" : b ? "b" : "?"
    }

    @Test("a TIFF is turned upright by its Orientation tag as a JPEG is by EXIF, for every way a device is held",
          arguments: DeviceOrientation.allCases)
    func tiffLikeJPEG(orientation: DeviceOrientation) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        var layouts: [String: (Int, Int, [String])] = [:]
        for format in [StillFormat.jpeg, .tiff] {
            let path = folder.path("q." + format.fileExtension)
            let metadata = StillMetadata(orientation: orientation, date: Date(), camera: "", software: "")
            try StillEncoder.encode(Self.quadrants, as: format, metadata: metadata).write(to: URL(fileURLWithPath: path))
            let image = try DecodedImage(path: path)
            let (w, h) = (image.width, image.height)
            let corners = [(w / 8, h / 8), (w * 7 / 8, h / 8), (w / 8, h * 7 / 8), (w * 7 / 8, h * 7 / 8)].map { Self.colour(image, $0.0, $0.1) }
            layouts[format.rawValue] = (w, h, corners)
        }
        let jpeg = try #require(layouts["jpeg"]), tiff = try #require(layouts["tiff"])
        #expect(jpeg.0 == tiff.0 && jpeg.1 == tiff.1 && jpeg.2 == tiff.2, "JPEG \(jpeg), TIFF \(tiff)")
        let turned = orientation == .left || orientation == .right
        #expect((jpeg.0, jpeg.1) == (turned ? 32 : 64, turned ? 64 : 32))
    }
}
