import Foundation
import ReelBooks
import ReelCore
import ReelRuntime
import ReelStore

/// How a book enters the study library from its ISBN (`reel materials add --isbn`, `reel
/// materials scan`): the library asked first (a book it has is never looked up again), then the
/// lookup (cache, openBD, the National Diet Library), the cover saved beside the library, the
/// material inserted. The command line only parses its options and prints the outcome.
public struct MaterialIntake: Sendable {
    /// The study library's file; the covers go to `covers/` beside it.
    public let libraryPath: String
    /// The book services and their disk cache.
    public let lookup: BookLookup
    /// Told what went wrong with a cover (the material is added without it).
    public let warn: @Sendable (String) -> Void
    /// The command to type when nothing can be looked up, for the error that says so.
    public let manualLine: @Sendable (String) -> String

    /// Why a book was not added; the text says what to do.
    public struct Failure: Error, CustomStringConvertible {
        /// One or more lines for the user.
        public var description: String
        /// A failure told in `description`.
        public init(description: String) { self.description = description }
    }

    /// A material added from a lookup, with what the service said.
    public struct Added: Sendable {
        /// What went into the library.
        public let material: StudyMaterial
        /// The service's record.
        public let record: BookRecord
        /// When the answer was cached, if it came from the cache.
        public let cachedAt: Date?
    }

    /// An intake into the library at `libraryPath`, looking books up with `settings` and
    /// caching answers in `cacheFolder`.
    public init(libraryPath: String, settings: BookLookup.Settings, cacheFolder: String,
                warn: @escaping @Sendable (String) -> Void, manualLine: @escaping @Sendable (String) -> String) {
        self.libraryPath = libraryPath
        self.lookup = BookLookup(settings: settings, cache: BookLookupCache(directory: cacheFolder))
        self.warn = warn
        self.manualLine = manualLine
    }

    /// A failure when the library already has `isbn` (nothing is looked up or added), so a
    /// script can tell "added" from "not added". A library that does not exist has nothing.
    public func refuseIfPresent(_ isbn: String) throws {
        try Self.refuseIfPresent(isbn, libraryPath: libraryPath)
    }

    /// ``refuseIfPresent(_:)`` for the library at `libraryPath`, before any lookup is set up.
    public static func refuseIfPresent(_ isbn: String, libraryPath: String) throws {
        guard FileManager.default.fileExists(atPath: libraryPath) else { return }
        guard let there = try StudyLibrary(path: libraryPath, create: false).materials().first(where: { $0.isbn == isbn }) else { return }
        throw Failure(description: "ISBN \(isbn) is already in the library as '\(there.title)'; nothing was added (reel materials ls)")
    }

    /// Looks `isbn` up, saves its cover (unless `coverPath` is given) and adds it; `author` and
    /// `publisher` given by the user come before the service's.
    public func addLookedUp(isbn: String, author: String? = nil, publisher: String? = nil, coverPath: String? = nil) async throws -> Added {
        let (record, cachedAt) = try await lookUp(isbn)
        let picture = coverPath != nil ? coverPath : await downloadCover(record)
        let material = try Self.material(from: record, isbn: isbn, author: author, publisher: publisher, coverPath: picture)
        try StudyLibrary(path: libraryPath, create: true).addMaterial(material)
        return Added(material: material, record: record, cachedAt: cachedAt)
    }

    /// The book `isbn` names, from the cache, openBD or the NDL; a failure that says to give
    /// the title by hand when no service knows it or none answers.
    public func lookUp(_ isbn: String) async throws -> (BookRecord, cachedAt: Date?) {
        do {
            switch try await lookup.lookUp(isbn: isbn) {
            case .notFound:
                throw Failure(description: "ISBN \(isbn) is in neither openBD nor the National Diet Library; add it by hand:\n  \(manualLine(isbn))")
            case let .found(book, date):
                return (book, date)
            }
        } catch let error as BookLookup.Error {
            throw Failure(description: "\(error)\nadd it by hand:\n  \(manualLine(isbn))")
        }
    }

    /// The cover saved as `covers/ISBN.EXT` beside the library, or nil (none, or it could not
    /// be fetched or saved: a warning).
    public func downloadCover(_ record: BookRecord) async -> String? {
        guard let text = record.coverURL, let url = URL(string: text) else { return nil }
        let folder = (libraryPath as NSString).deletingLastPathComponent + "/covers"
        let ext = ["jpg", "jpeg", "png", "webp"].contains(url.pathExtension.lowercased()) ? url.pathExtension.lowercased() : "jpg"
        let path = folder + "/\(record.isbn).\(ext)"
        let data: Data
        do {
            data = try await lookup.get(url)
        } catch {
            warn("the cover \(text) could not be fetched (\(ErrorSentence.reason(error, url: url))); added without it")
            return nil
        }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try DurableFile.write(data, to: path, ifExists: .replace)
            return path
        } catch {
            warn("the cover could not be saved as \(path) (\(ErrorSentence.reason(error))); added without it. "
                 + "Check that the folder beside the library can be written")
            return nil
        }
    }

    /// A material from a book database's record: its text is cleaned, not refused (control
    /// characters become spaces); `author`/`publisher`/`cover` given by the user come first.
    public static func material(from record: BookRecord, isbn: String, author: String? = nil, publisher: String? = nil,
                                coverPath: String?) throws -> StudyMaterial {
        try StudyMaterial(isbn: isbn, title: LibraryName.cleaned(record.title, as: .title) ?? "ISBN \(isbn)",
                          author: author ?? record.author.flatMap { LibraryName.cleaned($0, as: .author) },
                          publisher: publisher ?? record.publisher.flatMap { LibraryName.cleaned($0, as: .publisher) },
                          coverPath: coverPath, addedAt: Date())
    }
}
