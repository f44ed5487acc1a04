import Foundation
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

    /// The same picture in `target`. Reel's spaces are all matrix-shaper, so a conversion is
    /// the source's curve undone, the 3×3 matrix lcms2 gives between the two linear spaces
    /// (gamut clipped per channel), and the target's curve: the curves as lcms2 tabulates them
    /// for all 65,536 codes (``ToneTable``), the matrix in Float, on both cores. lcms2 running the
    /// same transform itself spent 0.3 µs a pixel (its inverted sRGB curve is a `pow` per
    /// sample), most of a 1080x1920 photo's time.
    public func converted(to target: RGBColorSpace) -> RGBPicture {
        if target == space { return self }
        return RGBPicture(width: width, height: height, samples: Self.convert(samples, channels: 3, from: space, to: target), space: target)
    }

    /// RGBA samples (alpha after each pixel, kept as it is) converted as ``converted(to:)`` does.
    static func convertRGBA(_ samples: [UInt16], from space: RGBColorSpace, to target: RGBColorSpace) -> [UInt16] {
        convert(samples, channels: 4, from: space, to: target)
    }

    private static func convert(_ samples: [UInt16], channels: Int, from space: RGBColorSpace, to target: RGBColorSpace) -> [UInt16] {
        var out = samples
        let decode = ToneTable.decoding(space.transfer), encode = ToneTable.encoding(target.transfer)
        let matrix = space.linear == target.linear ? nil : ColorMatrix3.between(space.linear, target.linear)
        let pixels = samples.count / channels
        let bands = pixels >= 1 << 16 ? ProcessInfo.processInfo.activeProcessorCount : 1
        let band = (pixels + bands - 1) / bands
        samples.withUnsafeBufferPointer { src in
            decode.withUnsafeBufferPointer { dec in
                encode.withUnsafeBufferPointer { enc in
                    out.withUnsafeMutableBufferPointer { dst in
                        let (s, d, de, en) = (Shared(src), Shared(dst), Shared(dec), Shared(enc))
                        DispatchQueue.concurrentPerform(iterations: bands) { index in
                            let start = index * band * channels, end = min(pixels, (index + 1) * band) * channels
                            guard start < end else { return }
                            convert(s.pointer, d.pointer, start..<end, channels: channels, decode: de.pointer, encode: en.pointer, matrix: matrix)
                        }
                    }
                }
            }
        }
        return out
    }

    private static func convert(_ src: UnsafeBufferPointer<UInt16>, _ dst: UnsafeMutableBufferPointer<UInt16>, _ range: Range<Int>,
                                channels: Int, decode: UnsafeBufferPointer<UInt16>, encode: UnsafeBufferPointer<UInt16>,
                                matrix: ColorMatrix3?) {
        guard let m = matrix?.m else {
            for i in stride(from: range.lowerBound, to: range.upperBound, by: channels) {
                for c in 0..<3 { dst[i + c] = encode[Int(decode[Int(src[i + c])])] }
            }
            return
        }
        for i in stride(from: range.lowerBound, to: range.upperBound, by: channels) {
            let r = Float(decode[Int(src[i])]), g = Float(decode[Int(src[i + 1])]), b = Float(decode[Int(src[i + 2])])
            dst[i] = encode[ColorMatrix3.index(m[0] * r + m[1] * g + m[2] * b)]
            dst[i + 1] = encode[ColorMatrix3.index(m[3] * r + m[4] * g + m[5] * b)]
            dst[i + 2] = encode[ColorMatrix3.index(m[6] * r + m[7] * g + m[8] * b)]
        }
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

/// A buffer pointer handed to the bands of a `concurrentPerform`, each of which touches only its
/// own range.
struct Shared<Pointer>: @unchecked Sendable {
    let pointer: Pointer
    init(_ pointer: Pointer) { self.pointer = pointer }
}

extension RGBPicture {
    /// The picture with `mask` applied: each pixel scaled by the mask's coverage (black where
    /// the mask keeps nothing). Meant for linear light, where a half-covered edge pixel is half
    /// its light.
    public func masked(_ mask: PhotoMask) -> RGBPicture {
        guard mask != .none else { return self }
        var out = self
        let (width, height) = (self.width, self.height)
        out.samples.withUnsafeMutableBufferPointer { px in
            for y in 0..<height {
                for x in 0..<width {
                    let keep = mask.coverage(x: x, y: y, width: width, height: height)
                    guard keep < 1 else { continue }
                    let i = (y * width + x) * 3
                    for c in 0..<3 { px[i + c] = UInt16((Double(px[i + c]) * keep).rounded()) }
                }
            }
        }
        return out
    }
}
