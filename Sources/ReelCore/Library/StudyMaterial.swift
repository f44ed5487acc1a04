import Foundation

/// A book or other material studied with (docs/behaviour.md §1, Library and backup). Added
/// by hand or by a barcode scan (ReelMaterials), which fills the same fields (``isbn`` from the
/// EAN-13, title, author and publisher from openBD or the National Diet Library, the cover it
/// downloads).
public struct StudyMaterial: Sendable, Equatable, Codable {
    /// The record's id (backup and restore merge by it).
    public var id: UUID
    /// ISBN-13 as 13 digits (validated by ``ISBN/validate(_:)``), nil for material without one.
    /// Unique in a library when present.
    public var isbn: String?
    /// The title (not empty).
    public var title: String
    /// The author, when known.
    public var author: String?
    /// The publisher, when known.
    public var publisher: String?
    /// A cover picture on disk, when there is one.
    public var coverPath: String?
    /// When it was added to the library.
    public var addedAt: Date

    /// A material that cannot be recorded as given.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The title is empty (or only spaces).
        case emptyTitle

        public var description: String {
            switch self {
            case .emptyTitle: "a material needs a title (--title \"…\")"
            }
        }
    }

    /// A material; `isbn` is checked and normalised (hyphens and spaces removed), the title
    /// and other texts trimmed, empty ones as nil.
    public init(id: UUID = UUID(), isbn: String?, title: String, author: String? = nil, publisher: String? = nil,
                coverPath: String? = nil, addedAt: Date) throws {
        func clean(_ text: String?) -> String? {
            let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed?.isEmpty == false ? trimmed : nil
        }
        guard let title = clean(title) else { throw Error.emptyTitle }
        self.id = id
        self.isbn = try clean(isbn).map { (text: String) throws(ISBN.Error) -> String in try ISBN.validate(text) }
        self.title = title
        self.author = clean(author)
        self.publisher = clean(publisher)
        self.coverPath = clean(coverPath)
        self.addedAt = addedAt
    }
}
