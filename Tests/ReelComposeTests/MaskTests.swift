import ReelCompose
import ReelCore
import Testing

@Suite("Mask")
struct MaskTests {
    /// Checks every sample of every plane of `after` against the mask's rules, computed the
    /// slow way from `before`: outside the mosaic's ellipse untouched, inside r ≤ 0.94 the fill,
    /// in the soft edge the mosaic's blend towards the fill.
    func expectMaskRules(before: YUVPictureBuffer, after: YUVPictureBuffer, boxes: [NormalizedRect],
                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        let p = before.picture
        let layouts = try boxes.map { try #require(MosaicCompositor.layout(of: $0, width: p.width, height: p.height)) }
        var failures = 0
        for plane in 0..<3 {
            let s = plane == 0 ? 1 : 2
            let (w, h) = plane == 0 ? (p.width, p.height) : (p.chromaWidth, p.chromaHeight)
            for y in 0..<h {
                for x in 0..<w {
                    var expected = Int(TestPictures.value(before, plane: plane, x: x, y: y))
                    for layout in layouts {
                        let r = layout.normalizedRadius(x: Double(x * s) + Double(s) / 2, y: Double(y * s) + Double(s) / 2)
                        guard r < 1 else { continue }
                        let weight = r <= 0.94 ? 256 : Int((256 * (1 - r) / 0.06).rounded())
                        expected = (weight * 128 + (256 - weight) * expected + 128) >> 8
                    }
                    let actual = Int(TestPictures.value(after, plane: plane, x: x, y: y))
                    if actual != expected {
                        failures += 1
                        if failures <= 5 {
                            Issue.record("plane \(plane) (\(x), \(y)): \(actual), expected \(expected)", sourceLocation: sourceLocation)
                        }
                    }
                }
            }
        }
        #expect(failures == 0, "\(failures) samples break the mask rules", sourceLocation: sourceLocation)
    }

    @Test("fills the mosaic's ellipse with mid grey, the same soft edge, nothing outside", arguments: [
        NormalizedRect(x: 0.4, y: 0.3, width: 0.15, height: 0.25),    // inside
        NormalizedRect(x: -0.05, y: 0.7, width: 0.2, height: 0.4),    // cut by two edges
        NormalizedRect(x: 0.5, y: 0.5, width: 0.004, height: 0.006),  // smaller than a block: at least one block across
    ])
    func rules(box: NormalizedRect) throws {
        let before = TestPictures.pattern(width: 641, height: 361)
        let after = before.copy()
        MaskCompositor().apply(to: after.picture, boxes: [box])
        try expectMaskRules(before: before, after: after, boxes: [box])
    }

    @Test("overlapping boxes, and a mask through the compositor beside a mosaic")
    func throughTheCompositor() throws {
        let boxes = [rect(0.2, 0.2, 0.3, 0.3), rect(0.35, 0.3, 0.3, 0.3)]
        let before = TestPictures.pattern(width: 320, height: 240)
        let after = before.copy()
        try FrameCompositor().composite(after.picture, covers: boxes.map { .mask($0) }, caption: nil)
        try expectMaskRules(before: before, after: after, boxes: boxes)
        // A mask and a mosaic: the mosaic's pixels are the mosaic's, the mask's the mask's.
        let mixed = before.copy(), mosaicOnly = before.copy()
        try FrameCompositor().composite(mixed.picture, covers: [.mosaic(rect(0, 0, 0.2, 0.2)), .mask(rect(0.6, 0.6, 0.3, 0.3))], caption: nil)
        MosaicCompositor().apply(to: mosaicOnly.picture, boxes: [rect(0, 0, 0.2, 0.2)])
        MaskCompositor().apply(to: mosaicOnly.picture, boxes: [rect(0.6, 0.6, 0.3, 0.3)])
        #expect(mixed.bytes == mosaicOnly.bytes)
    }

    @Test("the whole picture, every plane")
    func whole() {
        let picture = TestPictures.pattern(width: 99, height: 51)
        MaskCompositor().fillWhole(picture.picture)
        var others = 0
        for plane in 0..<3 {
            let (w, h) = plane == 0 ? (99, 51) : (50, 26)
            for y in 0..<h { for x in 0..<w where TestPictures.value(picture, plane: plane, x: x, y: y) != 128 { others += 1 } }
        }
        #expect(others == 0)
    }

    private func rect(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> NormalizedRect {
        NormalizedRect(x: x, y: y, width: w, height: h)
    }
}
