import Foundation

/// The names of the studio's cinematic clips and stills: `cinematic-YYYYMMDD-HHMMSS.mp4`
/// (`-N` when taken; `…-refocused-N.mp4` for a refocus), `cinematic-YYYYMMDD-HHMMSS.jpg`. A
/// route takes only lowercase letters, digits and `-` before the extension, so a name can never
/// leave the studio's folder.
public enum CinematicFileName {
    /// What the file is.
    public enum Kind: String, Sendable {
        case clip = "mp4"
        case still = "jpg"
    }

    /// The longest name before the extension.
    public static let maxStem = 64

    /// Whether `name` can name a file of `kind`.
    public static func isValid<S: StringProtocol>(_ name: S, kind: Kind) -> Bool {
        guard name.hasSuffix("." + kind.rawValue) else { return false }
        let stem = name.dropLast(kind.rawValue.count + 1)
        guard (1...maxStem).contains(stem.count), let first = stem.first, first != "-" else { return false }
        return stem.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// The stem of a file made at `date` (local time of `calendar`): `cinematic-20261203-101500`.
    public static func stem(at date: Date, calendar: Calendar = .current) -> String {
        let c = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
        return String(format: "cinematic-%04d%02d%02d-%02d%02d%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0, c.hour ?? 0, c.minute ?? 0, c.second ?? 0)
    }

    /// `stem.EXT`, or `stem-2.EXT`, `stem-3.EXT`… the first that `taken` does not hold.
    public static func free(_ stem: String, kind: Kind, taken: (String) -> Bool) -> String {
        var name = "\(stem).\(kind.rawValue)", n = 2
        while taken(name) {
            name = "\(stem)-\(n).\(kind.rawValue)"
            n += 1
        }
        return name
    }

    /// The name of a refocus of the clip `name`: `STEM-refocused.mp4` (numbered when taken).
    public static func refocused(_ name: String, taken: (String) -> Bool) -> String {
        var stem = String(name.dropLast(Kind.clip.rawValue.count + 1))
        if let range = stem.range(of: "-refocused") { stem = String(stem[..<range.lowerBound]) }
        return free(stem + "-refocused", kind: .clip, taken: taken)
    }
}
