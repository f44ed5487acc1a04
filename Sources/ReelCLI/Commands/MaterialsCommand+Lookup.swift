import Foundation
import ReelBooks
import ReelCore
import ReelMaterials
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
    static func lookupSettings(_ arguments: ParsedArguments, openBD: Option = openBD, ndl: Option = ndl) throws -> BookLookup.Settings {
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

    /// The intake (library check, lookup, cover, insert) for the library `--library` names,
    /// with the cache in `$XDG_CACHE_HOME/reel/books`; a cover that cannot be had is a warning.
    static func intake(_ arguments: ParsedArguments, settings: BookLookup.Settings) -> MaterialIntake {
        MaterialIntake(libraryPath: LibraryOption.path(arguments), settings: settings,
                       cacheFolder: UserFolders.current.cache + "/reel/books",
                       warn: { ErrorPrinter.failure("reel materials", $0) }, manualLine: manualLine)
    }

    /// The line to type when nothing can be looked up.
    @Sendable static func manualLine(_ isbn: String) -> String {
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
}
