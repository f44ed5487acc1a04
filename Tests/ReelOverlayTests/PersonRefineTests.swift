import ReelCore
import ReelTestSupport
import ReelVision
import Testing

/// `PersonCutout`: the segmentation's probability refined by GrabCut, and a person the network
/// is unsure of seeded from the face. Synthetic pictures with a known shape: an orange figure
/// (a head and a body) on a blue background with a little noise.
@Suite("PersonCutout: the network's person refined on colour, or seeded from a face")
struct PersonRefineTests {
    static let width = 480, height = 360
    /// The head: a circle; the neck and the body: rectangles under it to the bottom edge.
    static let head = (x: 240.0, y: 120.0, r: 40.0)
    static let body = (x0: 170.0, x1: 310.0, y0: 170.0)

    static func inFigure(_ x: Double, _ y: Double, grownBy g: Double = 0) -> Bool {
        let dx = x - head.x, dy = y - head.y
        let neck = x >= 222 - g && x < 258 + g && y >= 150 - g
        return dx * dx + dy * dy <= (head.r + g) * (head.r + g) || neck || (x >= body.x0 - g && x < body.x1 + g && y >= body.y0 - g)
    }

    /// The picture, RGB.
    static let rgb: [UInt8] = {
        var random = SplitMix64(seed: 7)
        var pixels = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                let colour: [Int] = inFigure(Double(x) + 0.5, Double(y) + 0.5) ? [225, 120, 40] : [40, 70, 160]
                for c in 0..<3 { pixels[(y * width + x) * 3 + c] = UInt8(max(0, min(255, colour[c] + Int(random.next() % 21) - 10))) }
            }
        }
        return pixels
    }()

    /// A probability map: `value` inside `inside`, 0 elsewhere.
    static func probability(_ value: UInt8, inside: (Double, Double) -> Bool) -> SoftMask {
        var values = [UInt8](repeating: 0, count: width * height)
        for y in 0..<height { for x in 0..<width where inside(Double(x) + 0.5, Double(y) + 0.5) { values[y * width + x] = value } }
        return SoftMask(width: width, height: height, values: values)
    }

    static func iou(_ mask: SoftMask) -> Double {
        var both = 0, either = 0
        for y in 0..<height {
            for x in 0..<width {
                let truth = inFigure(Double(x) + 0.5, Double(y) + 0.5), found = mask[x, y] >= 128
                if truth && found { both += 1 }
                if truth || found { either += 1 }
            }
        }
        return Double(both) / Double(either)
    }

    func refine(_ probability: SoftMask, at point: (Double, Double), face: NormalizedRect? = nil) throws -> SoftMask {
        try Self.rgb.withUnsafeBytes { bytes in
            let picture = DetectorPicture(format: .rgb24, base: bytes.baseAddress!, width: Self.width, height: Self.height, stride: Self.width * 3)
            return try PersonCutout.mask(picture, probability: probability, x: point.0, y: point.1, face: face)
        }
    }

    @Test("a network's edge 12 px too wide (as its coarse grid leaves it) is pulled back to the figure's edge")
    func tightens() throws {
        // The figure grown by 12 px: what a 256x256 network enlarged tends to give, and more.
        let coarse = Self.probability(230) { x, y in Self.inFigure(x, y, grownBy: 12) }
        let before = Self.iou(coarse)
        let refined = try refine(coarse, at: (240, 280))
        let after = Self.iou(refined)
        #expect(before < 0.9)
        #expect(after >= 0.97, "IoU \(after) (the network's \(before))")
    }

    @Test("a faint network (probability 70 in a patch on the chest) is a person only with a face: then the whole figure")
    func faint() throws {
        let patch = Self.probability(70) { x, y in abs(x - 240) < 40 && abs(y - 260) < 40 }
        // Without a face, 70 is not a person.
        #expect(throws: CutoutError.self) { try refine(patch, at: (240, 260)) }
        let face = NormalizedRect(x: 210.0 / 480, y: 88.0 / 360, width: 60.0 / 480, height: 64.0 / 360)
        let seeded = try refine(patch, at: (240, 260), face: face)
        #expect(Self.iou(seeded) >= 0.95, "IoU \(Self.iou(seeded))")
        // A point the network does not see even faintly is refused, face or not.
        #expect(throws: CutoutError.self) { try refine(patch, at: (240, 340), face: face) }
    }

    @Test("a probability of another size is refused")
    func sizes() {
        let wrong = SoftMask(width: 10, height: 10, values: Array(repeating: 255, count: 100))
        #expect(throws: CutoutError.self) { try refine(wrong, at: (5, 5)) }
    }
}
