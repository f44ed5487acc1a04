import CImage
import Foundation

/// An image file as it stores its colours: 16-bit RGBA code values (straight alpha), upright,
/// and its colour profile. ``Artwork`` converts it for compositing; a cut-out keeps it as it is.
public struct DecodedImage: Sendable {
    /// Width in pixels, upright.
    public let width: Int
    /// Height in pixels, upright.
    public let height: Int
    /// `width * height * 4` samples: R, G, B, A code values, 0…65535 (8-bit files × 257).
    public let samples: [UInt16]
    /// The colour profile the values are in (sRGB when the file names none).
    public let profile: ColorProfile
    /// The profile's ICC bytes as the file carried them; nil when Reel chose the profile.
    public let embeddedICC: [UInt8]?
    /// The space, when Reel chose the profile (a file that names none, or a HEIC's nclx P3).
    public let knownSpace: RGBColorSpace?
    /// "PNG", "JPEG", "HEIC" or "TIFF".
    public let format: String
    /// Bits per sample in the file.
    public let bitDepth: Int
    /// Whether the file has transparency.
    public let hasAlpha: Bool

    /// Reads a PNG, JPEG (turned upright by its EXIF orientation), HEIC or TIFF, known by its
    /// first bytes, refusing one larger than `maxSide` a side or `maxPixels` in all from its
    /// header, before its pixels are decoded.
    public init(path: String, maxSide: Int = Artwork.maxSide, maxPixels: Int = Artwork.maxPixels) throws(Artwork.Error) {
        var picture = reel_picture()
        var message = [CChar](repeating: 0, count: 256)
        let status = reel_image_read(path, UInt32(maxSide), UInt64(maxPixels), &picture, &message)
        defer { reel_picture_free(&picture) }
        let reason = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch status {
        case 0: break
        case 2:
            let size = reason.split(separator: " ").first?.split(separator: "x").compactMap { Int($0) } ?? []
            throw .tooLarge(path: path, width: size.first ?? 0, height: size.last ?? 0)
        case 3: throw .unreadable(path: path, reason: reason)
        default: throw .notAnImage(path: path, reason: reason)
        }
        let name = (path as NSString).lastPathComponent
        if picture.icc_rejected != 0 { throw .profile(.broken(source: name), libpng: reason) }
        if picture.icc_length > 0 {
            let icc = [UInt8](UnsafeBufferPointer(start: picture.icc, count: picture.icc_length))
            do { profile = try ColorProfile(icc: icc, source: name) } catch { throw .profile(error, libpng: nil) }
            embeddedICC = icc
            knownSpace = nil
        } else {
            let space: RGBColorSpace = picture.display_p3 != 0 ? .displayP3 : .sRGB
            profile = ColorProfile.shared(space)
            embeddedICC = nil
            knownSpace = space
        }
        width = Int(picture.width)
        height = Int(picture.height)
        samples = [UInt16](UnsafeBufferPointer(start: picture.pixels, count: width * height * 4))
        format = String(cString: picture.format)
        bitDepth = Int(picture.bit_depth)
        hasAlpha = picture.has_alpha != 0
    }

    /// A decoded image from its parts (tests, made pictures).
    public init(width: Int, height: Int, samples: [UInt16], profile: ColorProfile, format: String = "", bitDepth: Int = 16,
                hasAlpha: Bool = true) {
        precondition(width > 0 && height > 0 && samples.count == width * height * 4)
        self.width = width
        self.height = height
        self.samples = samples
        self.profile = profile
        embeddedICC = nil
        knownSpace = nil
        self.format = format
        self.bitDepth = bitDepth
        self.hasAlpha = hasAlpha
    }

    /// The ICC bytes to write with these values: the file's own, or Reel's for the profile chosen.
    public var iccForWriting: [UInt8] { embeddedICC ?? profile.iccData }
}

/// Writes RGBA PNGs with an ICC profile (cut-outs).
public enum PNGWriter {
    /// libpng refused.
    public struct Error: Swift.Error, CustomStringConvertible, Sendable {
        /// libpng's words.
        public var reason: String
        public var description: String { "could not encode the PNG: \(reason)" }
    }

    /// A PNG of `samples` (RGBA code values, straight alpha) at `bitDepth` 8 (rounded) or 16,
    /// with `icc` in an iCCP chunk (none when empty).
    public static func encode(width: Int, height: Int, samples: [UInt16], bitDepth: Int, icc: [UInt8]) throws(Error) -> Data {
        precondition(samples.count == width * height * 4 && (bitDepth == 8 || bitDepth == 16))
        var buffer = reel_buffer()
        defer { reel_buffer_free(&buffer) }
        var message = [CChar](repeating: 0, count: 256)
        let status = samples.withUnsafeBufferPointer { px in
            reel_png_write_rgba(px.baseAddress, UInt32(width), UInt32(height), Int32(bitDepth), icc, icc.count, &buffer, &message)
        }
        guard status == 0, let data = buffer.data else {
            throw Error(reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Data(bytes: data, count: buffer.length)
    }
}

extension DecodedImage {
    /// The picture reduced by whole-pixel box averages of its code values to at most `maxSide`
    /// on its long side: RGBA, 16 bits, in its own space (the factor is the smallest whole
    /// number that fits; 1 leaves it as it is).
    public func boxReduced(maxSide: Int) -> (width: Int, height: Int, samples: [UInt16]) {
        let factor = max(1, (max(width, height) + maxSide - 1) / max(1, maxSide))
        if factor == 1 { return (width, height, samples) }
        let (w, h, pw) = (max(1, width / factor), max(1, height / factor), width)
        var rgba = [UInt16](repeating: 0, count: w * h * 4)
        samples.withUnsafeBufferPointer { src in
            rgba.withUnsafeMutableBufferPointer { dst in
                let n = factor * factor
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = (0, 0, 0, 0)
                        for dy in 0..<factor {
                            var i = ((y * factor + dy) * pw + x * factor) * 4
                            for _ in 0..<factor {
                                sum = (sum.0 + Int(src[i]), sum.1 + Int(src[i + 1]), sum.2 + Int(src[i + 2]), sum.3 + Int(src[i + 3]))
                                i += 4
                            }
                        }
                        let o = (y * w + x) * 4
                        dst[o] = UInt16((sum.0 + n / 2) / n); dst[o + 1] = UInt16((sum.1 + n / 2) / n)
                        dst[o + 2] = UInt16((sum.2 + n / 2) / n); dst[o + 3] = UInt16((sum.3 + n / 2) / n)
                    }
                }
            }
        }
        return (w, h, rgba)
    }

    /// The picture in 16-bit sRGB, reduced as ``boxReduced(maxSide:)`` reduces it, alpha
    /// dropped: what a browser is shown of a photo (the gallery), converted from its own profile
    /// (Reel's spaces by their curves and matrix, any other through lcms2).
    public func reducedSRGB(maxSide: Int) -> RGBPicture {
        let (w, h, rgba) = boxReduced(maxSide: maxSide)
        var converted: [UInt16]
        if let space = knownSpace {
            converted = RGBPicture.convertRGBA(rgba, from: space, to: .sRGB)
        } else {
            converted = rgba
            let transform = ColorTransform(from: profile, .rgba16, to: ColorProfile.shared(.sRGB), .rgba16)!
            rgba.withUnsafeBytes { src in converted.withUnsafeMutableBytes { transform.apply(src.baseAddress!, $0.baseAddress!, pixels: w * h) } }
        }
        var rgb = [UInt16](repeating: 0, count: w * h * 3)
        for i in 0..<(w * h) { (rgb[i * 3], rgb[i * 3 + 1], rgb[i * 3 + 2]) = (converted[i * 4], converted[i * 4 + 1], converted[i * 4 + 2]) }
        return RGBPicture(width: w, height: h, samples: rgb, space: .sRGB)
    }
}
