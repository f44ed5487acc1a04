import Foundation

/// A piece of artwork in the overlay camera's library (docs/behaviour.md §4): imported one
/// image at a time, or cut out of a photo. The file itself lives in the library's asset folder
/// as ``fileName``; this is what the library records of it.
public struct OverlayAsset: Sendable, Equatable, Codable {
    /// How the asset came to be.
    public enum Origin: String, Sendable, Codable, CaseIterable {
        /// Imported from a file (`reel overlay import`, a file manager's "Open with").
        case imported = "import"
        /// Cut out of a photo.
        case cutout
    }

    /// The record's id.
    public var id: UUID
    /// The name shown (from the file's name unless given).
    public var name: String
    /// The file in the asset folder: the id and the original extension.
    public var fileName: String
    /// Width in pixels, upright.
    public var width: Int
    /// Height in pixels, upright.
    public var height: Int
    /// Whether it has transparency.
    public var hasAlpha: Bool
    /// "PNG", "JPEG", "HEIC" or "TIFF".
    public var format: String
    /// The colour profile it carries, by description ("sRGB" when it had none).
    public var profile: String
    /// Import or cut-out.
    public var origin: Origin
    /// The file's size.
    public var bytes: Int
    /// When it was added.
    public var addedAt: Date

    /// An asset record.
    public init(id: UUID = UUID(), name: String, fileName: String, width: Int, height: Int, hasAlpha: Bool, format: String,
                profile: String, origin: Origin, bytes: Int, addedAt: Date) {
        self.id = id
        self.name = name
        self.fileName = fileName
        self.width = width
        self.height = height
        self.hasAlpha = hasAlpha
        self.format = format
        self.profile = profile
        self.origin = origin
        self.bytes = bytes
        self.addedAt = addedAt
    }

    /// The most characters a name keeps.
    public static let maxNameLength = 80

    /// The name an asset gets from a file's name: the name without its extension, control
    /// characters as spaces, trimmed, at most ``maxNameLength`` characters; "artwork" when
    /// nothing is left.
    public static func name(fromFile fileName: String) -> String {
        let base = fileName.split(separator: "/").last.map(String.init) ?? fileName
        let stem = base.contains(".") && !base.hasPrefix(".") ? String(base[..<base.lastIndex(of: ".")!]) : base
        return cleanName(stem) ?? "artwork"
    }

    /// A name as given by a user, cleaned as ``name(fromFile:)`` cleans; nil when nothing is left.
    public static func cleanName(_ text: String) -> String? {
        let visible = String(text.unicodeScalars.map { CharacterSet.controlCharacters.contains($0) ? " " : Character($0) })
        let trimmed = visible.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        return String(trimmed.prefix(maxNameLength))
    }

    /// `name`, or when another asset has it, `name` with the smallest number from 2 that makes
    /// it free ("frame 2"), shortened to fit ``maxNameLength``: no two assets share a name, so
    /// a name always finds one asset.
    public static func freeName(_ name: String, taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var number = 2
        while true {
            let suffix = " \(number)"
            let candidate = String(name.prefix(maxNameLength - suffix.count)) + suffix
            if !taken.contains(candidate) { return candidate }
            number += 1
        }
    }

    /// The file name an asset with `id`, imported from a file with `extension`, is kept under:
    /// the lowercased id and the extension (lowercased, letters and digits only, at most 5;
    /// "img" when none is usable), so no name a user chose ever reaches the file system.
    public static func fileName(id: UUID, extension ext: String) -> String {
        let clean = ext.lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
        return id.uuidString.lowercased() + "." + (clean.isEmpty || clean.count > 5 ? "img" : clean)
    }
}
