import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelRuntime

/// What `reel overlay snap` is asked to do.
public struct OverlaySnapSettings: Sendable {
    /// The camera, file or test pattern.
    public var source: SourceSpec
    /// The photo's shape: portrait, landscape, or the source's own (auto).
    public var frame: OverlayFrameShape
    /// The artwork (a PNG with alpha, or a JPEG, HEIC or TIFF), or nil for a plain photo.
    public var artPath: String?
    /// How the photo is made from the picture: crop, placement, mask, orientation, format,
    /// quality and the software tag.
    public var recipe: OverlayPhotoRecipe
    /// The photo's path.
    public var outputPath: String
    /// Replace a file already at `outputPath` (otherwise it is an error).
    public var replace: Bool
    /// Opens the source (``CaptureSources/open(_:realTime:)`` unless a test says otherwise).
    public var openSource: @Sendable (SourceSpec) throws -> any CaptureSource

    /// Settings for a photo of `source` written to `outputPath` as `format`, in the source's own
    /// shape unless `frame` says otherwise.
    public init(source: SourceSpec, frame: OverlayFrameShape = .auto, artPath: String? = nil, placement: OverlayPlacement = .default,
                crop: PhotoCropSpec = .whole, mask: PhotoMask = .none, orientation: DeviceOrientation = .upright, format: StillFormat,
                quality: Int = StillEncoder.defaultQuality, outputPath: String, replace: Bool = false,
                software: String = "reel",
                openSource: @escaping @Sendable (SourceSpec) throws -> any CaptureSource = { try CaptureSources.open($0) }) {
        self.source = source
        self.frame = frame
        self.artPath = artPath
        recipe = OverlayPhotoRecipe(placement: placement, crop: crop, mask: mask, orientation: orientation, format: format,
                                    quality: quality, software: software)
        self.outputPath = outputPath
        self.replace = replace
        self.openSource = openSource
    }
}

/// How a photo is made from a picture already in the frame's shape: the crop, the artwork's placement, the mask,
/// and what the file says. `reel overlay snap` and the studio's shutter share it.
public struct OverlayPhotoRecipe: Sendable, Equatable {
    public var placement: OverlayPlacement
    public var crop: PhotoCropSpec
    public var mask: PhotoMask
    public var orientation: DeviceOrientation
    public var format: StillFormat
    public var quality: Int
    /// The software tag, e.g. "reel 0.13.0".
    public var software: String

    public init(placement: OverlayPlacement = .default, crop: PhotoCropSpec = .whole, mask: PhotoMask = .none,
                orientation: DeviceOrientation = .upright, format: StillFormat, quality: Int = StillEncoder.defaultQuality,
                software: String = "reel") {
        self.placement = placement
        self.crop = crop
        self.mask = mask
        self.orientation = orientation
        self.format = format
        self.quality = quality
        self.software = software
    }

    /// Throws when a setting is out of range.
    public func validate() throws(OverlaySnap.Error) {
        do {
            try placement.validate()
            try crop.validate()
        } catch {
            throw .settings(String(describing: error))
        }
        guard (1...100).contains(quality) else { throw .settings("quality \(quality) is outside 1…100") }
    }
}

/// One photo with artwork burned in (docs/behaviour.md §4): the source's next picture, given
/// the frame's shape (``ReelMedia/PortraitSource``, ``ReelCore/OverlayFrameShape``), cropped to what the preview shows, the artwork laid
/// over it in linear Display P3 by the placement's transform, encoded with its profile and
/// EXIF, placed durably. One frame, no multi-frame fusion: the shutter is the next frame.
public enum OverlaySnap {
    /// Why no photo was saved.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// A setting is out of range.
        case settings(String)
        /// The source ended (or was stopped) before it gave a picture.
        case noPicture(source: String)
        /// The source failed (a camera that went away).
        case source(String)
        /// The photo could not be written; nothing was left at the path.
        case write(String)

        public var description: String {
            switch self {
            case let .settings(reason): reason
            case let .noPicture(source): "\(source) gave no picture to take; check that the camera is on, or that the file has video"
            case let .source(reason): "the photo was not taken: \(reason)"
            case let .write(reason): "the photo was not saved: \(reason)"
            }
        }
    }

    /// What was saved, and what each step cost.
    public struct Report: Sendable {
        /// Where.
        public var path: String
        /// The photo's size in pixels (stored in the frame's shape; the EXIF orientation turns it for viewing).
        public var size: VideoDimensions
        /// The file's size.
        public var bytes: Int
        /// The source, as it names itself.
        public var camera: String
        /// Seconds from opening the source to holding the picture.
        public var captureSeconds: Double
        /// Seconds to convert, turn, crop and composite.
        public var compositeSeconds: Double
        /// Seconds to encode.
        public var encodeSeconds: Double
        /// Seconds to write and sync.
        public var writeSeconds: Double
    }

    /// Takes the photo.
    public static func run(_ settings: OverlaySnapSettings, now: () -> Date = Date.init) throws -> Report {
        let art = try prepare(settings)
        var clock = Stopwatch()
        let (frame, camera) = try capture(settings)
        let captureSeconds = clock.lap()
        let photo = try self.photo(of: frame, camera: camera, art: art, recipe: settings.recipe, date: now())
        clock = Stopwatch()
        do {
            try DurableFile.write(photo.data, to: settings.outputPath, ifExists: settings.replace ? .replace : .fail)
        } catch {
            throw Error.write(String(describing: error))
        }
        return Report(path: settings.outputPath, size: photo.size, bytes: photo.data.count, camera: camera,
                      captureSeconds: captureSeconds, compositeSeconds: photo.compositeSeconds,
                      encodeSeconds: photo.encodeSeconds, writeSeconds: clock.lap())
    }

    /// A photo made, not yet written.
    public struct Photo: Sendable {
        /// The encoded file.
        public var data: Data
        /// Its size in pixels (stored in the frame's shape).
        public var size: VideoDimensions
        /// Seconds to convert, crop, composite and mask.
        public var compositeSeconds: Double
        /// Seconds to encode.
        public var encodeSeconds: Double
    }

    /// The photo of a `frame` (already in the frame's shape) by `recipe`, taken at `date` with `camera`.
    public static func photo(of frame: VideoFrame, camera: String, art: Artwork?, recipe: OverlayPhotoRecipe, date: Date) throws -> Photo {
        try recipe.validate()
        var clock = Stopwatch()
        let picture = try compose(frame, art: art, recipe: recipe)
        let compositeSeconds = clock.lap()
        let metadata = StillMetadata(orientation: recipe.orientation, date: date, camera: camera, software: recipe.software)
        let data = try StillEncoder.encode(picture, as: recipe.format, metadata: metadata, quality: recipe.quality)
        return Photo(data: data, size: picture.size, compositeSeconds: compositeSeconds, encodeSeconds: clock.lap())
    }

    /// Checks the settings and reads the artwork, before any camera is opened.
    static func prepare(_ settings: OverlaySnapSettings) throws -> Artwork? {
        try settings.recipe.validate()
        if let art = settings.artPath, SameFile.refers(settings.outputPath, to: art) {
            throw Error.settings("-o \(settings.outputPath) is the artwork (\(art)): writing there would replace it; choose another -o")
        }
        if !settings.replace, FileManager.default.fileExists(atPath: settings.outputPath) {
            throw Error.write("\(settings.outputPath) already exists (choose another name, or replace it)")
        }
        return try settings.artPath.map { try Artwork(imageAt: $0) }
    }

    /// The source's first picture, and the source's name.
    static func capture(_ settings: OverlaySnapSettings) throws -> (VideoFrame, String) {
        // In the frame's shape before anything sees a picture (docs/behaviour.md §4), as the
        // overlay camera's preview will.
        let source: any CaptureSource
        do { source = PortraitSource(try settings.openSource(settings.source), shape: settings.frame) } catch { throw Error.source(String(describing: error)) }
        var picture: VideoFrame?
        do {
            try source.run { sample in
                guard picture == nil, case let .video(frame) = sample else { return }
                picture = frame
                source.stop()
            }
        } catch {
            throw Error.source(String(describing: error))
        }
        guard let picture else { throw Error.noPicture(source: source.name) }
        return (picture, source.name)
    }

    /// The picture cropped, with the artwork laid over it (linear Display P3), masked.
    static func compose(_ frame: VideoFrame, art: Artwork?, recipe: OverlayPhotoRecipe) throws -> RGBPicture {
        let samples: [UInt16]
        do { samples = try frame.rgb48() } catch { throw Error.source(String(describing: error)) }
        let picture = RGBPicture(width: frame.width, height: frame.height, samples: samples, space: .sRGB)
        let shown = picture.cropped(to: recipe.crop.pixels(of: picture.size))
        let transform = art.map { recipe.placement.transform(art: $0.size, preview: shown.size) } ?? .identity
        return OverlayCompositor.composite(camera: shown, art: art, transform: transform).masked(recipe.mask)
    }
}

/// Seconds between laps on the monotonic clock.
private struct Stopwatch {
    private var last = DispatchTime.now().uptimeNanoseconds

    mutating func lap() -> Double {
        let now = DispatchTime.now().uptimeNanoseconds
        defer { last = now }
        return Double(now - last) / 1e9
    }
}
