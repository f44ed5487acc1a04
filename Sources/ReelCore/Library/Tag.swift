import Foundation

/// A tag (docs/behaviour.md §1, Library and backup): a name given to sessions, unique in a
/// library, kept in the exact spelling the user typed ("Exam" and "exam" are two tags).
public struct Tag: Sendable, Hashable, Codable {
    /// The name.
    public let name: String

    /// The longest name accepted, in characters.
    public static let maximumLength = LibraryName.Field.tag.maximumLength

    /// A name that cannot be a tag.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Empty or only spaces.
        case empty
        /// Longer than ``Tag/maximumLength``.
        case tooLong(String)
        /// Has a comma (lists of tags are written comma-separated) or a control character.
        case forbiddenCharacter(String)

        public var description: String { reason.description }

        /// The shared rule's words for it.
        var reason: LibraryName.Error {
            switch self {
            case .empty: .empty(.tag)
            case .tooLong(let name): .tooLong(.tag, name)
            case .forbiddenCharacter(let name):
                .forbiddenCharacter(.tag, name, found: name.contains(",") ? "," : TerminalText.safe(String(name.unicodeScalars.first(where: TerminalText.isUnsafe) ?? " ")))
            }
        }
    }

    /// The tag called `name`, spaces at either end removed; the rules are ``LibraryName``'s.
    public init(_ name: String) throws(Error) {
        do {
            self.name = try LibraryName.validate(name, as: .tag)
        } catch {
            switch error {
            case .empty: throw .empty
            case .tooLong(_, let text): throw .tooLong(text)
            case .forbiddenCharacter(_, let text, _): throw .forbiddenCharacter(text)
            }
        }
    }
}
