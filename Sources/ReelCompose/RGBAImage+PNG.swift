import CPNG
import Foundation

extension RGBAImage {
    /// A PNG that cannot be read or written.
    public enum PNGError: Swift.Error, CustomStringConvertible, Equatable {
        /// The file does not exist or cannot be opened.
        case unreadable(path: String, reason: String)
        /// libpng rejected the file (not a PNG, truncated, corrupt).
        case notAPNG(path: String, reason: String)
        /// The image is larger than Reel accepts for artwork.
        case tooLarge(path: String, width: Int, height: Int)
        /// The file could not be written.
        case unwritable(path: String, reason: String)

        /// What went wrong and what to do about it.
        public var description: String {
            switch self {
            case let .unreadable(path, reason): "cannot read image \(path): \(reason)"
            case let .notAPNG(path, reason): "\(path) is not a readable PNG (\(reason)); stamps and watermarks must be PNG files"
            case let .tooLarge(path, width, height):
                "\(path) is \(width)x\(height) pixels; artwork may be at most \(RGBAImage.maxArtworkSide) pixels on a side, scale it down"
            case let .unwritable(path, reason): "cannot write PNG \(path): \(reason)"
            }
        }
    }

    /// The largest width or height accepted for a stamp or watermark.
    public static let maxArtworkSide = 8192

    /// Reads a PNG of any colour type and bit depth (grey, palette, RGB, with or without
    /// alpha or tRNS, 16-bit) as 8-bit straight-alpha RGBA, sRGB-encoded. A 16-bit file without
    /// gamma information is taken as sRGB-encoded, as image editors mean it (libpng would
    /// otherwise assume linear light and brighten it).
    public init(pngAt path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw PNGError.unreadable(path: path, reason: FileManager.default.fileExists(atPath: path) ? "permission denied" : "no such file")
        }
        var image = png_image()
        image.version = reel_png_image_version()
        guard png_image_begin_read_from_file(&image, path) != 0 else {
            let reason = Self.message(of: &image)
            png_image_free(&image)
            throw PNGError.notAPNG(path: path, reason: reason)
        }
        let width = Int(image.width), height = Int(image.height)
        guard width <= Self.maxArtworkSide, height <= Self.maxArtworkSide else {
            png_image_free(&image)
            throw PNGError.tooLarge(path: path, width: width, height: height)
        }
        image.format = reel_png_format_rgba()
        image.flags |= reel_png_image_flag_16bit_srgb()  // read by finish_read; begin_read clears flags
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let ok = pixels.withUnsafeMutableBytes { buffer in
            png_image_finish_read(&image, nil, buffer.baseAddress, png_int_32(width * 4), nil)
        }
        guard ok != 0 else {
            let reason = Self.message(of: &image)
            png_image_free(&image)
            throw PNGError.notAPNG(path: path, reason: reason)
        }
        png_image_free(&image)
        self.init(width: width, height: height, pixels: pixels)
    }

    /// Writes the image as an 8-bit RGBA PNG.
    public func writePNG(to path: String) throws {
        var image = png_image()
        image.version = reel_png_image_version()
        image.width = png_uint_32(width)
        image.height = png_uint_32(height)
        image.format = reel_png_format_rgba()
        let ok = pixels.withUnsafeBytes { buffer in
            png_image_write_to_file(&image, path, 0, buffer.baseAddress, png_int_32(width * 4), nil)
        }
        guard ok != 0 else {
            let reason = Self.message(of: &image)
            png_image_free(&image)
            throw PNGError.unwritable(path: path, reason: reason)
        }
    }

    private static func message(of image: inout png_image) -> String {
        withUnsafeBytes(of: &image.message) { raw in
            let bytes = raw.prefix { $0 != 0 }
            return String(decoding: bytes, as: UTF8.self)
        }
    }
}
