/// Text from the library (titles, tags, paths) made fit for a terminal: control characters
/// shown, never obeyed; the width a terminal gives each character; cutting and padding by that
/// width (a title with `ESC[31m` must not colour the terminal, an emoji at a cell's end must
/// not become U+FFFD, CJK titles must keep the columns in line).
///
/// Widths follow what terminals do (wcwidth): a grapheme cluster is as wide as its first
/// scalar, East Asian Wide and Fullwidth characters and emoji shown as emoji take two
/// columns, combining marks and zero-width characters none.
public enum TerminalText {
    /// `text` with every control character (C0, DEL, C1) and every character that reorders
    /// or hides text (bidirectional overrides and isolates, zero-width joiners outside an
    /// emoji) replaced by a visible escape: `^[` for ESC, `^G` for BEL, `^?` for DEL, `\u{202E}`
    /// for the others. Printable text is unchanged.
    public static func safe(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isUnsafe) else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            if !isUnsafe(scalar) {
                result.unicodeScalars.append(scalar)
            } else if scalar.value < 0x20 {
                result += "^" + String(Unicode.Scalar(UInt8(scalar.value + 0x40)))
            } else if scalar.value == 0x7F {
                result += "^?"
            } else {
                result += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            }
        }
        return result
    }

    /// Whether `scalar` must not reach a terminal as it is.
    public static func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true  // C0, DEL, C1 (CSI is 0x9B)
        case 0x202A...0x202E, 0x2066...0x2069, 0x200E, 0x200F, 0x061C: true  // bidirectional controls
        default: false
        }
    }

    /// Columns a terminal gives `text`.
    public static func width(_ text: String) -> Int {
        text.reduce(0) { $0 + width(of: $1) }
    }

    /// Columns a terminal gives one grapheme cluster: 0, 1 or 2.
    public static func width(of character: Character) -> Int {
        let scalars = character.unicodeScalars
        guard let first = scalars.first else { return 0 }
        // An emoji shown as a picture: presentation by default, or asked for with VS16.
        if scalars.contains(where: { $0.value == 0xFE0F }) && first.properties.isEmoji { return 2 }
        if first.properties.isEmojiPresentation { return 2 }
        if scalars.count > 1, scalars.contains(where: { $0.properties.isEmojiModifier || $0.value == 0x200D }),
           first.properties.isEmoji { return 2 }
        return scalarWidth(first)
    }

    /// Columns of one scalar on its own.
    static func scalarWidth(_ scalar: Unicode.Scalar) -> Int {
        let value = scalar.value
        if value == 0 { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if (0x1160...0x11FF).contains(value) || value == 0x200B { return 0 }  // Hangul medial vowels, zero-width space
        return isWide(value) ? 2 : 1
    }

    /// East Asian Wide (W) and Fullwidth (F) blocks, as terminals' wcwidth tables have them.
    static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x1B000...0x1B2FF,
             0x1F200...0x1F2FF, 0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            true
        default:
            false
        }
    }

    /// `text` cut to at most `columns` columns, ending in `…` when cut (never inside a
    /// grapheme cluster, never half of a wide character).
    public static func truncated(_ text: String, toWidth columns: Int) -> String {
        guard columns > 0 else { return "" }
        guard width(text) > columns else { return text }
        var result = "", used = 0
        for character in text {
            let w = width(of: character)
            if used + w > columns - 1 { break }
            result.append(character)
            used += w
        }
        return result + "…"
    }

    /// `text` followed by spaces up to `columns` columns (unchanged when already as wide).
    public static func padded(_ text: String, toWidth columns: Int) -> String {
        let missing = columns - width(text)
        return missing > 0 ? text + String(repeating: " ", count: missing) : text
    }

    /// Rows as columns two spaces apart: every cell made safe, cut to its column's limit in
    /// `maximumWidths` (by index; missing or `nil` means no limit) with `…`, padded by display
    /// width; the last column is not padded and no line ends in spaces.
    public static func table(_ rows: [[String]], maximumWidths: [Int?] = []) -> String {
        guard let columns = rows.map(\.count).max(), columns > 0 else { return "" }
        let cells = rows.map { row in
            (0..<columns).map { c -> String in
                let cell = safe(c < row.count ? row[c] : "")
                guard c < maximumWidths.count, let limit = maximumWidths[c] else { return cell }
                return truncated(cell, toWidth: limit)
            }
        }
        let widths = (0..<columns).map { c in cells.map { width($0[c]) }.max() ?? 0 }
        return cells.map { row in
            var line = ""
            for (c, cell) in row.enumerated() {
                line += c == columns - 1 ? cell : padded(cell, toWidth: widths[c]) + "  "
            }
            while line.last == " " { line.removeLast() }
            return line
        }.joined(separator: "\n") + "\n"
    }
}
