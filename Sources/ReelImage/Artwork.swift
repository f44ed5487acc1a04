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
