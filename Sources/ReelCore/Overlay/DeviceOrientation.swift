/// How the device is held when a photo is taken (docs/behaviour.md §4). Pixels are always
/// stored portrait; the orientation only sets the saved photo's EXIF orientation.
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

/// The quarter turn that makes a camera's picture portrait as it arrives (docs/behaviour.md §4:
/// "the capture connections are fixed at 90°"): a landscape picture is turned 90° clockwise, a
/// portrait (or square) one is left as it is. The same rule is applied to every source,
/// including one switched to while running, before its first frame reaches any consumer.
public enum CaptureRotation: Int, Sendable, Hashable {
    /// Kept as it is.
    case none = 0
    /// Turned a quarter clockwise.
    case clockwise = 90

    /// The turn for a picture of `size`.
    public static func forPicture(_ size: VideoDimensions) -> CaptureRotation {
        size.width > size.height ? .clockwise : .none
    }

    /// The size after the turn.
    public func apply(to size: VideoDimensions) -> VideoDimensions {
        self == .clockwise ? size.swapped : size
    }
}
