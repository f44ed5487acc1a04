import ReelCore

/// An image drawn over a face instead of the mosaic (the review step's `--stamp PNG`): fitted
/// inside the face box keeping its aspect ratio, centred on the box, alpha-blended.
///
/// Face boxes change size from frame to frame, so the scaled and converted image is cached
/// for the last size only. Use one stamp from one thread.
public final class Stamp {
    /// The artwork.
    public let image: RGBAImage
    private var cached: (width: Int, height: Int, matrix: ColorMatrix, overlay: YUVOverlay)?

    /// A stamp of `image`.
    public init(image: RGBAImage) {
        self.image = image
    }

    /// A stamp read from a PNG file (any colour type).
    public convenience init(pngAt path: String) throws {
        try self.init(image: RGBAImage(pngAt: path))
    }

    /// Where the stamp lands for `box` in a `width` × `height` picture: top-left luma pixel
    /// and size, or `nil` for an empty box.
    public func placement(for box: NormalizedRect, width: Int, height: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let boxWidth = box.width * Double(width), boxHeight = box.height * Double(height)
        guard boxWidth.isFinite, boxHeight.isFinite, boxWidth >= 2, boxHeight >= 2 else { return nil }
        let limit = Double(4 * max(width, height))
        let size = image.fittedSize(maxWidth: Int(min(boxWidth, limit).rounded()), maxHeight: Int(min(boxHeight, limit).rounded()))
        let centreX = (box.x + box.width / 2) * Double(width), centreY = (box.y + box.height / 2) * Double(height)
        guard centreX.isFinite, centreY.isFinite else { return nil }
        return (Int((centreX - Double(size.width) / 2).rounded()), Int((centreY - Double(size.height) / 2).rounded()),
                size.width, size.height)
    }

    /// Draws the stamp over `box` (normalized, origin top-left) in `picture`.
    public func blend(onto picture: YUVPicture, box: NormalizedRect, matrix: ColorMatrix) {
        guard let place = placement(for: box, width: picture.width, height: picture.height) else { return }
        let overlay: YUVOverlay
        if let cached, cached.width == place.width, cached.height == place.height, cached.matrix == matrix {
            overlay = cached.overlay
        } else {
            overlay = YUVOverlay(image.scaled(toWidth: place.width, height: place.height), matrix: matrix)
            cached = (place.width, place.height, matrix, overlay)
        }
        overlay.blend(onto: picture, x: place.x, y: place.y)
    }
}
