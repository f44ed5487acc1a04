/// What the filtered preview does to the picture (docs/behaviour.md §4: "two previews
/// (unfiltered and filtered) come from one stream"): each preset is a crop of the portrait
/// camera picture, and some add a mask over that crop. A photo taken from the filtered preview
/// is cropped and masked the same way, so it shows what that preview showed.
public enum OverlayFilter: String, Sendable, Hashable, Codable, CaseIterable {
    /// A centred square.
    case square
    /// A centred square seen through a round window; outside it is black.
    case circle
    /// A tall 9:16 frame (a phone's full screen).
    case tall

    /// The region of the portrait picture it keeps.
    public var crop: PhotoCropSpec {
        switch self {
        case .square, .circle: PhotoCropSpec(aspectWidth: 1, aspectHeight: 1)
        case .tall: PhotoCropSpec(aspectWidth: 9, aspectHeight: 16)
        }
    }

    /// The mask laid over that region.
    public var mask: PhotoMask { self == .circle ? .circle : .none }

    /// The name a page shows.
    public var title: String {
        switch self {
        case .square: "Square"
        case .circle: "Circle"
        case .tall: "Tall 9:16"
        }
    }
}

/// A mask over a photo: what of each pixel is kept (the rest is black).
public enum PhotoMask: String, Sendable, Hashable, Codable, CaseIterable {
    /// Everything is kept.
    case none
    /// The circle inscribed in the picture (centred, its diameter the picture's short side),
    /// with a one-pixel soft edge, as a browser draws `clip-path: circle(closest-side)`.
    case circle

    /// How much of the pixel at column `x`, row `y` of a `width` x `height` picture is kept,
    /// 0…1: the distance of the pixel's centre from the circle's edge, clamped to one pixel.
    @inlinable
    public func coverage(x: Int, y: Int, width: Int, height: Int) -> Double {
        guard self == .circle else { return 1 }
        let dx = Double(x) + 0.5 - Double(width) / 2, dy = Double(y) + 0.5 - Double(height) / 2
        let radius = Double(min(width, height)) / 2
        let inside = radius - (dx * dx + dy * dy).squareRoot() + 0.5
        return min(1, max(0, inside))
    }
}
