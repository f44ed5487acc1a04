import Foundation
import ReelBooks
import ReelCore
import ReelStore

/// What `materials add --isbn` (without `--title`) and `materials scan` share: the book
/// services' addresses, the library checked before any network, openBD → NDL, the cover.
extension MaterialsCommand {
    static let openBD = Option.value("openbd", placeholder: "URL",
                                     help: "OpenBD's base address, used by add and scan (default $REEL_OPENBD_URL or https://api.openbd.jp/v1); every action takes it, as it takes the variable.")
    static let ndl = Option.value("ndl", placeholder: "URL",
                                  help: "The National Diet Library search's base, used by add and scan (default $REEL_NDL_URL or https://ndlsearch.ndl.go.jp); every action takes it, as it takes the variable.")
    static let offline = Option.flag("offline", help: "Look nothing up on the network; --title is then required.")

    /// Why a lookup or scan added nothing; the message says what to do.
    struct ScanFailure: Error, CustomStringConvertible {
        var description: String
    }

    /// The book services' addresses: `--openbd`/`--ndl`, else `$REEL_OPENBD_URL`/`$REEL_NDL_URL`, else the public ones.
    static func lookupSettings(_ arguments: ParsedArguments) throws -> BookLookup.Settings {
        let environment = ProcessInfo.processInfo.environment
        func base(_ option: Option, _ variable: String, _ fallback: URL) throws -> URL {
            guard let text = arguments.string(option) ?? environment[variable], !text.isEmpty else { return fallback }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                if arguments.string(option) != nil { throw arguments.invalid(option, expected: "an http:// or https:// address") }
                throw ScanFailure(description: "\(variable)='\(text)' is not an http:// or https:// address")
            }
            return url
        }
        return BookLookup.Settings(openBD: try base(openBD, "REEL_OPENBD_URL", BookLookup.Settings.default.openBD),
                                   ndl: try base(ndl, "REEL_NDL_URL", BookLookup.Settings.default.ndl), timeout: 10)
    }

    /// The error for a book the library already has (nothing is looked up or added): exit 1,
    /// so a script can tell "added" from "not added".
    static func refuseIfPresent(_ isbn: String, _ arguments: ParsedArguments) throws {
        let path = LibraryOption.path(arguments)
        guard FileManager.default.fileExists(atPath: path) else { return }
        guard let there = try StudyLibrary(path: path, create: false).materials().first(where: { $0.isbn == isbn }) else { return }
        throw ScanFailure(description: "ISBN \(isbn) is already in the library as '\(there.title)'; nothing was added (reel materials ls)")
    }

    /// The book `isbn` names, from the cache, openBD or the NDL; an error that says to give
    /// the title by hand (`manual`) when no service knows it or none answers.
    static func lookUpBook(_ isbn: String, lookup: BookLookup, manual: String) async throws -> (BookRecord, cachedAt: Date?) {
        do {
            switch try await lookup.lookUp(isbn: isbn) {
            case .notFound:
                throw ScanFailure(description: "ISBN \(isbn) is in neither openBD nor the National Diet Library; add it by hand:\n  \(manual)")
            case let .found(book, date):
                return (book, date)
            }
        } catch let error as BookLookup.Error {
            throw ScanFailure(description: "\(error)\nadd it by hand:\n  \(manual)")
        }
    }

    /// The lookup with the cache in `$XDG_CACHE_HOME/reel/books`.
    static func bookLookup(_ settings: BookLookup.Settings) -> BookLookup {
        BookLookup(settings: settings, cache: BookLookupCache(directory: UserFolders.current.cache + "/reel/books"))
    }

    /// The line to type when nothing can be looked up.
    static func manualLine(_ isbn: String) -> String {
        "reel materials add --isbn \(isbn) --title 'TITLE' [--author 'AUTHOR'] [--publisher 'PUBLISHER']"
    }

    /// `added 'T' (ISBN X), id 1234abcd`; for a book looked up, what the service said:
    /// `added 'T' by A (ISBN X, from openBD, cached 2026-…), id 1234abcd`.
    static func addedLine(_ material: StudyMaterial, from record: BookRecord?, cachedAt: Date?) -> String {
        var notes: [String] = material.isbn.map { ["ISBN \($0)"] } ?? []
        var byline = ""
        if let record {
            let origin = record.source == .openBD ? "openBD" : "the National Diet Library"
            notes.append("from \(origin)" + (cachedAt.map { ", cached \($0.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day()))" } ?? ""))
            byline = material.author.map { " by \(TerminalText.safe($0))" } ?? ""
        }
        return "added '\(TerminalText.safe(material.title))'" + byline
            + (notes.isEmpty ? "" : " (\(notes.joined(separator: ", ")))") + ", id " + String(material.id.uuidString.lowercased().prefix(8))
    }

    /// The cover saved as `folder/ISBN.EXT`, or nil (none, or it could not be fetched: a warning).
    static func downloadCover(_ record: BookRecord, lookup: BookLookup, folder: String) async -> String? {
        guard let text = record.coverURL, let url = URL(string: text) else { return nil }
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
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            return path
        } catch {
            warn("the cover could not be saved as \(path) (\(ErrorSentence.reason(error))); added without it. "
                 + "Check that the folder beside the library can be written")
            return nil
        }
    }

    private static func warn(_ line: String) {
        ErrorPrinter.failure("reel materials", line)
    }
}
