import CImage
import Foundation
import ReelCore

extension StillFormat {
    /// The colour space the photo is written in.
    public var space: RGBColorSpace { self == .jpeg ? .sRGB : .displayP3 }
}

/// What a photo carries besides its pixels.
public struct StillMetadata: Sendable, Equatable {
    /// How the device was held: sets the EXIF orientation (``DeviceOrientation/exifOrientation``).
    public var orientation: DeviceOrientation
    /// When the shutter was pressed (written in local time, as cameras do).
    public var date: Date
    /// The camera, as the source names it.
    public var camera: String
    /// The software, e.g. "reel 0.9".
    public var software: String

    /// Metadata for a photo.
    public init(orientation: DeviceOrientation = .upright, date: Date, camera: String, software: String) {
        self.orientation = orientation
        self.date = date
        self.camera = camera
        self.software = software
    }

    /// EXIF's "YYYY:MM:DD HH:MM:SS" in the local time zone.
    public var exifDate: String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy:MM:dd HH:mm:ss"
        return formatter.string(from: date)
    }
}

/// Encodes a photo in one of the ``StillFormat``s, converted to its space (lcms2) and with that
/// space's ICC profile (made by lcms2) and EXIF embedded. Returns the file's bytes; the caller
/// places them durably.
public enum StillEncoder {
    /// An encoder refused.
    public struct Error: Swift.Error, Sendable, CustomStringConvertible {
        /// The format being written.
        public var format: StillFormat
        /// The library's words.
        public var reason: String
        public var description: String { "could not encode the \(format.rawValue.uppercased()) photo: \(reason)" }
    }

    /// HEIC and JPEG quality (0…100) unless told otherwise.
    public static let defaultQuality = 90

    /// The photo `picture` (any space) as a `format` file.
    public static func encode(_ picture: RGBPicture, as format: StillFormat, metadata: StillMetadata,
                              quality: Int = defaultQuality) throws(Error) -> Data {
        let converted = picture.converted(to: format.space)
        let icc = ColorProfile.shared(format.space).iccData
        var message = [CChar](repeating: 0, count: 256)
        var buffer = reel_buffer()
        defer { reel_buffer_free(&buffer) }
        let status: Int32 = withTags(metadata) { tags in
            switch format {
            case .tiff:
                return converted.samples.withUnsafeBufferPointer { rgb in
                    reel_tiff_write_rgb16(rgb.baseAddress, UInt32(converted.width), UInt32(converted.height),
                                          converted.width * 3, icc, icc.count, tags, &buffer, &message)
                }
            case .jpeg, .heic:
                var exif = reel_buffer()
                defer { reel_buffer_free(&exif) }
                guard reel_exif_build(tags, format == .jpeg ? 1 : 0, &exif, &message) == 0 else { return 1 }
                let rgb = converted.samples8()
                return rgb.withUnsafeBufferPointer { rgb in
                    format == .jpeg
                        ? reel_jpeg_write(rgb.baseAddress, UInt32(converted.width), UInt32(converted.height), converted.width * 3,
                                          Int32(quality), icc, icc.count, exif.data, exif.length, &buffer, &message)
                        : reel_heic_write(rgb.baseAddress, UInt32(converted.width), UInt32(converted.height), converted.width * 3,
                                          Int32(quality), icc, icc.count, exif.data, exif.length,
                                          Int32(metadata.orientation.exifOrientation), &buffer, &message)
                }
            }
        }
        guard status == 0, let data = buffer.data else {
            throw Error(format: format, reason: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        return Data(bytes: data, count: buffer.length)
    }

    private static func withTags<R>(_ metadata: StillMetadata, _ body: (UnsafePointer<reel_still_tags>) -> R) -> R {
        metadata.exifDate.withCString { date in
            metadata.camera.withCString { camera in
                metadata.software.withCString { software in
                    var tags = reel_still_tags(orientation: Int32(metadata.orientation.exifOrientation), date_time: date,
                                               make: nil, model: camera, software: software)
                    return body(&tags)
                }
            }
        }
    }
}
