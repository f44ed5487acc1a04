import Foundation
import ReelCompose
import ReelCore
import ReelTestSupport
import Testing

@Suite("Stamps, watermark and colour")
struct OverlayTests {
    @Test("BT.709 limited range: known colours")
    func bt709() {
        let m = ColorMatrix.bt709
        #expect(m.yuv(red: 255, green: 0, blue: 0) == (63, 102, 240))
        #expect(m.yuv(red: 0, green: 255, blue: 0) == (173, 42, 26))
        #expect(m.yuv(red: 0, green: 0, blue: 255) == (32, 240, 118))
        #expect(m.yuv(red: 255, green: 255, blue: 255) == (235, 128, 128))
        #expect(m.yuv(red: 0, green: 0, blue: 0) == (16, 128, 128))
        #expect(ColorMatrix.bt601.yuv(red: 255, green: 0, blue: 0) == (81, 90, 240))
        #expect(ColorMatrix.forHeight(1080) == .bt709 && ColorMatrix.forHeight(720) == .bt709 && ColorMatrix.forHeight(480) == .bt601)
    }

    @Test("BT.709 agrees with FFmpeg's conversion of the same colours")
    func bt709MatchesFFmpeg() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // 4 solid 2×2 colour squares in an 8×2 PNG, converted by swscale to limited-range BT.709.
        let colours: [(UInt8, UInt8, UInt8)] = [(255, 0, 0), (0, 255, 0), (30, 144, 255), (200, 180, 40)]
        var pixels: [UInt8] = []
        for _ in 0..<2 { for c in colours { for _ in 0..<2 { pixels += [c.0, c.1, c.2, 255] } } }
        try RGBAImage(width: 8, height: 2, pixels: pixels).writePNG(to: dir.path("c.png"))
        let run = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-i", dir.path("c.png"), "-vf",
                                                "scale=out_color_matrix=bt709:out_range=tv:flags=accurate_rnd+full_chroma_int",
                                                "-pix_fmt", "yuv420p", "-f", "rawvideo", dir.path("c.yuv")])
        try #require(run.status == 0, "ffmpeg failed: \(run.stderr)")
        let yuv = [UInt8](try Data(contentsOf: URL(fileURLWithPath: dir.path("c.yuv"))))
        try #require(yuv.count == 16 + 4 + 4)
        for (i, c) in colours.enumerated() {
            let ours = ColorMatrix.bt709.yuv(red: c.0, green: c.1, blue: c.2)
            #expect(abs(Int(yuv[2 * i]) - Int(ours.y)) <= 1, "Y of \(c)")
            #expect(abs(Int(yuv[16 + i]) - Int(ours.u)) <= 1, "Cb of \(c)")
            #expect(abs(Int(yuv[20 + i]) - Int(ours.v)) <= 1, "Cr of \(c)")
        }
    }

    @Test("PNG: RGBA round trip, and grey, grey+alpha, palette, RGB and 16-bit files (made by ffmpeg) read as RGBA")
    func pngColourTypes() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let image = RGBAImage(width: 3, height: 2, pixels: [255, 0, 0, 255, 0, 255, 0, 128, 0, 0, 255, 0,
                                                            10, 20, 30, 40, 50, 60, 70, 80, 90, 100, 110, 120])
        try image.writePNG(to: dir.path("rgba.png"))
        #expect(try RGBAImage(pngAt: dir.path("rgba.png")) == image)

        let cases: [(format: String, colour: String, expected: (Int, Int, Int, Int))] = [
            ("gray", "0x808080", (128, 128, 128, 255)), ("ya8", "0x808080", (128, 128, 128, 255)),
            ("pal8", "red", (255, 0, 0, 255)), ("rgb24", "red", (255, 0, 0, 255)),
            ("rgba64be", "red", (255, 0, 0, 255)), ("rgba64be", "0x808080", (128, 128, 128, 255)),
        ]
        for (index, (format, colour, expected)) in cases.enumerated() {
            let file = dir.path("\(index)-\(format).png")
            let run = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=c=\(colour):s=16x8",
                                                    "-frames:v", "1", "-pix_fmt", format, file])
            try #require(run.status == 0, "ffmpeg failed: \(run.stderr)")
            let read = try RGBAImage(pngAt: file)
            #expect(read.width == 16 && read.height == 8)
            let p = read[5, 5]
            // lavfi's colour source is YUV: ffmpeg's own conversion back to RGB is within a few steps.
            let got = [Int(p.r), Int(p.g), Int(p.b), Int(p.a)], want = [expected.0, expected.1, expected.2, expected.3]
            #expect(zip(got, want).allSatisfy { abs($0 - $1) <= 4 }, "\(format) \(colour): \(got)")
        }
    }

    @Test("PNG: a missing file and a file that is not a PNG give clear errors")
    func pngErrors() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        #expect(throws: RGBAImage.PNGError.unreadable(path: dir.path("none.png"), reason: "no such file")) {
            try RGBAImage(pngAt: dir.path("none.png"))
        }
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: dir.path("text.png")))
        do {
            _ = try RGBAImage(pngAt: dir.path("text.png"))
            Issue.record("a text file was read as a PNG")
        } catch let error as RGBAImage.PNGError {
            guard case .notAPNG(let path, _) = error else { Issue.record("wrong error \(error)"); return }
            #expect(path == dir.path("text.png"))
            #expect(error.description.contains("is not a readable PNG"))
        }
    }

    @Test("alpha blending: opaque, half and transparent pixels, chroma at half resolution")
    func blending() {
        // A 4×2 overlay: left 2×2 opaque red, right 2×2 half-transparent (128) red; one
        // transparent row below does not exist (height 2).
        var pixels: [UInt8] = []
        for _ in 0..<2 { pixels += [255, 0, 0, 255, 255, 0, 0, 255, 255, 0, 0, 128, 255, 0, 0, 128] }
        let overlay = YUVOverlay(RGBAImage(width: 4, height: 2, pixels: pixels), matrix: .bt709)
        let picture = YUVPictureBuffer(width: 16, height: 8, fill: (100, 128, 128))
        overlay.blend(onto: picture.picture, x: 4, y: 2)
        let p = picture.picture
        #expect(p.y[2 * p.yStride + 4] == 63 && p.y[3 * p.yStride + 5] == 63)
        #expect(p.u[1 * p.uStride + 2] == 102 && p.v[1 * p.vStride + 2] == 240)
        let halfSum: Int = 128 * 63 + 127 * 100 + 127
        let half = UInt8(halfSum / 255)  // (a·over + (255 − a)·under) / 255, rounded
        #expect(p.y[2 * p.yStride + 6] == half)
        let halfV: Int = (128 * 240 + 127 * 128 + 127) / 255
        #expect(Int(p.v[1 * p.vStride + 3]) == halfV)
        // Everything outside the overlay is untouched.
        #expect(p.y[2 * p.yStride + 3] == 100 && p.y[2 * p.yStride + 8] == 100 && p.y[4 * p.yStride + 4] == 100)
        #expect(p.u[1 * p.uStride + 1] == 128 && p.u[1 * p.uStride + 4] == 128 && p.u[2 * p.uStride + 2] == 128)

        // Clipped at the picture's edges without touching memory outside it.
        // (x, y) round down to even: (−1, 6) → (−2, 6) shows the half-transparent columns at x 0…1,
        // (14, 7) → (14, 6) shows the opaque columns at x 14…15.
        overlay.blend(onto: picture.picture, x: -1, y: 6)
        overlay.blend(onto: picture.picture, x: 14, y: 7)
        #expect(p.y[6 * p.yStride + 0] == half && p.y[7 * p.yStride + 1] == half && p.y[6 * p.yStride + 2] == 100)
        #expect(p.y[7 * p.yStride + 15] == 63 && p.y[6 * p.yStride + 14] == 63 && p.y[6 * p.yStride + 13] == 100)
    }

    @Test("a stamp is fitted inside the face box, centred, and covers nothing else")
    func stamp() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        // A 100×50 opaque blue stamp with a transparent 10-pixel border.
        var pixels = [UInt8](repeating: 0, count: 100 * 50 * 4)
        for y in 10..<40 { for x in 10..<90 { let i = (y * 100 + x) * 4; pixels[i + 2] = 255; pixels[i + 3] = 255 } }
        try RGBAImage(width: 100, height: 50, pixels: pixels).writePNG(to: dir.path("stamp.png"))
        let stamp = try Stamp(pngAt: dir.path("stamp.png"))
        // Box 400×400 px centred at (700, 500): the stamp becomes 400×200, from (500, 400).
        let box = NormalizedRect(x: 500.0 / 1920, y: 300.0 / 1080, width: 400.0 / 1920, height: 400.0 / 1080)
        let place = try #require(stamp.placement(for: box, width: 1920, height: 1080))
        #expect(place.x == 500 && place.y == 400 && place.width == 400 && place.height == 200)

        let before = TestPictures.pattern(width: 1920, height: 1080)
        let after = before.copy()
        stamp.blend(onto: after.picture, box: box, matrix: .bt709)
        let p = after.picture, q = before.picture
        #expect(p.y[500 * p.yStride + 700] == 32)                   // blue in BT.709
        #expect(p.u[250 * p.uStride + 350] == 240)
        // Transparent border and everything outside the stamp: untouched.
        #expect(p.y[405 * p.yStride + 505] == q.y[405 * q.yStride + 505])
        var changedOutside = 0
        for y in 0..<1080 { for x in 0..<1920 where (x < 500 || x >= 900 || y < 400 || y >= 600) && p.y[y * p.yStride + x] != q.y[y * q.yStride + x] {
            changedOutside += 1
        } }
        #expect(changedOutside == 0)
    }

    @Test("the watermark sits bottom-right, 2.5 % of the short side from the edges, within 15 % × 8 %")
    func watermark() {
        let mark = Watermark(image: RGBAImage(width: 200, height: 100, red: 255, green: 255, blue: 255, alpha: 255))
        let place = mark.placement(width: 1920, height: 1080)
        // Fit 200×100 into 288×86: 172×86; margin 27.
        #expect(place.width == 172 && place.height == 86)
        #expect(place.x == 1920 - 27 - 172 && place.y == 1080 - 27 - 86)
        let picture = YUVPictureBuffer(width: 1920, height: 1080, fill: (16, 128, 128))
        mark.blend(onto: picture.picture, matrix: .bt709)
        let p = picture.picture
        // White at 80 % opacity over black: 16 + 0.8 × 219 ≈ 191.
        let inside = Int(p.y[(place.y + 40) * p.yStride + place.x + 80])
        #expect(abs(inside - 191) <= 1)
        #expect(p.y[(place.y - 2) * p.yStride + place.x + 80] == 16)
        #expect(p.y[(place.y + 40) * p.yStride + place.x + place.width + 2] == 16)
    }
}
