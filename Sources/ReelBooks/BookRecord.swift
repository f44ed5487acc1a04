import Foundation

/// What a book lookup found: the fields a study material takes, and where they came from.
public struct BookRecord: Sendable, Equatable, Codable {
    /// The service that answered.
    public enum Source: String, Sendable, Codable {
        /// openBD (`api.openbd.jp`), the Japanese publishers' open bibliographic data.
        case openBD = "openbd"
        /// The National Diet Library search (`ndlsearch.ndl.go.jp`), OpenSearch API.
        case ndl
    }

    /// The ISBN-13 asked for (13 digits).
    public var isbn: String
    /// The title (never empty).
    public var title: String
    /// The author(s) as the service writes them, when given.
    public var author: String?
    /// The publisher, when given.
    public var publisher: String?
    /// A cover picture's address, when the service has one.
    public var coverURL: String?
    /// Who answered.
    public var source: Source

    /// A record; empty texts become nil.
    public init(isbn: String, title: String, author: String?, publisher: String?, coverURL: String?, source: Source) {
        func clean(_ text: String?) -> String? {
            let trimmed = text?.trimmingCharacters(in: .whitespacesAndNewlines)
            return trimmed?.isEmpty == false ? trimmed : nil
        }
        self.isbn = isbn
        self.title = title.trimmingCharacters(in: .whitespacesAndNewlines)
        self.author = clean(author)
        self.publisher = clean(publisher)
        self.coverURL = clean(coverURL)
        self.source = source
    }
}
