/// The name of a stamp image the studio keeps (`/api/stamps/NAME`): lowercase letters, digits
/// and '-', at most 48 of them, starting with a letter or digit, then `.png`. Nothing else is
/// ever a stamp's name, so no name can climb out of the stamps folder or hide a file.
public enum StampName {
    /// The longest name before `.png`.
    public static let maxStem = 48

    /// Whether `name` is a stamp's name.
    public static func isValid<S: StringProtocol>(_ name: S) -> Bool {
        guard name.hasSuffix(".png") else { return false }
        let stem = name.dropLast(4)
        guard (1...maxStem).contains(stem.count), let first = stem.first, first != "-" else { return false }
        return stem.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// A stamp's name made from an uploaded file's name (`My Smiley (2).PNG` →
    /// `my-smiley-2.png`): folder parts dropped, letters lowercased, every run of anything else
    /// one '-', cut to ``maxStem``; `stamp.png` when nothing is left.
    public static func from(original: String) -> String {
        var base = Substring(original.split(separator: "/").last ?? "")
        if base.lowercased().hasSuffix(".png") { base = base.dropLast(4) }
        var stem = ""
        for character in base.lowercased() {
            let plain = character.isASCII && (character.isLetter || character.isNumber)
            if plain { stem.append(character) } else if !stem.isEmpty && stem.last != "-" { stem.append("-") }
        }
        while stem.hasSuffix("-") { stem.removeLast() }
        stem = String(stem.prefix(maxStem))
        while stem.hasSuffix("-") { stem.removeLast() }
        return (stem.isEmpty ? "stamp" : stem) + ".png"
    }

    /// `name` numbered for its `n`th clash (`smiley.png`, 2 → `smiley-2.png`), still valid.
    public static func numbered(_ name: String, _ n: Int) -> String {
        guard n > 1 else { return name }
        let suffix = "-\(n)"
        return String(name.dropLast(4).prefix(maxStem - suffix.count)) + suffix + ".png"
    }
}

/// The size a PNG's header declares, read before anything decodes it: an uploaded stamp is
/// judged by these 24 bytes, so a small file that would unpack to a huge picture is refused
/// without its pixels ever being allocated.
public enum PNGHeader {
    /// The largest width or height of a stamp.
    public static let maxStampSide = 2048

    /// The width and height in a PNG's header (its first 24 bytes), nil when `bytes` do not
    /// start as a PNG does.
    public static func size(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature, Array(bytes[12..<16]) == Array("IHDR".utf8) else { return nil }
        func number(_ at: Int) -> Int { bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16), number(20))
    }

    /// Why `bytes` cannot be a stamp: not a PNG, or too large; nil when its header is fine.
    public static func stampProblem(_ bytes: [UInt8]) -> String? {
        guard let (width, height) = size(bytes) else {
            return "the file is not a PNG image (stamps are PNG files, best with a transparent background)"
        }
        guard width > 0, height > 0 else { return "the PNG's header gives it no size: the file is damaged" }
        guard width <= maxStampSide, height <= maxStampSide else {
            return "the PNG is \(width)x\(height) pixels; a stamp may be at most \(maxStampSide) on a side: scale it down"
        }
        return nil
    }
}
