/// The one rule for the short texts a user gives the library: session titles, tags, and a
/// study material's title, author and publisher (one rule, because `record --tag` once took a
/// 500-character tag and a tab that `tags add` refused, and titles kept `ESC` and `BEL`).
///
/// A name is trimmed of spaces at either end, is not empty, is at most its field's
/// ``Field/maximumLength`` characters (grapheme clusters), and has no control character (tab,
/// line break, `ESC`, C1) and no character that reorders text on screen (bidirectional
/// overrides and isolates, ``TerminalText/isUnsafe(_:)``). A tag also has no comma (tags are
/// listed comma-separated). What the user types is checked and refused with the reason;
/// what comes from elsewhere (a book database) is ``cleaned(_:as:)`` instead.
public enum LibraryName {
    /// Which text.
    public enum Field: String, Sendable, CaseIterable {
        case tag, title, author, publisher

        /// The longest text accepted, in characters.
        public var maximumLength: Int { self == .tag ? 64 : 200 }
        /// Whether a comma is refused.
        var forbidsComma: Bool { self == .tag }
    }

    /// Why a text cannot be a name.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable, Sendable {
        /// Empty, or only spaces.
        case empty(Field)
        /// Longer than the field's maximum; the text as given.
        case tooLong(Field, String)
        /// Has a comma (tags) or a control or reordering character; the text and what it has.
        case forbiddenCharacter(Field, String, found: String)

        public var description: String {
            switch self {
            case .empty(let field):
                return "a \(field.rawValue) cannot be empty"
            case .tooLong(let field, let text):
                return "the \(field.rawValue) '\(TerminalText.safe(String(text.prefix(20))))…' has \(text.count) characters; at most \(field.maximumLength) are allowed"
            case .forbiddenCharacter(let field, let text, let found):
                let why = found == "," ? "a comma (tags are listed comma-separated)" : "the control character \(found)"
                return "the \(field.rawValue) '\(TerminalText.safe(text))' has \(why); choose one without it"
            }
        }
    }

    /// `text` trimmed, or the reason it cannot be a `field`.
    public static func validate(_ text: String, as field: Field) throws(Error) -> String {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { throw .empty(field) }
        if let bad = trimmed.unicodeScalars.first(where: { isForbidden($0, in: field) }) {
            throw .forbiddenCharacter(field, trimmed, found: bad == "," ? "," : TerminalText.safe(String(bad)))
        }
        guard trimmed.count <= field.maximumLength else { throw .tooLong(field, trimmed) }
        return trimmed
    }

    /// `text` made a valid `field` when it can be: every forbidden character becomes a space,
    /// runs of spaces become one, cut to the maximum length; nil when nothing is left.
    public static func cleaned(_ text: String, as field: Field) -> String? {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let next: Unicode.Scalar = isForbidden(scalar, in: field) ? " " : scalar
            if next == " ", scalars.last == " " { continue }
            scalars.append(next)
        }
        let trimmed = trim(String(scalars))
        return trimmed.isEmpty ? nil : String(trimmed.prefix(field.maximumLength))
    }

    static func isForbidden(_ scalar: Unicode.Scalar, in field: Field) -> Bool {
        (field.forbidsComma && scalar == ",") || TerminalText.isUnsafe(scalar)
    }

    /// Spaces (any Unicode white space, not control characters) removed at either end.
    static func trim(_ text: String) -> String {
        var view = Substring(text)
        while let first = view.first, first.isWhitespace, !first.unicodeScalars.contains(where: TerminalText.isUnsafe) { view.removeFirst() }
        while let last = view.last, last.isWhitespace, !last.unicodeScalars.contains(where: TerminalText.isUnsafe) { view.removeLast() }
        return String(view)
    }
}
