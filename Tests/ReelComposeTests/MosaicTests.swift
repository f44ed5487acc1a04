import ReelCompose
import ReelCore
import Testing

@Suite("Mosaic")
struct MosaicTests {
    /// Checks every sample of every plane of `after` against the rules, computed the slow way
    /// from `before`: outside the ellipse untouched, inside r ≤ 0.94 the block mean of the
    /// pixels inside the picture, in the soft edge the documented blend.
    func expectMosaicRules(before: YUVPictureBuffer, after: YUVPictureBuffer, box: NormalizedRect,
                           sourceLocation: SourceLocation = #_sourceLocation) throws {
        let p = before.picture
        let layout = try #require(MosaicCompositor.layout(of: box, width: p.width, height: p.height))
        let b = layout.blockSize
        var failures = 0
        for plane in 0..<3 {
            let s = plane == 0 ? 1 : 2
            let (w, h) = plane == 0 ? (p.width, p.height) : (p.chromaWidth, p.chromaHeight)
            var means: [Int: UInt8] = [:]
            func firstPixel(_ k: Int, grid: Int) -> Int {  // smallest p with p·s ≥ grid + k·b
                let luma = grid + k * b
                return Int((Double(luma) / Double(s)).rounded(.up))
            }
            func floorDiv(_ a: Int, _ d: Int) -> Int { Int((Double(a) / Double(d)).rounded(.down)) }
            for y in 0..<h {
                for x in 0..<w {
                    let original = Int(TestPictures.value(before, plane: plane, x: x, y: y))
                    let actual = Int(TestPictures.value(after, plane: plane, x: x, y: y))
                    let r = layout.normalizedRadius(x: Double(x * s) + Double(s) / 2, y: Double(y * s) + Double(s) / 2)
                    var expected = original
                    if r < 1 {
                        let kx = floorDiv(x * s - layout.gridX, b), ky = floorDiv(y * s - layout.gridY, b)
                        let key = ky * 100_000 + kx
                        let mean: UInt8
                        if let m = means[key] { mean = m } else {
                            mean = TestPictures.mean(before, plane: plane,
                                                     xs: firstPixel(kx, grid: layout.gridX)..<firstPixel(kx + 1, grid: layout.gridX),
                                                     ys: firstPixel(ky, grid: layout.gridY)..<firstPixel(ky + 1, grid: layout.gridY))
                            means[key] = mean
                        }
                        let weight = r <= 0.94 ? 256 : Int((256 * (1 - r) / 0.06).rounded())
                        expected = (weight * Int(mean) + (256 - weight) * original + 128) >> 8
                    }
                    if actual != expected {
                        failures += 1
                        if failures <= 5 {
                            Issue.record("plane \(plane) (\(x), \(y)) r=\(r): \(actual), expected \(expected) (was \(original))",
                                         sourceLocation: sourceLocation)
                        }
                    }
                }
            }
        }
        #expect(failures == 0, "\(failures) samples break the mosaic rules", sourceLocation: sourceLocation)
    }

    func mosaic(_ box: NormalizedRect, width: Int = 1920, height: Int = 1080) -> (YUVPictureBuffer, YUVPictureBuffer) {
        let before = TestPictures.pattern(width: width, height: height)
        let after = before.copy()
        MosaicCompositor().apply(to: after.picture, boxes: [box])
        return (before, after)
    }

    @Test("block size is 3 % of the long side, rounded, at least 2")
    func blockSize() {
        #expect(MosaicCompositor.blockSize(width: 1920, height: 1080) == 58)
        #expect(MosaicCompositor.blockSize(width: 1080, height: 1920) == 58)
        #expect(MosaicCompositor.blockSize(width: 1280, height: 720) == 38)
        #expect(MosaicCompositor.blockSize(width: 720, height: 1280) == 38)
        #expect(MosaicCompositor.blockSize(width: 1000, height: 500) == 30)
        #expect(MosaicCompositor.blockSize(width: 50, height: 40) == 2)
        #expect(MosaicCompositor.blockSize(width: 4, height: 4) == 2)
    }

    @Test("a box smaller than a block is drawn one block across each way; a larger side keeps its size")
    func leastOneBlock() throws {
        // 720p, 38 px blocks: a 20 × 34 px box (a 20 px face's tracker box) gets a 38 × 38 px ellipse;
        // a 30 × 60 px box keeps its 60 px height.
        let small = NormalizedRect(x: 400.0 / 1280, y: 300.0 / 720, width: 20.0 / 1280, height: 34.0 / 720)
        let l = try #require(MosaicCompositor.layout(of: small, width: 1280, height: 720))
        #expect(abs(l.radiusX - 19) < 1e-9 && abs(l.radiusY - 19) < 1e-9)
        #expect(abs(l.centreX - 410) < 1e-9 && abs(l.centreY - 317) < 1e-9, "centred where the box is")
        let tall = NormalizedRect(x: 400.0 / 1280, y: 300.0 / 720, width: 30.0 / 1280, height: 60.0 / 720)
        let t = try #require(MosaicCompositor.layout(of: tall, width: 1280, height: 720))
        #expect(abs(t.radiusX - 19) < 1e-9 && abs(t.radiusY - 30) < 1e-9)
    }

    @Test("the grid's lines cross at the box centre, rounded to an even pixel")
    func gridOnCentre() throws {
        // Centre at (961.2, 540.0): the crossing is at x 962 (nearest even), y 540.
        let box = NormalizedRect(x: (961.2 - 150) / 1920, y: (540.0 - 200) / 1080, width: 300.0 / 1920, height: 400.0 / 1080)
        let layout = try #require(MosaicCompositor.layout(of: box, width: 1920, height: 1080))
        #expect(layout.gridX == 962 && layout.gridY == 540)
        #expect(abs(layout.centreX - 961.2) < 1e-9 && abs(layout.radiusX - 150) < 1e-9 && abs(layout.radiusY - 200) < 1e-9)

        let (before, after) = mosaic(box)
        let p = after.picture
        // Along the centre row: one value on 904..<962, another on 962..<1020; the boundary is at 962 exactly.
        let row = 540
        let left = p.y[row * p.yStride + 904], right = p.y[row * p.yStride + 962]
        #expect((904..<962).allSatisfy { p.y[row * p.yStride + $0] == left })
        #expect((962..<1020).allSatisfy { p.y[row * p.yStride + $0] == right })
        #expect(right == TestPictures.mean(before, plane: 0, xs: 962..<1020, ys: 540..<598))
        #expect(left == TestPictures.mean(before, plane: 0, xs: 904..<962, ys: 540..<598))
        // And vertically, the row above the crossing belongs to the blocks above.
        #expect(p.y[539 * p.yStride + 970] == TestPictures.mean(before, plane: 0, xs: 962..<1020, ys: 482..<540))
        // Chroma: blocks of 29 samples starting at 481 (= 962 / 2).
        #expect(p.u[270 * p.uStride + 481] == TestPictures.mean(before, plane: 1, xs: 481..<510, ys: 270..<299))
        #expect(p.u[270 * p.uStride + 480] == TestPictures.mean(before, plane: 1, xs: 452..<481, ys: 270..<299))
        try expectMosaicRules(before: before, after: after, box: box)
    }

    @Test("blocks cut by the picture's edge average only the pixels inside (top-left corner)")
    func clampedTopLeft() throws {
        // A box hanging off the top-left corner; its centre at (58, 96) puts the grid there.
        let box = NormalizedRect(x: -100.0 / 1920, y: -120.0 / 1080, width: 316.0 / 1920, height: 432.0 / 1080)
        let layout = try #require(MosaicCompositor.layout(of: box, width: 1920, height: 1080))
        #expect(layout.gridX == 58 && layout.gridY == 96)
        let (before, after) = mosaic(box)
        let p = after.picture
        // Block (−1, −2) spans x 0..<58 and y −20..<38: only y 0..<38 is inside.
        let corner = TestPictures.mean(before, plane: 0, xs: 0..<58, ys: 0..<38)
        #expect(p.y[0] == corner)
        #expect(p.y[37 * p.yStride + 57] == corner)
        // A mean that counted the 20 missing rows as black (0) would be much darker.
        let cornerSum: Int = Int(corner) * 38 * 58
        let darkened = UInt8((cornerSum + 29 * 58) / 3364)
        #expect(p.y[0] != darkened)
        try expectMosaicRules(before: before, after: after, box: box)
    }

    @Test("edges are clamped at the bottom-right corner too, on odd picture sizes and an odd block size")
    func clampedBottomRightOddSize() throws {
        let box = NormalizedRect(x: 0.85, y: 0.8, width: 0.3, height: 0.35)
        let (before, after) = mosaic(box, width: 1279, height: 721)
        try expectMosaicRules(before: before, after: after, box: box)
        // 1100 wide: block 33, so chroma block boundaries fall between chroma samples.
        #expect(MosaicCompositor.blockSize(width: 1100, height: 620) == 33)
        let (before33, after33) = mosaic(NormalizedRect(x: 0.7, y: 0.6, width: 0.35, height: 0.5), width: 1100, height: 620)
        try expectMosaicRules(before: before33, after: after33, box: NormalizedRect(x: 0.7, y: 0.6, width: 0.35, height: 0.5))
    }

    @Test("the mask: opaque up to r 0.94, original from r 1.0, linear and monotonic between")
    func maskProfile() throws {
        #expect(MosaicCompositor.maskWeight(normalizedRadius: 0) == 1)
        #expect(MosaicCompositor.maskWeight(normalizedRadius: 0.94) == 1)
        #expect(MosaicCompositor.maskWeight(normalizedRadius: 1) == 0)
        #expect(MosaicCompositor.maskWeight(normalizedRadius: 1.5) == 0)
        #expect(abs(MosaicCompositor.maskWeight(normalizedRadius: 0.97) - 0.5) < 1e-9)
        let radii = stride(from: 0.9, through: 1.05, by: 0.001).map { MosaicCompositor.maskWeight(normalizedRadius: $0) }
        #expect(zip(radii, radii.dropFirst()).allSatisfy { $0 >= $1 })

        // On a flat picture with one bright block the profile along the centre row is visible:
        // the blend moves from the block mean (inside) to the original (outside), monotonically.
        let box = NormalizedRect(x: 0.3, y: 0.3, width: 0.4, height: 0.4)  // 768 × 432 px, centre (960, 540)
        let before = YUVPictureBuffer(width: 1920, height: 1080, fill: (50, 128, 128))
        let p = before.picture
        // The block across the right edge on the centre row: rows alternate 250 / 50, mean 150.
        for y in 482..<540 { for x in 1308..<1366 { p.y[y * p.yStride + x] = y % 2 == 0 ? 250 : 50 } }
        let after = before.copy()
        MosaicCompositor().apply(to: after.picture, boxes: [box])
        let q = after.picture
        // Along row 530 (originally 250): the mean 150 inside, rising monotonically to 250 outside.
        let rowValues = (1308..<1366).map { Int(q.y[530 * q.yStride + $0]) }
        #expect(rowValues.first! == 150)                               // r < 0.94 there
        #expect(zip(rowValues, rowValues.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(rowValues.last! == 250)                                // r > 1 there
        #expect(rowValues.contains { $0 > 150 && $0 < 250 })           // a soft edge, not a step
        let layout = try #require(MosaicCompositor.layout(of: box, width: 1920, height: 1080))
        for (i, value) in rowValues.enumerated() {
            let r = layout.normalizedRadius(x: Double(1308 + i) + 0.5, y: 530.5)
            if r >= 1 { #expect(value == 250) }
            if r <= 0.94 { #expect(value == 150) }
            if r > 0.94 && r < 1 {
                let expected = 150 + Int((100 * (r - 0.94) / 0.06).rounded())  // linear in r, ±1 for the 1/256 steps
                #expect(abs(value - expected) <= 1, "r \(r): \(value), linear would be \(expected)")
            }
        }
        try expectMosaicRules(before: before, after: after, box: box)
    }

    @Test("several boxes: each follows the rules; means come from the untouched picture")
    func severalBoxes() throws {
        let a = NormalizedRect(x: 0.1, y: 0.2, width: 0.15, height: 0.35)
        let b = NormalizedRect(x: 0.6, y: 0.1, width: 0.2, height: 0.45)
        let before = TestPictures.pattern(width: 1280, height: 720)
        let both = before.copy()
        MosaicCompositor().apply(to: both.picture, boxes: [a, b])
        let one = before.copy()
        MosaicCompositor().apply(to: one.picture, boxes: [a])
        MosaicCompositor().apply(to: one.picture, boxes: [b])
        #expect(both.bytes == one.bytes)  // disjoint boxes: the same as one after the other
        // Overlapping boxes: the last one drawn shows its block means *of the original picture*
        // in its opaque part, also where it covers the first one's mosaic.
        let c = NormalizedRect(x: 0.3, y: 0.3, width: 0.3, height: 0.4), d = NormalizedRect(x: 0.4, y: 0.35, width: 0.3, height: 0.4)
        let cd = before.copy()
        MosaicCompositor().apply(to: cd.picture, boxes: [c, d])
        let lc = try #require(MosaicCompositor.layout(of: c, width: 1280, height: 720))
        let ld = try #require(MosaicCompositor.layout(of: d, width: 1280, height: 720))
        let bs = ld.blockSize, p = cd.picture
        var checked = 0, wrong = 0
        for y in stride(from: 0, to: 720, by: 3) {
            for x in stride(from: 0, to: 1280, by: 3) {
                let centre = (x: Double(x) + 0.5, y: Double(y) + 0.5)
                guard ld.normalizedRadius(x: centre.x, y: centre.y) <= 0.94, lc.normalizedRadius(x: centre.x, y: centre.y) < 1 else { continue }
                let kx = Int((Double(x - ld.gridX) / Double(bs)).rounded(.down)), ky = Int((Double(y - ld.gridY) / Double(bs)).rounded(.down))
                let expected = TestPictures.mean(before, plane: 0, xs: (ld.gridX + kx * bs)..<(ld.gridX + (kx + 1) * bs),
                                                 ys: (ld.gridY + ky * bs)..<(ld.gridY + (ky + 1) * bs))
                checked += 1
                if p.y[y * p.yStride + x] != expected { wrong += 1 }
            }
        }
        #expect(checked > 1000 && wrong == 0, "\(wrong) of \(checked) pixels")
    }

    @Test("empty, non-finite and outside boxes change nothing")
    func nothingToDraw() {
        let before = TestPictures.pattern(width: 640, height: 360)
        let after = before.copy()
        MosaicCompositor().apply(to: after.picture, boxes: [
            NormalizedRect(x: 0.5, y: 0.5, width: 0, height: 0.2),
            NormalizedRect(x: 1.2, y: 0.2, width: 0.1, height: 0.1),
            NormalizedRect(x: -0.5, y: 0.2, width: 0.3, height: 0.1),
            NormalizedRect(x: .nan, y: 0.2, width: 0.3, height: 0.1),
            NormalizedRect(x: 0.2, y: 0.2, width: .infinity, height: 0.1),
        ])
        #expect(after.bytes == before.bytes)
        #expect(MosaicCompositor.layout(of: NormalizedRect(x: 1.01, y: 0, width: 0.5, height: 0.5), width: 640, height: 360) == nil)
    }

    @Test("golden: the mosaic of a deterministic 1080p and 720p frame")
    func golden() throws {
        var text = ""
        for (width, height, box) in [(1920, 1080, NormalizedRect(x: 0.40, y: 0.25, width: 0.16, height: 0.40)),
                                     (1280, 720, NormalizedRect(x: -0.05, y: 0.55, width: 0.25, height: 0.5))] {
            let (before, after) = mosaic(box, width: width, height: height)
            try expectMosaicRules(before: before, after: after, box: box)
            let layout = try #require(MosaicCompositor.layout(of: box, width: width, height: height))
            let p = after.picture
            text += "picture \(width)x\(height) box \(box)\n"
            text += "block \(layout.blockSize) grid \(layout.gridX),\(layout.gridY)\n"
            text += "luma at block centres inside r<=0.94 (-- elsewhere), rows top to bottom:\n"
            let b = layout.blockSize
            let kx0 = Int(((layout.centreX - layout.radiusX - Double(layout.gridX)) / Double(b)).rounded(.down))
            let kx1 = Int(((layout.centreX + layout.radiusX - Double(layout.gridX)) / Double(b)).rounded(.down))
            let ky0 = Int(((layout.centreY - layout.radiusY - Double(layout.gridY)) / Double(b)).rounded(.down))
            let ky1 = Int(((layout.centreY + layout.radiusY - Double(layout.gridY)) / Double(b)).rounded(.down))
            for ky in ky0...ky1 {
                var cells: [String] = []
                for kx in kx0...kx1 {
                    let x = layout.gridX + kx * b + b / 2, y = layout.gridY + ky * b + b / 2
                    let inside = x >= 0 && y >= 0 && x < width && y < height
                        && layout.normalizedRadius(x: Double(x) + 0.5, y: Double(y) + 0.5) <= 0.94
                    cells.append(inside ? String(format3(p.y[y * p.yStride + x])) : " --")
                }
                text += cells.joined(separator: " ") + "\n"
            }
            text += "fnv1a yuv420p \(TestPictures.checksum(after.bytes)) (input \(TestPictures.checksum(before.bytes)))\n\n"
        }
        try GoldenFile.expect(text, matches: "mosaic.txt")
    }

    func format3(_ v: UInt8) -> String { String(repeating: " ", count: 3 - String(v).count) + String(v) }
}
