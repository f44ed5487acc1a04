import Foundation
import ReelCore
import ReelImage
import ReelRuntime
import ReelStore

/// The overlay camera's artwork library (docs/behaviour.md §4: "import … one image at a time,
/// straight into the asset library"): files in the library's asset folder, records in the
/// library.
///
/// An import copies the file in first (durably, under a name made from a new id), then reads
/// the copy as artwork: what is checked is what is kept. Only then is it recorded; any failure
/// removes the copy, so the folder never holds a file the library does not know — except after
/// a crash between the two steps, which leaves an unrecorded file that nothing lists.
public struct OverlayAssetShelf {
    /// Why an image was not imported, or an asset not found.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The file cannot be read, or is not a regular file.
        case unreadable(path: String, reason: String)
        /// Bigger than ``maxFileBytes``.
        case tooBig(path: String, bytes: Int)
        /// The asset's file has gone from the folder.
        case missingFile(name: String, path: String)

        public var description: String {
            switch self {
            case let .unreadable(path, reason): "cannot import \(path): \(reason)"
            case let .tooBig(path, bytes):
                "\(path) is \(bytes / 1_048_576) MiB; an artwork file may be at most \(OverlayAssetShelf.maxFileBytes / 1_048_576) MiB"
            case let .missingFile(name, path):
                "the file of asset '\(name)' is gone (\(path)); remove the asset (reel overlay rm) and import it again"
            }
        }
    }

    /// The largest file accepted.
    public static let maxFileBytes = 64 * 1_048_576

    /// The library the records are in.
    public let library: StudyLibrary

    /// The shelf of `library`.
    public init(library: StudyLibrary) {
        self.library = library
    }

    /// Where the files are.
    public var folder: String { library.overlayAssetFolder }

    /// Every asset, oldest first.
    public func assets() throws -> [OverlayAsset] { try library.overlayAssets() }

    /// The file of `asset`.
    public func path(of asset: OverlayAsset) -> String { (folder as NSString).appendingPathComponent(asset.fileName) }

    /// The asset `reference` names (its name or the start of its id) and its file, which must exist.
    public func find(_ reference: String) throws -> (asset: OverlayAsset, path: String) {
        let asset = try library.overlayAsset(reference)
        let file = path(of: asset)
        guard FileManager.default.fileExists(atPath: file) else { throw Error.missingFile(name: asset.name, path: file) }
        return (asset, file)
    }

    /// Imports the image at `source` (PNG, JPEG, HEIC or TIFF) as a new asset named `name` (or
    /// after the file).
    @discardableResult
    public func importImage(at source: String, name: String? = nil, origin: OverlayAsset.Origin = .imported,
                            now: Date = Date()) throws -> OverlayAsset {
        try importImage(Self.readImage(at: source), from: source, name: name, origin: origin, now: now)
    }

    /// Imports `data`, the bytes ``readImage(at:)`` read from `source`, as a new asset named
    /// `name` (or after the file).
    @discardableResult
    public func importImage(_ data: Data, from source: String, name: String? = nil, origin: OverlayAsset.Origin = .imported,
                            now: Date = Date()) throws -> OverlayAsset {
        try add(data, extension: (source as NSString).pathExtension,
                name: name.flatMap(OverlayAsset.cleanName) ?? OverlayAsset.name(fromFile: source), source: source,
                origin: origin, now: now)
    }

    /// Adds the image file `data` (a cut-out made in memory, or an import's bytes) as a new
    /// asset named `name` — or, when an asset has that name, the first free "name 2", "name 3"
    /// (``OverlayAsset/freeName(_:taken:)``); `source` names it in errors.
    @discardableResult
    public func add(_ data: Data, extension ext: String, name: String, source: String, origin: OverlayAsset.Origin,
                    now: Date = Date()) throws -> OverlayAsset {
        let taken = Set(try assets().map(\.name))
        let name = OverlayAsset.freeName(OverlayAsset.cleanName(name) ?? "artwork", taken: taken)
        let id = UUID()
        let fileName = OverlayAsset.fileName(id: id, extension: ext)
        let kept = (folder as NSString).appendingPathComponent(fileName)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try DurableFile.write(data, to: kept, ifExists: .fail)
        do {
            let art = try Artwork(imageAt: kept)
            let asset = OverlayAsset(id: id, name: name, fileName: fileName, width: art.width, height: art.height, hasAlpha: art.hasAlpha,
                                     format: art.fileFormat, profile: art.sourceProfile, origin: origin, bytes: data.count, addedAt: now)
            try library.addOverlayAsset(asset)
            return asset
        } catch let error as Artwork.Error {
            try? FileManager.default.removeItem(atPath: kept)
            throw Self.naming(error, source: source, copy: kept)
        } catch {
            try? FileManager.default.removeItem(atPath: kept)
            throw error
        }
    }

    /// Removes the asset `reference` names: its record, then its file.
    @discardableResult
    public func remove(_ reference: String) throws -> OverlayAsset {
        let asset = try library.overlayAsset(reference)
        try library.removeOverlayAsset(asset)
        let file = path(of: asset)
        if FileManager.default.fileExists(atPath: file) { try FileManager.default.removeItem(atPath: file) }
        return asset
    }

    /// The bytes of the image file at `source`: a regular file of at most ``maxFileBytes``.
    /// An import reads them before it opens the library, so a missing file creates nothing.
    public static func readImage(at source: String) throws -> Data {
        var info = stat()
        guard stat(source, &info) == 0 else {
            throw Error.unreadable(path: source, reason: String(cString: strerror(errno)))
        }
        guard info.st_mode & S_IFMT == S_IFREG else { throw Error.unreadable(path: source, reason: "not a regular file") }
        guard Int(info.st_size) <= Self.maxFileBytes else { throw Error.tooBig(path: source, bytes: Int(info.st_size)) }
        guard let handle = FileHandle(forReadingAtPath: source) else {
            throw Error.unreadable(path: source, reason: "permission denied")
        }
        defer { try? handle.close() }
        // One byte past the bound: a file that grew since stat() is refused, not cut.
        let data = try handle.read(upToCount: Self.maxFileBytes + 1) ?? Data()
        guard data.count <= Self.maxFileBytes else { throw Error.tooBig(path: source, bytes: data.count) }
        return data
    }

    /// The artwork error with the user's path in it rather than the copy's.
    private static func naming(_ error: Artwork.Error, source: String, copy: String) -> Artwork.Error {
        switch error {
        case let .unreadable(_, reason): .unreadable(path: source, reason: reason)
        case let .notAnImage(_, reason): .notAnImage(path: source, reason: reason)
        case let .tooLarge(_, width, height): .tooLarge(path: source, width: width, height: height)
        case let .profile(profileError, libpng):
            switch profileError {
            case .broken: .profile(.broken(source: (source as NSString).lastPathComponent), libpng: libpng)
            case let .notRGB(_, space): .profile(.notRGB(source: (source as NSString).lastPathComponent, space: space), libpng: libpng)
            }
        }
    }
}
