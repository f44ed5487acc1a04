/// RGBA artwork converted once for a 4:2:0 picture: Y, Cb, Cr and alpha planes, ready to be
/// alpha-blended every frame (stamps, the watermark, captions).
///
/// Luma and its alpha are at full resolution; each chroma sample is the alpha-weighted mean of
/// its 2×2 quad's colours, with the quad's mean alpha (so a half-transparent edge does not
/// pull the picture's colour towards the artwork's transparent pixels' colour).
public struct YUVOverlay: Sendable {
    /// Width in luma pixels.
    public let width: Int
    /// Height in luma pixels.
    public let height: Int
    private let luma: [UInt8]
    private let lumaAlpha: [UInt8]
    private let cb: [UInt8]
    private let cr: [UInt8]
    private let chromaAlpha: [UInt8]

    /// `image` converted with `matrix`, its alpha multiplied by `opacity` (0…1).
    public init(_ image: RGBAImage, matrix: ColorMatrix, opacity: Double = 1) {
        width = image.width
        height = image.height
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        let opacity256 = Int((min(1, max(0, opacity)) * 256).rounded())
        var luma = [UInt8](repeating: 0, count: width * height)
        var lumaAlpha = [UInt8](repeating: 0, count: width * height)
        var uFull = [Int](repeating: 0, count: width * height)
        var vFull = [Int](repeating: 0, count: width * height)
        // Small tables would need 16M entries; artwork is converted once, so compute directly.
        for i in 0..<(width * height) {
            let p = i * 4
            let (y, u, v) = matrix.yuv(red: image.pixels[p], green: image.pixels[p + 1], blue: image.pixels[p + 2])
            luma[i] = y
            uFull[i] = Int(u)
            vFull[i] = Int(v)
            lumaAlpha[i] = UInt8((Int(image.pixels[p + 3]) * opacity256 + 128) >> 8)
        }
        var cb = [UInt8](repeating: 128, count: cw * ch)
        var cr = [UInt8](repeating: 128, count: cw * ch)
        var chromaAlpha = [UInt8](repeating: 0, count: cw * ch)
        for cy in 0..<ch {
            for cx in 0..<cw {
                var su = 0, sv = 0, sa = 0
                for (x, y) in [(2 * cx, 2 * cy), (2 * cx + 1, 2 * cy), (2 * cx, 2 * cy + 1), (2 * cx + 1, 2 * cy + 1)]
                where x < width && y < height {
                    let i = y * width + x, a = Int(lumaAlpha[i])
                    su += uFull[i] * a
                    sv += vFull[i] * a
                    sa += a
                }
                let c = cy * cw + cx
                if sa > 0 {
                    cb[c] = UInt8((su + sa / 2) / sa)
                    cr[c] = UInt8((sv + sa / 2) / sa)
                }
                // Missing pixels of an odd edge count as transparent.
                chromaAlpha[c] = UInt8((sa + 2) / 4)
            }
        }
        self.luma = luma
        self.lumaAlpha = lumaAlpha
        self.cb = cb
        self.cr = cr
        self.chromaAlpha = chromaAlpha
    }

    /// Blends the overlay onto `picture` with its top-left corner at luma pixel (`x`, `y`),
    /// rounded down to even so chroma samples line up; parts outside the picture are clipped.
    /// `out = a·overlay + (1 − a)·picture`, rounded.
    public func blend(onto picture: YUVPicture, x: Int, y: Int) {
        let x = x & ~1, y = y & ~1
        blendPlane(picture.plane(0), values: luma, alpha: lumaAlpha, width: width, height: height, x: x, y: y)
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        blendPlane(picture.plane(1), values: cb, alpha: chromaAlpha, width: cw, height: ch, x: x / 2, y: y / 2)
        blendPlane(picture.plane(2), values: cr, alpha: chromaAlpha, width: cw, height: ch, x: x / 2, y: y / 2)
    }

    private func blendPlane(_ plane: YUVPicture.Plane, values: [UInt8], alpha: [UInt8], width: Int, height: Int, x: Int, y: Int) {
        let sx0 = max(0, -x), sy0 = max(0, -y)
        let sx1 = min(width, plane.width - x), sy1 = min(height, plane.height - y)
        guard sx0 < sx1, sy0 < sy1 else { return }
        values.withUnsafeBufferPointer { values in
            alpha.withUnsafeBufferPointer { alpha in
                for sy in sy0..<sy1 {
                    let row = plane.base + (y + sy) * plane.stride + x
                    let source = sy * width
                    for sx in sx0..<sx1 {
                        let a = Int(alpha[source + sx])
                        if a == 0 { continue }
                        if a == 255 { row[sx] = values[source + sx]; continue }
                        let t = a * Int(values[source + sx]) + (255 - a) * Int(row[sx]) + 128
                        row[sx] = UInt8(truncatingIfNeeded: (t + (t >> 8)) >> 8)
                    }
                }
            }
        }
    }
}
