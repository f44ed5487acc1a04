import ReelCore

/// A picture of 16-bit RGB code values in a colour space, rows top to bottom, no padding: the
/// camera's picture (sRGB), the composite (linear Display P3), a photo before encoding.
public struct RGBPicture: Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 3` samples: R, G, B per pixel, 0…65535.
    public var samples: [UInt16]
    /// What the code values mean.
    public let space: RGBColorSpace

    /// A picture of `samples` (`width * height * 3`) in `space`.
    public init(width: Int, height: Int, samples: [UInt16], space: RGBColorSpace) {
        precondition(width > 0 && height > 0 && samples.count == width * height * 3,
                     "\(samples.count) samples for a \(width)x\(height) RGB picture")
        self.width = width
        self.height = height
        self.samples = samples
        self.space = space
    }

    /// Its size.
    public var size: VideoDimensions { VideoDimensions(width: width, height: height) }

    /// The picture turned a quarter clockwise (spec §4: a landscape camera's picture made portrait).
    public func rotated(_ rotation: CaptureRotation) -> RGBPicture {
        guard rotation == .clockwise else { return self }
        var out = [UInt16](repeating: 0, count: samples.count)
        let w = width, h = height
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                // Output (x', y') = (h - 1 - y, x): output row y' is source column x = y'.
                for y in 0..<h {
                    let outX = h - 1 - y
                    for x in 0..<w {
                        let s = (y * w + x) * 3, d = (x * h + outX) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBPicture(width: h, height: w, samples: out, space: space)
    }

    /// The pixels of `rect` (which must lie inside the picture).
    public func cropped(to rect: PixelRect) -> RGBPicture {
        precondition(rect.x >= 0 && rect.y >= 0 && rect.x + rect.width <= width && rect.y + rect.height <= height,
                     "crop \(rect) outside a \(width)x\(height) picture")
        if rect == PixelRect(x: 0, y: 0, width: width, height: height) { return self }
        var out = [UInt16](repeating: 0, count: rect.width * rect.height * 3)
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for row in 0..<rect.height {
                    let from = ((rect.y + row) * width + rect.x) * 3
                    let to = row * rect.width * 3
                    dst.baseAddress!.advanced(by: to).update(from: src.baseAddress!.advanced(by: from), count: rect.width * 3)
                }
            }
        }
        return RGBPicture(width: rect.width, height: rect.height, samples: out, space: space)
    }

    /// The same picture in `target`. From linear light to an encoded space (the photo's way
    /// out) the primaries change by the 3×3 matrix lcms2 gives between the two linear spaces,
    /// clipped to the target's gamut per channel, then the curve from ``ToneTable``: lcms2
    /// running such a transform itself evaluates `pow` per sample (0.3 µs a pixel, 0.5 s for a
    /// 1080x1920 JPEG), where a matrix and a table cost a few milliseconds. Other directions
    /// (a camera's sRGB into linear P3) run through lcms2's own transform, which is fast there.
    public func converted(to target: RGBColorSpace) -> RGBPicture {
        if target == space { return self }
        var out = [UInt16](repeating: 0, count: samples.count)
        if space.transfer == .linear && target.transfer != .linear {
            let matrix = space == target.linear ? nil : ColorMatrix3.between(space, target.linear)
            let table = ToneTable.encoding(target.transfer)
            samples.withUnsafeBufferPointer { src in
                table.withUnsafeBufferPointer { lut in
                    out.withUnsafeMutableBufferPointer { dst in
                        guard let m = matrix else {
                            for i in 0..<src.count { dst[i] = lut[Int(src[i])] }
                            return
                        }
                        for i in stride(from: 0, to: src.count, by: 3) {
                            let r = Float(src[i]), g = Float(src[i + 1]), b = Float(src[i + 2])
                            dst[i] = lut[ColorMatrix3.index(m.m[0] * r + m.m[1] * g + m.m[2] * b)]
                            dst[i + 1] = lut[ColorMatrix3.index(m.m[3] * r + m.m[4] * g + m.m[5] * b)]
                            dst[i + 2] = lut[ColorMatrix3.index(m.m[6] * r + m.m[7] * g + m.m[8] * b)]
                        }
                    }
                }
            }
        } else {
            let transform = ColorTransform(from: ColorProfile.shared(space), .rgb16, to: ColorProfile.shared(target), .rgb16)!
            samples.withUnsafeBytes { src in out.withUnsafeMutableBytes { transform.apply(src.baseAddress!, $0.baseAddress!, pixels: width * height) } }
        }
        return RGBPicture(width: width, height: height, samples: out, space: target)
    }

    /// 8-bit samples, rounded (for the 8-bit encoders).
    public func samples8() -> [UInt8] {
        var out = [UInt8](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for i in 0..<src.count { dst[i] = UInt8((UInt32(src[i]) * 255 + 32767) / 65535) }
            }
        }
        return out
    }
}
