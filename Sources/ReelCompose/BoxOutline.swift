import ReelCore

/// A rectangle's outline drawn on a picture (the review's segment frames show the box the
/// mosaic would cover).
public enum BoxOutline {
    /// Draws `box` (normalized, clamped to the picture) as a `thickness`-pixel frame in the
    /// limited-range YUV colour `colour` (default: a bright yellow).
    public static func draw(on picture: YUVPicture, box: NormalizedRect, thickness: Int = 4,
                            colour: (y: UInt8, u: UInt8, v: UInt8) = (210, 16, 146)) {
        let w = picture.width, h = picture.height
        let x0 = max(0, min(w - 1, Int((box.x * Double(w)).rounded()))), y0 = max(0, min(h - 1, Int((box.y * Double(h)).rounded())))
        let x1 = max(x0, min(w - 1, Int(((box.x + box.width) * Double(w)).rounded()) - 1))
        let y1 = max(y0, min(h - 1, Int(((box.y + box.height) * Double(h)).rounded()) - 1))
        let t = max(1, thickness)
        func fill(_ xa: Int, _ ya: Int, _ xb: Int, _ yb: Int) {
            guard xa <= xb, ya <= yb else { return }
            for y in ya...yb {
                let row = picture.y + y * picture.yStride
                for x in xa...xb { row[x] = colour.y }
            }
            for cy in (ya / 2)...(yb / 2) {
                let u = picture.u + cy * picture.uStride, v = picture.v + cy * picture.vStride
                for cx in (xa / 2)...(xb / 2) {
                    u[cx] = colour.u
                    v[cx] = colour.v
                }
            }
        }
        fill(x0, y0, x1, min(y1, y0 + t - 1))
        fill(x0, max(y0, y1 - t + 1), x1, y1)
        fill(x0, y0, min(x1, x0 + t - 1), y1)
        fill(max(x0, x1 - t + 1), y0, x1, y1)
    }
}
