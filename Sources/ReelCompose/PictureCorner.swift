/// A corner of the picture, where a caption or the watermark sits.
public enum PictureCorner: String, Sendable, CaseIterable {
    /// Top left.
    case topLeft = "top-left"
    /// Top right.
    case topRight = "top-right"
    /// Bottom left.
    case bottomLeft = "bottom-left"
    /// Bottom right.
    case bottomRight = "bottom-right"

    /// The top-left luma pixel of a `width` × `height` item placed in this corner of a
    /// `pictureWidth` × `pictureHeight` picture, `margin` pixels from both edges.
    public func origin(width: Int, height: Int, pictureWidth: Int, pictureHeight: Int, margin: Int) -> (x: Int, y: Int) {
        let left = margin, right = pictureWidth - margin - width
        let top = margin, bottom = pictureHeight - margin - height
        switch self {
        case .topLeft: return (left, top)
        case .topRight: return (right, top)
        case .bottomLeft: return (left, bottom)
        case .bottomRight: return (right, bottom)
        }
    }
}
