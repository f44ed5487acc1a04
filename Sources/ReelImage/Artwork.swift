import Foundation
import ReelCore

/// Artwork to lay over the picture: premultiplied linear Display P3, 16 bits per sample, read
/// from a PNG, JPEG, HEIC or TIFF with its own ICC profile (sRGB when it has none) and alpha.
public struct Artwork: Sendable {
    /// An image that cannot be used as artwork.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The file cannot be opened.
        case unreadable(path: String, reason: String)
        /// It is not an image Reel can read.
        case notAnImage(path: String, reason: String)
        /// It is bigger than ``maxSide`` or ``maxPixels``.
        case tooLarge(path: String, width: Int, height: Int)
        /// Its colour profile is broken or not RGB.
        case profile(ColorProfile.Error, libpng: String?)

        public var description: String {
            switch self {
            case let .unreadable(path, reason): "cannot open artwork \(path): \(reason)"
            case let .notAnImage(path, reason):
                "\(path) is not an image Reel can read (\(reason)); artwork must be a PNG (with alpha), JPEG, HEIC or TIFF"
            case let .tooLarge(path, width, height):
                "\(path) is \(width)x\(height) pixels; artwork may be at most \(Artwork.maxSide) pixels a side and \(Artwork.maxPixels / 1_000_000) million pixels in all: scale it down"
            case let .profile(error, libpng): error.description + (libpng.map { " (libpng: \($0))" } ?? "")
            }
        }
    }

    /// The widest or tallest artwork accepted.
    public static let maxSide = 8192
    /// The most pixels accepted (at 8 bytes a pixel once decoded: 320 MB).
    public static let maxPixels = 40_000_000

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width * height * 4` samples: premultiplied linear Display P3 R, G, B, then alpha.
    public let samples: [UInt16]
    /// The profile the file carried, by its description ("sRGB" when it had none).
    public let sourceProfile: String
    /// What the file was: "PNG", "JPEG", "HEIC" or "TIFF" ("" when made in memory).
    public let fileFormat: String
    /// Whether the file has an alpha channel.
    public let hasAlpha: Bool

    /// Artwork from premultiplied linear Display P3 samples.
    public init(width: Int, height: Int, samples: [UInt16], sourceProfile: String = "Display P3 (linear)",
                fileFormat: String = "", hasAlpha: Bool = true) {
        precondition(width > 0 && height > 0 && samples.count == width * height * 4)
        self.width = width
        self.height = height
        self.samples = samples
        self.sourceProfile = sourceProfile
        self.fileFormat = fileFormat
        self.hasAlpha = hasAlpha
    }

    /// Its size.
    public var size: VideoDimensions { VideoDimensions(width: width, height: height) }

    /// Reads a PNG (any colour type, 8 or 16 bits, with or without alpha), a JPEG (turned
    /// upright by its EXIF orientation), a HEIC (8–12 bits, with alpha when it has one) or a
    /// TIFF (read at 8 bits), converts it from its ICC profile (a HEIC's nclx Display P3; sRGB
    /// when it says nothing) to linear Display P3 with lcms2, and premultiplies. A file too
    /// large is refused from its header, before its pixels are decoded.
    public init(imageAt path: String) throws(Error) {
        self.init(try DecodedImage(path: path))
    }

    /// `image` converted from its profile to linear Display P3 with lcms2, and premultiplied.
    public init(_ image: DecodedImage) {
        let count = image.width * image.height
        var samples: [UInt16]
        if let space = image.knownSpace {
            // One of Reel's own spaces: its curve and matrix (RGBPicture's way), alpha kept.
            samples = RGBPicture.convertRGBA(image.samples, from: space, to: .linearDisplayP3)
        } else {
            samples = [UInt16](repeating: 0, count: count * 4)
            let transform = ColorTransform(from: image.profile, .rgba16, to: ColorProfile.shared(.linearDisplayP3), .rgba16)!
            image.samples.withUnsafeBytes { src in
                samples.withUnsafeMutableBytes { transform.apply(src.baseAddress!, $0.baseAddress!, pixels: count) }
            }
        }
        Self.premultiply(&samples)
        self.init(width: image.width, height: image.height, samples: samples, sourceProfile: image.profile.name,
                  fileFormat: image.format, hasAlpha: image.hasAlpha)
    }

    private static func premultiply(_ samples: inout [UInt16]) {
        samples.withUnsafeMutableBufferPointer { px in
            for i in stride(from: 0, to: px.count, by: 4) {
                let a = UInt32(px[i + 3])
                guard a != 65535 else { continue }
                px[i] = UInt16((UInt32(px[i]) * a + 32767) / 65535)
                px[i + 1] = UInt16((UInt32(px[i + 1]) * a + 32767) / 65535)
                px[i + 2] = UInt16((UInt32(px[i + 2]) * a + 32767) / 65535)
            }
        }
    }
}

extension Artwork {
    /// The artwork as a page shows it: an 8-bit sRGB PNG with straight alpha and the sRGB
    /// profile, at most `maxSide` pixels on its long side (reduced by whole-pixel box averages
    /// of the premultiplied linear samples, so edges stay right). A browser cannot show HEIC or
    /// 16-bit TIFF artwork; this it can, drawn with the same transform the photo is burned in with.
    public func displayPNG(maxSide: Int = 2048) throws(PNGWriter.Error) -> Data {
        let factor = max(1, (max(width, height) + maxSide - 1) / maxSide)
        let (w, h) = (max(1, width / factor), max(1, height / factor))
        var straight = [UInt16](repeating: 0, count: w * h * 4)
        samples.withUnsafeBufferPointer { src in
            straight.withUnsafeMutableBufferPointer { dst in
                for y in 0..<h {
                    for x in 0..<w {
                        var sum = (0, 0, 0, 0)
                        for dy in 0..<factor {
                            var i = ((y * factor + dy) * width + x * factor) * 4
                            for _ in 0..<factor {
                                sum = (sum.0 + Int(src[i]), sum.1 + Int(src[i + 1]), sum.2 + Int(src[i + 2]), sum.3 + Int(src[i + 3]))
                                i += 4
                            }
                        }
                        let o = (y * w + x) * 4
                        let alpha = sum.3
                        dst[o + 3] = UInt16((alpha + factor * factor / 2) / (factor * factor))
                        guard alpha > 0 else { continue }
                        // Un-premultiply: colour sum ÷ alpha sum (the box's average colour where it is opaque).
                        dst[o] = UInt16(min(65535, (sum.0 * 65535 + alpha / 2) / alpha))
                        dst[o + 1] = UInt16(min(65535, (sum.1 * 65535 + alpha / 2) / alpha))
                        dst[o + 2] = UInt16(min(65535, (sum.2 * 65535 + alpha / 2) / alpha))
                    }
                }
            }
        }
        let encoded = RGBPicture.convertRGBA(straight, from: .linearDisplayP3, to: .sRGB)
        return try PNGWriter.encode(width: w, height: h, samples: encoded, bitDepth: 8, icc: ColorProfile.shared(.sRGB).iccData)
    }
}
