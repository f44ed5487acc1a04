import Foundation
import ReelCore
import ReelImage
import ReelRuntime

/// The overlay camera's photos (the studio's gallery): one folder, each photo named by
/// ``ReelCore/OverlayPhotoName`` from the time it was taken, written whole or not at all
/// (``ReelRuntime/DurableFile``), never over another photo. Only names of that form are
/// listed or opened, so nothing else in the folder, and nothing outside it, is reachable.
public struct OverlayGallery: Sendable {
    /// One photo.
    public struct Entry: Sendable, Equatable, Codable {
        /// The file's name in the folder.
        public var name: String
        /// HEIC, JPEG or TIFF.
        public var format: StillFormat
        /// The file's size.
        public var bytes: Int
        /// When the file was written (seconds since 1970).
        public var modified: Double
    }

    /// Why a photo could not be saved or read.
    public enum Error: Swift.Error, CustomStringConvertible {
        case notFound(String)
        case write(String)
        /// The disk (or the quota) is full; nothing was kept.
        case noSpace(String)
        case read(name: String, reason: String)

        public var description: String {
            switch self {
            case let .notFound(name): "no photo \(name) in the gallery"
            case let .write(reason), let .noSpace(reason): "the photo was not saved: \(reason)"
            case let .read(name, reason): "the photo \(name) cannot be read: \(reason)"
            }
        }
    }

    /// The folder (made on the first save).
    public let folder: String

    public init(folder: String) {
        self.folder = folder
    }

    /// Every photo, newest first (by name, which is by time within a format).
    public func entries() -> [Entry] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.compactMap { name -> Entry? in
            guard let format = OverlayPhotoName.format(of: name),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: path(of: name)),
                  attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
            return Entry(name: name, format: format, bytes: (attributes[.size] as? Int) ?? 0,
                         modified: (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0)
        }
        .sorted { ($0.modified, $0.name) > ($1.modified, $1.name) }
    }

    /// The path of the photo `name`, which must be a photo's name.
    public func path(of name: String) -> String {
        precondition(OverlayPhotoName.isValid(name), "not a photo's name: \(name)")
        return (folder as NSString).appendingPathComponent(name)
    }

    /// The path of an existing photo `name`.
    public func existing(_ name: String) throws(Error) -> String {
        guard OverlayPhotoName.isValid(name) else { throw .notFound(name) }
        let path = path(of: name)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { throw .notFound(name) }
        return path
    }

    /// Saves `data` as a new photo in `format` taken at `date`; its entry. A name taken (two
    /// photos in one second, or another writer) is never replaced: the next number is used.
    public func save(_ data: Data, format: StillFormat, date: Date) throws(Error) -> Entry {
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw .write("cannot make the gallery folder \(folder): \(error.localizedDescription)")
        }
        let stamp = Self.stamp(date)
        for _ in 0..<5 {
            let name = OverlayPhotoName.name(stamp: stamp, format: format) { FileManager.default.fileExists(atPath: path(of: $0)) }
            do {
                try DurableFile.write(data, to: path(of: name), ifExists: .fail)
                return Entry(name: name, format: format, bytes: data.count, modified: Date().timeIntervalSince1970)
            } catch {
                // Taken between the look and the write: try the next name; anything else is final.
                if FileManager.default.fileExists(atPath: path(of: name)) { continue }
                throw error.isNoSpace ? .noSpace(error.description) : .write(error.description)
            }
        }
        throw .write("no free name for a photo taken at \(stamp)")
    }

    /// A JPEG of the photo `name` that a browser can show: upright, sRGB, at most `maxSide`
    /// pixels on its long side.
    public func view(_ name: String, maxSide: Int = 1280) throws -> Data {
        let path = try existing(name)
        let image: DecodedImage
        do { image = try DecodedImage(path: path) } catch { throw Error.read(name: name, reason: String(describing: error)) }
        let picture = image.reducedSRGB(maxSide: maxSide)
        return try StillEncoder.encode(picture, as: .jpeg, metadata: StillMetadata(date: Date(), camera: "", software: ""), quality: 85)
    }

    /// `YYYYMMDD-HHMMSS` of `date` in local time.
    static func stamp(_ date: Date) -> String {
        let c = Calendar.current.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        func two(_ n: Int?) -> String { String(format: "%02d", n ?? 0) }
        return String(format: "%04d", c.year ?? 0) + two(c.month) + two(c.day) + "-" + two(c.hour) + two(c.minute) + two(c.second)
    }
}
