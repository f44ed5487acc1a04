/// The export's watermark: a PNG in a corner of every frame.
///
/// Defaults (``Settings/default``): bottom-right corner; the image fitted (aspect kept) into
/// 15 % of the picture's width × 8 % of its height; 2.5 % of the short side from both edges
/// (27 px at 1080p); 80 % opacity. The converted image is cached per picture size.
public final class Watermark {
    /// Where and how large the watermark is drawn.
    public struct Settings: Sendable, Equatable {
        /// The corner.
        public var corner: PictureCorner
        /// Largest width, as a fraction of the picture's width.
        public var maxWidth: Double
        /// Largest height, as a fraction of the picture's height.
        public var maxHeight: Double
        /// Distance from both edges, as a fraction of the picture's short side.
        public var margin: Double
        /// Opacity, 0…1, multiplied into the image's own alpha.
        public var opacity: Double

        /// Bottom-right, 15 % × 8 %, margin 2.5 %, 80 % opaque.
        public static let `default` = Settings(corner: .bottomRight, maxWidth: 0.15, maxHeight: 0.08, margin: 0.025, opacity: 0.8)

        /// Settings.
        public init(corner: PictureCorner, maxWidth: Double, maxHeight: Double, margin: Double, opacity: Double) {
            self.corner = corner
            self.maxWidth = maxWidth
            self.maxHeight = maxHeight
            self.margin = margin
            self.opacity = opacity
        }
    }

    /// The artwork.
    public let image: RGBAImage
    /// Placement and opacity.
    public let settings: Settings
    private var cached: (width: Int, height: Int, matrix: ColorMatrix, overlay: YUVOverlay)?

    /// A watermark of `image`.
    public init(image: RGBAImage, settings: Settings = .default) {
        self.image = image
        self.settings = settings
    }

    /// A watermark read from a PNG file.
    public convenience init(pngAt path: String, settings: Settings = .default) throws {
        try self.init(image: RGBAImage(pngAt: path), settings: settings)
    }

    /// Where the watermark lands in a `width` × `height` picture (top-left luma pixel, size).
    public func placement(width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int) {
        let size = image.fittedSize(maxWidth: max(1, Int(Double(width) * settings.maxWidth)),
                                    maxHeight: max(1, Int(Double(height) * settings.maxHeight)))
        let margin = Int((Double(min(width, height)) * settings.margin).rounded())
        let origin = settings.corner.origin(width: size.width, height: size.height, pictureWidth: width, pictureHeight: height, margin: margin)
        return (origin.x, origin.y, size.width, size.height)
    }

    /// Draws the watermark onto `picture`.
    public func blend(onto picture: YUVPicture, matrix: ColorMatrix) {
        let place = placement(width: picture.width, height: picture.height)
        let overlay: YUVOverlay
        if let cached, cached.width == picture.width, cached.height == picture.height, cached.matrix == matrix {
            overlay = cached.overlay
        } else {
            overlay = YUVOverlay(image.scaled(toWidth: place.width, height: place.height), matrix: matrix, opacity: settings.opacity)
            cached = (picture.width, picture.height, matrix, overlay)
        }
        overlay.blend(onto: picture, x: place.x, y: place.y)
    }
}
