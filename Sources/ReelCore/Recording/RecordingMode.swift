/// What the study recorder writes (docs/behaviour.md §1, Active time).
public enum RecordingMode: String, Sendable, Equatable, Codable, CaseIterable {
    /// One frame per interval of active time, played at 10 fps; video only.
    case timelapse
    /// Every frame, stamped with its active time; H.264 at 5 Mbps on average.
    case full
}

/// The recorded picture's size: 1920x1080 or 1280x720, swapped for portrait
/// (docs/behaviour.md §1, Active time).
public enum RecordingCanvas: String, Sendable, Equatable, Codable, CaseIterable {
    /// 1920x1080 (1080x1920 portrait).
    case hd1080 = "1920x1080"
    /// 1280x720 (720x1280 portrait).
    case hd720 = "1280x720"

    /// The size, landscape or portrait.
    public func dimensions(portrait: Bool) -> VideoDimensions {
        let size = switch self {
        case .hd1080: VideoDimensions(width: 1920, height: 1080)
        case .hd720: VideoDimensions(width: 1280, height: 720)
        }
        return size.oriented(portrait ? .portrait : .landscape)
    }
}
