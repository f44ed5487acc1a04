/// The formats a photo is saved in (docs/behaviour.md §4): HEIC 8-bit Display P3, JPEG 8-bit
/// sRGB, TIFF 16-bit Display P3 (the colour spaces are ReelImage's `StillFormat.space`).
public enum StillFormat: String, Sendable, CaseIterable, Codable {
    /// HEIC (HEVC), 8-bit Display P3.
    case heic
    /// JPEG, 8-bit sRGB.
    case jpeg
    /// TIFF, 16-bit Display P3, deflate.
    case tiff

    /// The usual file name extension.
    public var fileExtension: String { self == .jpeg ? "jpg" : rawValue }

    /// The format a file name's extension names (heic/heif, jpg/jpeg, tif/tiff), if any.
    public init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "heic", "heif": self = .heic
        case "jpg", "jpeg": self = .jpeg
        case "tif", "tiff": self = .tiff
        default: return nil
        }
    }
}
