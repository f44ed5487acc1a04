/// How the device is held when a photo is taken (docs/behaviour.md §4). Pixels are stored in
/// the frame's shape (``OverlayFrameShape``); the orientation only sets the saved photo's EXIF
/// orientation.
public enum DeviceOrientation: Int, Sendable, Hashable, Codable, CaseIterable {
    /// Upright (portrait).
    case upright = 0
    /// Turned a quarter to the left: +90°.
    case left = 90
    /// Turned a quarter to the right: −90°.
    case right = -90
    /// Upside down: 180°.
    case upsideDown = 180

    /// The EXIF (and TIFF) orientation tag a viewer reads to show the photo upright:
    /// 0° → 1, +90° → 8, −90° → 6, 180° → 3.
    public var exifOrientation: Int {
        switch self {
        case .upright: 1
        case .left: 8
        case .right: 6
        case .upsideDown: 3
        }
    }

    /// The orientation a user names in degrees (0, 90, -90, 180; 270 is taken as -90); nil for
    /// any other angle.
    public init?(degrees: Int) {
        switch degrees {
        case 0: self = .upright
        case 90: self = .left
        case -90, 270: self = .right
        case 180, -180: self = .upsideDown
        default: return nil
        }
    }
}

/// The quarter turn that gives a camera's picture the overlay camera's frame shape as it
/// arrives (``OverlayFrameShape``; portrait by default, docs/behaviour.md §4: "the capture
/// connections are fixed at 90°"). The same rule is applied to every source, including one
/// switched to while running, before its first frame reaches any consumer.
public enum CaptureRotation: Int, Sendable, Hashable {
    /// Kept as it is.
    case none = 0
    /// Turned a quarter clockwise.
    case clockwise = 90
    /// Turned a quarter anticlockwise.
    case anticlockwise = -90

    /// The turn that makes a picture of `size` portrait: a landscape picture is turned 90°
    /// clockwise, a portrait (or square) one is left as it is.
    public static func forPicture(_ size: VideoDimensions) -> CaptureRotation {
        OverlayFrameShape.portrait.rotation(for: size)
    }

    /// The size after the turn.
    public func apply(to size: VideoDimensions) -> VideoDimensions {
        self == .none ? size : size.swapped
    }
}
