/// The shape of the overlay camera's pictures, and so of its photos: portrait (a phone's
/// habit), landscape (a desktop webcam's), or auto, the source's own shape. A picture is turned
/// a quarter only when the chosen shape differs from the source's; auto never turns it.
public enum OverlayFrameShape: String, Sendable, Hashable, Codable, CaseIterable {
    /// Taller than wide: a landscape picture is turned a quarter clockwise.
    case portrait
    /// Wider than tall: a portrait picture is turned a quarter anticlockwise.
    case landscape
    /// The source's own shape: never turned.
    case auto

    /// The quarter turn that gives a picture of `size` this shape. A square picture is never
    /// turned.
    public func rotation(for size: VideoDimensions) -> CaptureRotation {
        switch self {
        case .portrait: size.width > size.height ? .clockwise : .none
        case .landscape: size.height > size.width ? .anticlockwise : .none
        case .auto: .none
        }
    }

    /// The size of the pictures (and of a photo of the whole picture) from a source of `size`.
    public func outputSize(for size: VideoDimensions) -> VideoDimensions {
        rotation(for: size).apply(to: size)
    }
}
