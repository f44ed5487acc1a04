/// The names of the overlay camera's photos in the gallery folder: `photo-YYYYMMDD-HHMMSS.EXT`,
/// numbered (`…-2.EXT`) when a second photo is taken within the same second. The studio
/// serves a photo by this name only, so nothing else in that folder (or outside it) can be
/// named by a request.
public enum OverlayPhotoName {
    /// The longest name accepted.
    public static let maxLength = 64

    /// Whether `name` is a photo's name: lowercase letters, digits and '-', not starting with
    /// '-', then `.heic`, `.jpg` or `.tiff`.
    public static func isValid<S: StringProtocol>(_ name: S) -> Bool {
        guard name.count <= maxLength, let dot = name.lastIndex(of: "."),
              StillFormat(fileExtension: String(name[name.index(after: dot)...])).map({ $0.fileExtension == name[name.index(after: dot)...] }) == true
        else { return false }
        let stem = name[..<dot]
        guard let first = stem.first, first != "-" else { return false }
        return stem.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The format a valid name is saved in.
    public static func format<S: StringProtocol>(of name: S) -> StillFormat? {
        guard isValid(name), let dot = name.lastIndex(of: ".") else { return nil }
        return StillFormat(fileExtension: String(name[name.index(after: dot)...]))
    }

    /// The name for a photo taken at `stamp` (`YYYYMMDD-HHMMSS`, local time, from the caller's
    /// clock) in `format`, the first of `photo-STAMP`, `photo-STAMP-2`, … that `isTaken` says
    /// is free.
    public static func name(stamp: String, format: StillFormat, isTaken: (String) -> Bool) -> String {
        let clean = String(stamp.filter { ("0"..."9").contains($0) || $0 == "-" }.prefix(32))
        let stem = "photo-" + (clean.isEmpty ? "0" : clean)
        var candidate = stem + "." + format.fileExtension
        var n = 2
        while isTaken(candidate) {
            candidate = "\(stem)-\(n).\(format.fileExtension)"
            n += 1
        }
        return candidate
    }
}
