import ReelCompose

/// Deterministic yuv420p pictures and the checks the compositor tests share.
enum TestPictures {
    /// A busy picture: a diagonal gradient, coarse bands (97 × 61 px), a 24-pixel checker and
    /// hashed noise on every plane, so neighbouring blocks have different means and a wrong
    /// grid or a dark edge shows.
    static func pattern(width: Int, height: Int) -> YUVPictureBuffer {
        let buffer = YUVPictureBuffer(width: width, height: height)
        let p = buffer.picture
        for y in 0..<height {
            for x in 0..<width {
                let checker = ((x / 24 + y / 24) & 1) * 20
                let bands = ((x / 97 + y / 61) % 5) * 20
                p.y[y * p.yStride + x] = UInt8(30 + (x * 3 + y * 2) % 120 / 2 + bands + checker + Int(hash(x, y) & 15))
            }
        }
        for y in 0..<p.chromaHeight {
            for x in 0..<p.chromaWidth {
                p.u[y * p.uStride + x] = UInt8(60 + (x * 5 + y) % 130 + Int(hash(x, y + 7777) & 7))
                p.v[y * p.vStride + x] = UInt8(70 + (x + y * 3) % 110 + Int(hash(x + 3333, y) & 7))
            }
        }
        return buffer
    }

    /// A small integer hash (no generator state: any pixel can be recomputed).
    static func hash(_ x: Int, _ y: Int) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: x) &* 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: y) &* 0xC2B2_AE3D_27D4_EB4F
        z = (z ^ (z >> 29)) &* 0xBF58_476D_1CE4_E5B9
        return z ^ (z >> 32)
    }

    /// FNV-1a over bytes, as hex.
    static func checksum(_ bytes: [UInt8]) -> String {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01B3 }
        return String(h, radix: 16)
    }

    /// The rounded mean of `plane` (0 Y, 1 Cb, 2 Cr) over columns `xs` and rows `ys`, both
    /// clipped to the plane: computed the slow, obvious way.
    static func mean(_ buffer: YUVPictureBuffer, plane: Int, xs: Range<Int>, ys: Range<Int>) -> UInt8 {
        let p = buffer.picture
        let (w, h) = plane == 0 ? (p.width, p.height) : (p.chromaWidth, p.chromaHeight)
        let xs = max(0, xs.lowerBound)..<min(w, xs.upperBound), ys = max(0, ys.lowerBound)..<min(h, ys.upperBound)
        var sum = 0
        for y in ys { for x in xs { sum += Int(value(buffer, plane: plane, x: x, y: y)) } }
        let n = xs.count * ys.count
        return UInt8((sum + n / 2) / n)
    }

    /// One sample of a plane.
    static func value(_ buffer: YUVPictureBuffer, plane: Int, x: Int, y: Int) -> UInt8 {
        let p = buffer.picture
        switch plane {
        case 0: return p.y[y * p.yStride + x]
        case 1: return p.u[y * p.uStride + x]
        default: return p.v[y * p.vStride + x]
        }
    }
}
