/// An 8-bit RGBA image with straight (not premultiplied) alpha, rows top to bottom: stamps,
/// the watermark and rendered captions before they are converted for the picture.
public struct RGBAImage: Sendable, Equatable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` bytes: R, G, B, A per pixel.
    public var pixels: [UInt8]

    /// An image of `pixels` (`width * height * 4` bytes).
    public init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width > 0 && height > 0 && pixels.count == width * height * 4,
                     "\(pixels.count) bytes for a \(width)x\(height) RGBA image")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// An image filled with one colour.
    public init(width: Int, height: Int, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        for i in stride(from: 0, to: pixels.count, by: 4) {
            pixels[i] = red; pixels[i + 1] = green; pixels[i + 2] = blue; pixels[i + 3] = alpha
        }
        self.init(width: width, height: height, pixels: pixels)
    }

    /// The pixel at (`x`, `y`).
    public subscript(x: Int, y: Int) -> (r: UInt8, g: UInt8, b: UInt8, a: UInt8) {
        let i = (y * width + x) * 4
        return (pixels[i], pixels[i + 1], pixels[i + 2], pixels[i + 3])
    }

    /// The size that fits inside `maxWidth` × `maxHeight` keeping this image's aspect ratio
    /// (at least 1×1).
    public func fittedSize(maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// This image resampled to `newWidth` × `newHeight`, bilinear on premultiplied colour (so
    /// transparent pixels do not darken the edges), sampling at pixel centres.
    public func scaled(toWidth newWidth: Int, height newHeight: Int) -> RGBAImage {
        precondition(newWidth > 0 && newHeight > 0, "cannot scale to \(newWidth)x\(newHeight)")
        if newWidth == width && newHeight == height { return self }
        var out = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
        let sx = Double(width) / Double(newWidth), sy = Double(height) / Double(newHeight)
        // Shrinking a lot with 2×2 taps would alias: average a box of source pixels first.
        let source = (sx > 2 || sy > 2) ? boxReduced(factorX: max(1, Int(sx / 2)), factorY: max(1, Int(sy / 2))) : self
        let fx = Double(source.width) / Double(newWidth), fy = Double(source.height) / Double(newHeight)
        source.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<newHeight {
                    let syf = max(0, (Double(y) + 0.5) * fy - 0.5)
                    let y0 = min(source.height - 1, Int(syf)), y1 = min(source.height - 1, y0 + 1)
                    let wy = syf - Double(y0)
                    for x in 0..<newWidth {
                        let sxf = max(0, (Double(x) + 0.5) * fx - 0.5)
                        let x0 = min(source.width - 1, Int(sxf)), x1 = min(source.width - 1, x0 + 1)
                        let wx = sxf - Double(x0)
                        var acc = (r: 0.0, g: 0.0, b: 0.0, a: 0.0)
                        for (px, py, w) in [(x0, y0, (1 - wx) * (1 - wy)), (x1, y0, wx * (1 - wy)),
                                            (x0, y1, (1 - wx) * wy), (x1, y1, wx * wy)] where w > 0 {
                            let i = (py * source.width + px) * 4
                            let a = Double(src[i + 3]) * w
                            acc.r += Double(src[i]) * a
                            acc.g += Double(src[i + 1]) * a
                            acc.b += Double(src[i + 2]) * a
                            acc.a += a
                        }
                        let o = (y * newWidth + x) * 4
                        if acc.a > 0 {
                            dst[o] = UInt8(min(255, (acc.r / acc.a).rounded()))
                            dst[o + 1] = UInt8(min(255, (acc.g / acc.a).rounded()))
                            dst[o + 2] = UInt8(min(255, (acc.b / acc.a).rounded()))
                            dst[o + 3] = UInt8(min(255, acc.a.rounded()))
                        }
                    }
                }
            }
        }
        return RGBAImage(width: newWidth, height: newHeight, pixels: out)
    }

    /// A box-filtered reduction by whole factors (alpha-weighted colour).
    private func boxReduced(factorX: Int, factorY: Int) -> RGBAImage {
        let w = max(1, width / factorX), h = max(1, height / factorY)
        var out = [UInt8](repeating: 0, count: w * h * 4)
        for y in 0..<h {
            for x in 0..<w {
                var r = 0, g = 0, b = 0, a = 0, n = 0
                for yy in (y * factorY)..<min(height, (y + 1) * factorY) {
                    for xx in (x * factorX)..<min(width, (x + 1) * factorX) {
                        let i = (yy * width + xx) * 4
                        let alpha = Int(pixels[i + 3])
                        r += Int(pixels[i]) * alpha; g += Int(pixels[i + 1]) * alpha; b += Int(pixels[i + 2]) * alpha
                        a += alpha; n += 1
                    }
                }
                let o = (y * w + x) * 4
                if a > 0 {
                    out[o] = UInt8((r + a / 2) / a); out[o + 1] = UInt8((g + a / 2) / a); out[o + 2] = UInt8((b + a / 2) / a)
                }
                out[o + 3] = UInt8((a + n / 2) / max(1, n))
            }
        }
        return RGBAImage(width: w, height: h, pixels: out)
    }
}
