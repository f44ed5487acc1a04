import Foundation
import ReelBooks
import ReelCore
import ReelMaterials
import ReelMedia
import ReelStore

/// `reel materials scan IMAGE | --source SRC`: barcode → ISBN → openBD / NDL → the library.
extension MaterialsCommand {
    static let scanSource = Option.value("source", short: "s", placeholder: "SRC",
                                         help: "Read frames from a capture source (test, file:PATH, v4l2:/dev/videoN) instead of a picture.")
    static let scanTimeout = Option.value("timeout", as: Duration.self, default: "30s", help: "With --source: give up after this long.")

    /// Reads the barcode, then as ``add(_:)`` with `--isbn`: nothing looked up for a book
    /// already in the library (exit 1), else openBD → NDL, the cover, the library.
    static func scan(_ arguments: ParsedArguments) async throws -> Int32 {
        VerboseOption.apply(arguments, command: "reel materials scan")
        let settings = try lookupSettings(arguments)
        let found: BarcodeScan.Found
        if let sourceText = arguments.string(scanSource) {
            try LibraryCommandText.none(arguments, picture)
            let spec: SourceSpec
            do { spec = try SourceSpec(parsing: sourceText) } catch let error as SourceSpec.Error {
                throw arguments.invalid(scanSource, expected: error.expected)
            }
            let timeout = try arguments.require(scanTimeout, as: Duration.self).secondsValue
            found = try BarcodeScan.scan(source: spec, timeout: timeout)
            if found.isbn == nil {
                throw ScanFailure(description: "no book barcode seen from \(sourceText) in \(Int(timeout)) s" + otherCodesNote(found)
                                  + "; hold the barcode flat and close, or type it: reel materials add --isbn ISBN --title TEXT")
            }
        } else {
            let image = LibraryCommandText.absolute(try LibraryCommandText.required(arguments, picture))
            guard FileManager.default.fileExists(atPath: image) else {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: picture.name, value: image,
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
        let intake = intake(arguments, settings: settings)
        try intake.refuseIfPresent(isbn)  // before any network: the library already says what it is
        let added = try await intake.addLookedUp(isbn: isbn)
        print(addedLine(added.material, from: added.record, cachedAt: added.cachedAt))
        return 0
    }

    private static func otherCodesNote(_ found: BarcodeScan.Found) -> String {
        guard let code = found.otherCodes.first else { return "" }
        do { _ = try ISBN.validate(code); return "" } catch { return " (saw \(error))" }
    }
}
