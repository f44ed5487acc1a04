/// Plain-text layout for help: word wrapping and a two-column list, at a fixed width so that
/// help reads the same everywhere (and tests can compare it exactly).
enum HelpLayout {
    /// The width help is wrapped to.
    static let width = 80
    /// The widest left column before its text moves to the next line.
    static let maximumNameColumn = 30

    /// `text` wrapped to `width`, each line prefixed by `indent`. Lines of `text` are kept;
    /// an empty line stays empty.
    static func wrap(_ text: String, indent: Int = 0, width: Int = width) -> [String] {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty && indent + line.count + 1 + word.count > width {
                    lines.append(margin + line)
                    line = ""
                }
                line += line.isEmpty ? String(word) : " " + word
            }
            lines.append(line.isEmpty ? "" : margin + line)
        }
        return lines
    }

    /// Rows of `name` and `text`: names indented by two spaces, texts aligned in one column
    /// and wrapped beneath themselves. A name wider than ``maximumNameColumn`` puts its text on
    /// the next line.
    static func columns(_ rows: [(name: String, text: String)]) -> [String] {
        let fitting = rows.map(\.name.count).filter { $0 <= maximumNameColumn }
        let textColumn = 2 + (fitting.max() ?? 0) + 3
        var lines: [String] = []
        for row in rows {
            let name = "  " + row.name
            var text = wrap(row.text, indent: textColumn)
            if name.count + 3 <= textColumn, !text.isEmpty {
                let first = text.removeFirst().dropFirst(textColumn)
                lines.append(name + String(repeating: " ", count: textColumn - name.count) + first)
            } else {
                lines.append(name)
            }
            lines += text
        }
        return lines
    }
}
