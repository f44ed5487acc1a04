import Foundation
import ReelRuntime

/// Lookup answers kept on disk, one JSON file per ISBN (`{isbn, lookedUpAt, record}`, record
/// null for "no service knows it"), written durably (``DurableFile``: a temporary file, synced,
/// renamed, the folder synced). A found book is kept for good (bibliographic data does not
/// change); "not found" is kept for ``notFoundLifetime`` so a book registered later is found
/// then. Unreachable services are never cached. A damaged entry is treated as absent and replaced.
public struct BookLookupCache: Sendable {
    /// One cached answer.
    public struct Entry: Sendable, Equatable, Codable {
        /// The ISBN asked for.
        public var isbn: String
        /// When the services answered.
        public var lookedUpAt: Date
        /// The book, or nil when no service knew it.
        public var record: BookRecord?
    }

    /// The folder (`$XDG_CACHE_HOME/reel/books` for the command line).
    public let directory: String
    /// How long a "not found" answer is reused (one day).
    public var notFoundLifetime: TimeInterval = 24 * 3600

    /// A cache in `directory` (made when first written).
    public init(directory: String) {
        self.directory = directory
    }

    /// The cached answer for `isbn` that is still good at `now`, or nil.
    public func entry(for isbn: String, now: Date = Date()) -> Entry? {
        guard let data = FileManager.default.contents(atPath: path(isbn)) else { return nil }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        guard let entry = try? decoder.decode(Entry.self, from: data), entry.isbn == isbn else { return nil }
        if entry.record == nil, now.timeIntervalSince(entry.lookedUpAt) > notFoundLifetime { return nil }
        return entry
    }

    /// Stores `entry`, replacing any earlier one.
    public func store(_ entry: Entry) throws {
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try DurableFile.write(try encoder.encode(entry), to: path(entry.isbn), ifExists: .replace)
    }

    /// The file of `isbn`'s entry.
    public func path(_ isbn: String) -> String { directory + "/" + isbn + ".json" }
}
