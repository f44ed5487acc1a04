import Foundation
import ReelTestSupport
import ReelVision
import Testing
@testable import ReelOverlay

@Suite("The cut-out's mask enlarged to the photo")
struct CutoutEnlargeTests {
    /// Bilinear with pixel centres at +0.5, in Double: what the integer version must match.
    static func reference(_ mask: SoftMask, width: Int, height: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: width * height)
        let sx = Double(mask.width) / Double(width), sy = Double(mask.height) / Double(height)
        for y in 0..<height {
            let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
            let y0 = min(mask.height - 1, Int(fy)), y1 = min(mask.height - 1, y0 + 1), wy = fy - Double(y0)
            for x in 0..<width {
                let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
                let x0 = min(mask.width - 1, Int(fx)), x1 = min(mask.width - 1, x0 + 1), wx = fx - Double(x0)
                let v = { (yy: Int, xx: Int) in Double(mask.values[yy * mask.width + xx]) }
                let top = v(y0, x0) * (1 - wx) + v(y0, x1) * wx, bottom = v(y1, x0) * (1 - wx) + v(y1, x1) * wx
                out[y * width + x] = UInt8((top * (1 - wy) + bottom * wy).rounded())
            }
        }
        return out
    }

    @Test("integer bilinear matches the exact one within one level, edges clamped, same size untouched")
    func matchesReference() {
        var random = SplitMix64(seed: 16)
        let mask = SoftMask(width: 7, height: 5, values: (0..<35).map { _ in UInt8(random.next() % 256) })
        for (w, h) in [(23, 17), (7, 5), (64, 9), (3, 2)] {
            let fast = OverlayCutout.enlarge(mask, width: w, height: h), exact = Self.reference(mask, width: w, height: h)
            let worst = zip(fast, exact).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(worst <= 1, "\(w)x\(h): worst difference \(worst)")
        }
        #expect(OverlayCutout.enlarge(mask, width: 7, height: 5) == mask.values)
        let flat = SoftMask(width: 4, height: 4, values: Array(repeating: 255, count: 16))
        #expect(OverlayCutout.enlarge(flat, width: 13, height: 11).allSatisfy { $0 == 255 }, "full stays full")
    }
}
