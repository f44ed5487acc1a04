import Foundation
import ReelBooks
import ReelCore
import ReelMedia
import ReelStore

/// `reel materials scan IMAGE | --source SRC`: barcode → ISBN → openBD / NDL → the library.
extension MaterialsCommand {
    static let scanSource = Option.value("source", short: "s", placeholder: "SRC",
                                         help: "scan: read frames from a capture source (test, file:PATH, v4l2:/dev/videoN) instead of a picture.")
    static let scanTimeout = Option.value("timeout", placeholder: "DURATION", help: "scan --source: give up after this long (default 30s).")
    static let openBD = Option.value("openbd", placeholder: "URL",
                                     help: "scan: openBD's base address (default $REEL_OPENBD_URL or https://api.openbd.jp/v1).")
    static let ndl = Option.value("ndl", placeholder: "URL",
                                  help: "scan: the National Diet Library search's base (default $REEL_NDL_URL or https://ndlsearch.ndl.go.jp).")

    /// Why a scan added nothing; the message says what to do.
    struct ScanFailure: Error, CustomStringConvertible {
        var description: String
    }

    static func scan(_ arguments: ParsedArguments) async throws -> Int32 {
        FFmpegLog.configure(level: .error)
        let environment = ProcessInfo.processInfo.environment
        func base(_ option: Option, _ variable: String, _ fallback: URL) throws -> URL {
            guard let text = arguments.string(option) ?? environment[variable], !text.isEmpty else { return fallback }
            guard let url = URL(string: text), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                if arguments.string(option) != nil { throw arguments.invalid(option, expected: "an http:// or https:// address") }
                throw ScanFailure(description: "\(variable)='\(text)' is not an http:// or https:// address")
            }
            return url
        }
        let settings = BookLookup.Settings(openBD: try base(openBD, "REEL_OPENBD_URL", BookLookup.Settings.default.openBD),
                                           ndl: try base(ndl, "REEL_NDL_URL", BookLookup.Settings.default.ndl), timeout: 10)
        let found: BarcodeScan.Found
        if let sourceText = arguments.string(scanSource) {
            try LibraryCommandText.none(arguments, reference)
            let spec: SourceSpec
            do { spec = try SourceSpec(parsing: sourceText) } catch let error as SourceSpec.Error {
                throw arguments.invalid(scanSource, expected: error.reason + "; use test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN")
            }
            let timeout = try arguments.seconds(scanTimeout) ?? 30
            found = try BarcodeScan.scan(source: spec, timeout: timeout)
            if found.isbn == nil {
                throw ScanFailure(description: "no book barcode seen from \(sourceText) in \(Int(timeout)) s" + otherCodesNote(found)
                                  + "; hold the barcode flat and close, or type it: reel materials add --isbn ISBN --title TEXT")
            }
        } else {
            let image = LibraryCommandText.absolute(try LibraryCommandText.required(arguments, reference))
            guard FileManager.default.fileExists(atPath: image) else {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: reference.name, value: image,
                                                        expected: "a picture file that exists", suggestion: nil)
            }
            found = try BarcodeScan.scan(imagePath: image)
            if found.isbn == nil {
                throw ScanFailure(description: "no book barcode (EAN-13 starting 978 or 979) found in \(image)" + otherCodesNote(found)
                                  + "; take a sharper, straighter picture, or type it: reel materials add --isbn ISBN --title TEXT")
            }
        }
        let isbn = found.isbn!
        print("read ISBN \(isbn)")
        let manual = "reel materials add --isbn \(isbn) --title 'TITLE' [--author 'AUTHOR'] [--publisher 'PUBLISHER']"
        let lookup = BookLookup(settings: settings, cache: BookLookupCache(directory: UserFolders.current.cache + "/reel/books"))
        let record: BookRecord
        let cachedAt: Date?
        do {
            switch try await lookup.lookUp(isbn: isbn) {
            case .notFound:
                throw ScanFailure(description: "ISBN \(isbn) is in neither openBD nor the National Diet Library; add it by hand:\n  \(manual)")
            case let .found(book, date):
                (record, cachedAt) = (book, date)
            }
        } catch let error as BookLookup.Error {
            throw ScanFailure(description: "\(error)\nadd it by hand:\n  \(manual)")
        }
        let libraryPath = LibraryOption.path(arguments)
        let coverPath = await downloadCover(record, lookup: lookup, folder: (libraryPath as NSString).deletingLastPathComponent + "/covers")
        // A book database's text is cleaned, not refused: control characters become spaces.
        let material = try StudyMaterial(isbn: isbn, title: LibraryName.cleaned(record.title, as: .title) ?? "ISBN \(isbn)",
                                         author: record.author.flatMap { LibraryName.cleaned($0, as: .author) },
                                         publisher: record.publisher.flatMap { LibraryName.cleaned($0, as: .publisher) },
                                         coverPath: coverPath, addedAt: Date())
        try LibraryOption.openOrCreate(arguments).addMaterial(material)
        let origin = record.source == .openBD ? "openBD" : "the National Diet Library"
        let cacheNote = cachedAt.map { ", cached \($0.formatted(Date.ISO8601FormatStyle(timeZone: .current).year().month().day()))" } ?? ""
        print("added '\(TerminalText.safe(material.title))'" + (material.author.map { " by \(TerminalText.safe($0))" } ?? "") + " (ISBN \(isbn), from \(origin)\(cacheNote)), id "
              + String(material.id.uuidString.lowercased().prefix(8)))
        return 0
    }

    private static func otherCodesNote(_ found: BarcodeScan.Found) -> String {
        guard let code = found.otherCodes.first else { return "" }
        do { _ = try ISBN.validate(code); return "" } catch { return " (saw \(error))" }
    }

    /// The cover saved as `folder/ISBN.EXT`, or nil (none, or it could not be fetched: a warning).
    private static func downloadCover(_ record: BookRecord, lookup: BookLookup, folder: String) async -> String? {
        guard let text = record.coverURL, let url = URL(string: text) else { return nil }
        let ext = ["jpg", "jpeg", "png", "webp"].contains(url.pathExtension.lowercased()) ? url.pathExtension.lowercased() : "jpg"
        let path = folder + "/\(record.isbn).\(ext)"
        do {
            let data = try await lookup.get(url)
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try data.write(to: URL(fileURLWithPath: path), options: .atomic)
            return path
        } catch {
            FileHandle.standardError.write(Data("reel materials: the cover \(text) could not be fetched (\(error)); added without it\n".utf8))
            return nil
        }
    }
}
