import ReelCore

/// Lays artwork over a picture in linear Display P3 (docs/behaviour.md §4): the camera picture
/// is converted from its space by lcms2, the artwork (already premultiplied linear P3) is
/// sampled through the placement's transform, bilinear on premultiplied samples (transparent
/// outside the artwork, so its edges are smooth), and blended `art + camera × (1 − α)`.
public enum OverlayCompositor {
    /// The photo: `camera` (exactly the region the preview shows) with `art` laid over it by
    /// `transform` (artwork 0…1 → picture 0…1, ``OverlayPlacement/transform(art:preview:)``),
    /// in linear Display P3. Without art, the camera picture converted.
    public static func composite(camera: RGBPicture, art: Artwork?, transform: AffineTransform) -> RGBPicture {
        var photo = camera.converted(to: .linearDisplayP3)
        guard let art, let inverse = transform.inverted else { return photo }
        let width = photo.width, height = photo.height
        guard let rows = coveredRows(transform, width: width, height: height),
              let columns = coveredColumns(transform, width: width, height: height) else { return photo }
        // Picture pixel centre → artwork pixel coordinates, as a start and per-step increments.
        let artW = Double(art.width), artH = Double(art.height)
        let stepX = (inverse.a * artW / Double(width), inverse.b * artH / Double(width))
        art.samples.withUnsafeBufferPointer { artPixels in
            photo.samples.withUnsafeMutableBufferPointer { out in
                for y in rows {
                    let py = (Double(y) + 0.5) / Double(height), px = (Double(columns.lowerBound) + 0.5) / Double(width)
                    let start = inverse.apply(x: px, y: py)
                    var sx = start.x * artW - 0.5, sy = start.y * artH - 0.5
                    for x in columns {
                        blend(out.baseAddress! + (y * width + x) * 3, artPixels, art.width, art.height, sx, sy)
                        sx += stepX.0
                        sy += stepX.1
                    }
                }
            }
        }
        return photo
    }

    /// One picture pixel: the artwork sampled at (`sx`, `sy`) (pixel coordinates, centres at
    /// whole numbers) laid over it.
    @inline(__always)
    private static func blend(_ pixel: UnsafeMutablePointer<UInt16>, _ art: UnsafeBufferPointer<UInt16>,
                              _ w: Int, _ h: Int, _ sx: Double, _ sy: Double) {
        guard sx > -1, sy > -1, sx < Double(w), sy < Double(h) else { return }
        let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
        let fx = Float(sx - Double(x0)), fy = Float(sy - Double(y0))
        var r: Float = 0, g: Float = 0, b: Float = 0, a: Float = 0
        @inline(__always) func tap(_ x: Int, _ y: Int, _ weight: Float) {
            guard weight > 0, x >= 0, y >= 0, x < w, y < h else { return }
            let i = (y * w + x) * 4
            r += Float(art[i]) * weight
            g += Float(art[i + 1]) * weight
            b += Float(art[i + 2]) * weight
            a += Float(art[i + 3]) * weight
        }
        tap(x0, y0, (1 - fx) * (1 - fy))
        tap(x0 + 1, y0, fx * (1 - fy))
        tap(x0, y0 + 1, (1 - fx) * fy)
        tap(x0 + 1, y0 + 1, fx * fy)
        guard a > 0 else { return }
        let keep = 1 - a / 65535
        pixel[0] = UInt16(min(65535, (r + Float(pixel[0]) * keep).rounded()))
        pixel[1] = UInt16(min(65535, (g + Float(pixel[1]) * keep).rounded()))
        pixel[2] = UInt16(min(65535, (b + Float(pixel[2]) * keep).rounded()))
    }

    /// The picture's corners of the artwork, in pixels.
    private static func corners(_ t: AffineTransform, width: Int, height: Int) -> [(x: Double, y: Double)] {
        [(0.0, 0.0), (1, 0), (0, 1), (1, 1)].map { corner in
            let p = t.apply(x: corner.0, y: corner.1)
            return (p.x * Double(width), p.y * Double(height))
        }
    }

    private static func coveredRows(_ t: AffineTransform, width: Int, height: Int) -> Range<Int>? {
        let ys = corners(t, width: width, height: height).map(\.y)
        let low = max(0, Int(ys.min()!.rounded(.down)) - 1), high = min(height, Int(ys.max()!.rounded(.up)) + 1)
        return low < high ? low..<high : nil
    }

    private static func coveredColumns(_ t: AffineTransform, width: Int, height: Int) -> Range<Int>? {
        let xs = corners(t, width: width, height: height).map(\.x)
        let low = max(0, Int(xs.min()!.rounded(.down)) - 1), high = min(width, Int(xs.max()!.rounded(.up)) + 1)
        return low < high ? low..<high : nil
    }
}
