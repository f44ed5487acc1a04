import Foundation

/// The overlay camera's business state (docs/behaviour.md §4): which artwork is chosen, where
/// it sits, how the device is held, the format photos are saved in, the filter preset, which
/// of the two previews the shutter takes, and the frame's shape (portrait, landscape or the
/// source's own). The assets themselves are in the library and
/// the photos in the gallery folder; a page's transient state (a drag under way, a handle held)
/// is the page's own and never reaches this.
///
/// Every change goes through ``applying(_:)``, which checks the whole result first: a change
/// that is refused leaves the state as it was.
public struct OverlayCameraState: Sendable, Equatable, Codable {
    /// The two previews of the one capture.
    public enum Preview: String, Sendable, Hashable, Codable, CaseIterable {
        /// The picture in the camera's 3:4 frame (4:3 for a landscape picture).
        case unfiltered
        /// The same picture through the filter preset (``OverlayFilter``).
        case filtered
    }

    /// The unfiltered preview's frame for a portrait picture: 3:4, centred, as a phone camera's photo.
    public static let unfilteredCrop = PhotoCropSpec(aspectWidth: 3, aspectHeight: 4)

    /// The unfiltered preview's frame for a landscape picture: 4:3, centred, as a webcam's photo.
    public static let landscapeCrop = PhotoCropSpec(aspectWidth: 4, aspectHeight: 3)

    /// The chosen artwork (nil: photos without artwork).
    public var assetID: UUID?
    /// Where the artwork sits over the preview the shutter takes.
    public var placement: OverlayPlacement
    /// How the device is held: the EXIF orientation of the photos.
    public var orientation: DeviceOrientation
    /// The format photos are saved in.
    public var format: StillFormat
    /// The filtered preview's preset.
    public var filter: OverlayFilter
    /// The preview the shutter takes (and the artwork is placed over).
    public var preview: Preview
    /// The pictures' shape: portrait, landscape or the source's own (``OverlayFrameShape``).
    public var frame: OverlayFrameShape

    /// Nothing chosen: no artwork, upright, HEIC, the square filter, the unfiltered preview, the
    /// source's own shape.
    public init(assetID: UUID? = nil, placement: OverlayPlacement = .default, orientation: DeviceOrientation = .upright,
                format: StillFormat = .heic, filter: OverlayFilter = .square, preview: Preview = .unfiltered, frame: OverlayFrameShape = .auto) {
        self.frame = frame
        self.assetID = assetID
        self.placement = placement
        self.orientation = orientation
        self.format = format
        self.filter = filter
        self.preview = preview
    }

    /// The region of the picture a preview shows: the unfiltered one follows the picture's shape
    /// (3:4 portrait, 4:3 `landscape`), a filter preset's is its own.
    public static func crop(of preview: Preview, filter: OverlayFilter, landscape: Bool = false) -> PhotoCropSpec {
        preview == .filtered ? filter.crop : landscape ? landscapeCrop : unfilteredCrop
    }

    /// The region the shutter keeps of a portrait picture.
    public var crop: PhotoCropSpec { Self.crop(of: preview, filter: filter) }

    /// The region the shutter keeps of a picture of `size`.
    public func crop(for size: VideoDimensions) -> PhotoCropSpec {
        Self.crop(of: preview, filter: filter, landscape: size.width > size.height)
    }

    /// The mask the shutter lays over it.
    public var mask: PhotoMask { preview == .filtered ? filter.mask : .none }

    /// A change asked for: each field given replaces the state's; `asset` is an id, or "" for
    /// no artwork.
    public struct Change: Sendable, Equatable, Codable {
        public var asset: String?
        public var placement: OverlayPlacement?
        public var orientation: Int?
        public var format: StillFormat?
        public var filter: OverlayFilter?
        public var preview: Preview?
        public var frame: OverlayFrameShape?

        public init(asset: String? = nil, placement: OverlayPlacement? = nil, orientation: Int? = nil, format: StillFormat? = nil,
                    filter: OverlayFilter? = nil, preview: Preview? = nil, frame: OverlayFrameShape? = nil) {
            self.frame = frame
            self.asset = asset
            self.placement = placement
            self.orientation = orientation
            self.format = format
            self.filter = filter
            self.preview = preview
        }
    }

    /// Why a change was refused.
    public enum ChangeError: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        case asset(String)
        case placement(OverlayPlacement.Error)
        case orientation(Int)

        public var description: String {
            switch self {
            case let .asset(text): "asset \"\(text)\" is not an asset id (or \"\" for none)"
            case let .placement(error): error.description
            case let .orientation(degrees): "orientation \(degrees) is not one of 0, 90, -90, 180"
            }
        }
    }

    /// The state with `change` made, all of it checked first. Whether an asset id names an
    /// asset in the library is the caller's to check (it holds the library).
    public func applying(_ change: Change) throws(ChangeError) -> OverlayCameraState {
        var next = self
        if let text = change.asset {
            if text.isEmpty {
                next.assetID = nil
            } else {
                guard let id = UUID(uuidString: text) else { throw .asset(text) }
                next.assetID = id
            }
        }
        if let placement = change.placement {
            do { try placement.validate() } catch { throw .placement(error) }
            next.placement = placement
        }
        if let degrees = change.orientation {
            guard let orientation = DeviceOrientation(degrees: degrees) else { throw .orientation(degrees) }
            next.orientation = orientation
        }
        if let format = change.format { next.format = format }
        if let filter = change.filter { next.filter = filter }
        if let preview = change.preview { next.preview = preview }
        if let frame = change.frame { next.frame = frame }
        return next
    }

    /// The state once the asset `id` is gone from the library: no artwork if it was the chosen one.
    public func forgetting(asset id: UUID) -> OverlayCameraState {
        var next = self
        if next.assetID == id { next.assetID = nil }
        return next
    }
}
