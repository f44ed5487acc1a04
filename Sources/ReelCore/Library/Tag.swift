import Foundation

/// A tag (spec §1, Library; issue 6): a name given to sessions, unique in a library, kept in
/// the exact spelling the user typed ("Exam" and "exam" are two tags).
public struct Tag: Sendable, Hashable, Codable {
    /// The name.
    public let name: String

    /// The longest name accepted, in characters.
    public static let maximumLength = 64

    /// A name that cannot be a tag.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Empty or only spaces.
        case empty
        /// Longer than ``Tag/maximumLength``.
        case tooLong(String)
        /// Has a comma (lists of tags are written comma-separated) or a control character.
        case forbiddenCharacter(String)

        public var description: String {
            switch self {
            case .empty: "a tag needs a name"
            case .tooLong(let name): "tag '\(name.prefix(20))…' is longer than \(Tag.maximumLength) characters"
            case .forbiddenCharacter(let name): "tag '\(name)' has a comma or a control character; tags are listed comma-separated, choose another name"
            }
        }
    }

    /// The tag called `name`, spaces at either end removed.
    public init(_ name: String) throws(Error) {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty else { throw .empty }
        guard trimmed.count <= Tag.maximumLength else { throw .tooLong(trimmed) }
        guard !trimmed.unicodeScalars.contains(where: { $0 == "," || $0.properties.generalCategory == .control }) else {
            throw .forbiddenCharacter(trimmed)
        }
        self.name = trimmed
    }
}
