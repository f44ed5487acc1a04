import ReelCore

/// Everything the export draws on one frame, in order: face covers (mosaics first, all their
/// block means taken from the untouched picture; then masks, then stamps), the caption, the watermark.
///
/// The caption is rendered once per distinct text (and picture size) and reused: the study
/// time changes once a second at most, the frames come 30 a second. Use one compositor from
/// one thread (the export's).
public final class FrameCompositor {
    /// The caption's placement and size.
    public struct Settings: Sendable, Equatable {
        /// Where the caption sits.
        public var captionCorner: PictureCorner
        /// The caption's em size, as a fraction of the picture's short side.
        public var captionSize: Double
        /// Distance of the caption from both edges, as a fraction of the short side.
        public var captionMargin: Double
        /// The caption's colours and plate.
        public var captionStyle: CaptionRenderer.Style
        /// RGB → YUV for the artwork; `nil` picks by picture height (``ColorMatrix/forHeight(_:)``).
        public var matrix: ColorMatrix?

        /// Bottom-left, 3.5 % of the short side (38 px at 1080p), margin 2.5 %, default style.
        public static let `default` = Settings(captionCorner: .bottomLeft, captionSize: 0.035, captionMargin: 0.025,
                                               captionStyle: .default, matrix: nil)

        /// Settings.
        public init(captionCorner: PictureCorner, captionSize: Double, captionMargin: Double,
                    captionStyle: CaptionRenderer.Style, matrix: ColorMatrix?) {
            self.captionCorner = captionCorner
            self.captionSize = captionSize
            self.captionMargin = captionMargin
            self.captionStyle = captionStyle
            self.matrix = matrix
        }
    }

    /// Placement settings.
    public let settings: Settings
    private let mosaic = MosaicCompositor()
    private let captionRenderer: CaptionRenderer?
    private let watermark: Watermark?
    private var cachedCaption: (text: String, width: Int, height: Int, overlay: YUVOverlay, origin: (x: Int, y: Int))?
    /// How many times a caption was rendered (once per distinct text and picture size).
    public private(set) var captionRenders = 0
    /// Characters the caption font had no glyph for, over every caption rendered so far.
    public private(set) var missingCharacters: Set<Unicode.Scalar> = []

    /// A compositor; without `captionRenderer` captions are not drawn, without `watermark`
    /// there is none.
    public init(settings: Settings = .default, captionRenderer: CaptionRenderer? = nil, watermark: Watermark? = nil) {
        self.settings = settings
        self.captionRenderer = captionRenderer
        self.watermark = watermark
    }

    /// Draws `covers`, then `caption` (skipped when `nil` or empty), then the watermark, onto
    /// `picture`. Throws only when a new caption cannot be rendered.
    public func composite(_ picture: YUVPicture, covers: [FaceCover], caption: String?) throws {
        let matrix = settings.matrix ?? ColorMatrix.forHeight(picture.height)
        var boxes: [NormalizedRect] = []
        for cover in covers { if case .mosaic(let box) = cover { boxes.append(box) } }
        mosaic.apply(to: picture, boxes: boxes)
        MaskCompositor().apply(to: picture, boxes: covers.compactMap { if case .mask(let box) = $0 { box } else { nil } })
        for cover in covers { if case let .stamp(box, stamp) = cover { stamp.blend(onto: picture, box: box, matrix: matrix) } }
        if let caption, !caption.isEmpty, let captionRenderer {
            if let cached = cachedCaption, cached.text == caption, cached.width == picture.width, cached.height == picture.height {
                cached.overlay.blend(onto: picture, x: cached.origin.x, y: cached.origin.y)
            } else {
                let shortSide = Double(min(picture.width, picture.height))
                let pixelSize = max(8, Int((shortSide * settings.captionSize).rounded()))
                let rendered = try captionRenderer.render(caption, pixelSize: pixelSize, style: settings.captionStyle)
                captionRenders += 1
                missingCharacters.formUnion(rendered.missingCharacters)
                let overlay = YUVOverlay(rendered.image, matrix: matrix)
                let margin = Int((shortSide * settings.captionMargin).rounded())
                let origin = settings.captionCorner.origin(width: overlay.width, height: overlay.height,
                                                           pictureWidth: picture.width, pictureHeight: picture.height, margin: margin)
                cachedCaption = (caption, picture.width, picture.height, overlay, origin)
                overlay.blend(onto: picture, x: origin.x, y: origin.y)
            }
        }
        watermark?.blend(onto: picture, matrix: matrix)
    }
}
