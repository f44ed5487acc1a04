/// A rectangle of whole pixels.
public struct PixelRect: Sendable, Hashable, CustomStringConvertible {
    /// Left edge.
    public var x: Int
    /// Top edge.
    public var y: Int
    /// Width (> 0).
    public var width: Int
    /// Height (> 0).
    public var height: Int

    /// A rectangle from its top-left corner and size.
    public init(x: Int, y: Int, width: Int, height: Int) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }

    /// Its size.
    public var size: VideoDimensions { VideoDimensions(width: width, height: height) }

    public var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// The region of the (portrait) camera picture that the preview shows, and so the region a
/// photo keeps (docs/behaviour.md §4: "the photo is cropped to what the preview showed").
///
/// The preview fills a frame of ``aspect`` with the camera picture, centred, magnified by
/// ``zoom`` about the centre; whatever falls outside the frame is not shown and is not kept.
public struct PhotoCropSpec: Sendable, Hashable, Codable {
    /// The crop cannot be made.
    public enum Error: Swift.Error, Sendable, Equatable, CustomStringConvertible {
        /// The aspect ratio is not two positive numbers.
        case aspect(width: Int, height: Int)
        /// The zoom is not within ``zoomRange``.
        case zoom(Double)

        public var description: String {
            switch self {
            case let .aspect(width, height): "aspect \(width):\(height) must be two positive whole numbers, like 3:4"
            case let .zoom(value): "zoom \(value) is outside \(PhotoCropSpec.zoomRange.lowerBound)…\(PhotoCropSpec.zoomRange.upperBound)"
            }
        }
    }

    /// Zooms accepted (1: the whole picture fits the frame's short way).
    public static let zoomRange: ClosedRange<Double> = 1...8

    /// The preview frame's width part of its aspect ratio (3 in 3:4); nil: the picture's own.
    public var aspectWidth: Int?
    /// The preview frame's height part (4 in 3:4).
    public var aspectHeight: Int?
    /// Magnification about the centre.
    public var zoom: Double

    /// A crop to a frame of `aspectWidth`:`aspectHeight` (nil: the picture's own shape) at `zoom`.
    public init(aspectWidth: Int? = nil, aspectHeight: Int? = nil, zoom: Double = 1) {
        self.aspectWidth = aspectWidth
        self.aspectHeight = aspectHeight
        self.zoom = zoom
    }

    /// The whole picture.
    public static let whole = PhotoCropSpec()

    /// Throws when the crop cannot be made.
    public func validate() throws(Error) {
        if aspectWidth != nil || aspectHeight != nil {
            let w = aspectWidth ?? 0, h = aspectHeight ?? 0
            guard w > 0, h > 0 else { throw .aspect(width: w, height: h) }
        }
        guard zoom.isFinite, Self.zoomRange.contains(zoom) else { throw .zoom(zoom) }
    }

    /// The region shown, in coordinates of the `picture` (0…1, top-left origin).
    public func region(of picture: VideoDimensions) -> NormalizedRect {
        let target = (aspectWidth.flatMap { w in aspectHeight.map { VideoDimensions(width: w, height: $0) } }) ?? picture
        let fill = NormalizedRect.centreFill(source: picture, target: target)
        let width = fill.width / zoom, height = fill.height / zoom
        return NormalizedRect(x: 0.5 - width / 2, y: 0.5 - height / 2, width: width, height: height)
    }

    /// The region shown, in whole pixels of the `picture`: rounded to the nearest pixel,
    /// centred, never empty and never outside the picture.
    public func pixels(of picture: VideoDimensions) -> PixelRect {
        let region = region(of: picture)
        let width = min(picture.width, max(1, Int((region.width * Double(picture.width)).rounded())))
        let height = min(picture.height, max(1, Int((region.height * Double(picture.height)).rounded())))
        return PixelRect(x: (picture.width - width) / 2, y: (picture.height - height) / 2, width: width, height: height)
    }
}
