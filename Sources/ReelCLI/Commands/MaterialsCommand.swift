import Foundation
import ReelCore
import ReelStore

/// `reel materials add|ls|rm|scan`: books and other study materials.
enum MaterialsCommand {
    static let action = Positional("ACTION", help: "add, ls, rm or scan.")
    static let reference = Positional("MATERIAL", arity: .optional, help: "rm: the material's ISBN or at least 4 characters of its id; scan: a picture of the barcode.")
    static let title = Option.value("title", placeholder: "TEXT", help: "add: the title (required).")
    static let isbn = Option.value("isbn", placeholder: "ISBN", help: "add: the ISBN-13 (978… or 979…; hyphens allowed; checked).")
    static let author = Option.value("author", placeholder: "TEXT", help: "add: the author.")
    static let publisher = Option.value("publisher", placeholder: "TEXT", help: "add: the publisher.")
    static let cover = Option.value("cover", placeholder: "FILE", help: "add: a cover picture on disk (must exist).")
    static let json = Option.flag("json", help: "ls: a JSON array with every field (absent ones as null).")

    static let spec = CommandSpec(
        name: "materials",
        summary: "Add, list, remove or scan study materials (books).",
        discussion: """
            A material is what you study with: a title, and when known its ISBN-13, author, \
            publisher and a cover picture. An ISBN is checked (13 digits, check digit, 978/979) \
            and may be in the library once. `scan` reads a book's EAN-13 barcode from a picture \
            or a camera, looks the title up in openBD, then the National Diet Library (answers \
            cached in the XDG cache folder), and adds it; offline or unknown, it prints the \
            `add` line to type instead.
            """,
        options: [title, isbn, author, publisher, cover, json, scanSource, scanTimeout, openBD, ndl, LibraryOption.option],
        positionals: [action, reference],
        examples: ["reel materials add --title 'Organic Chemistry' --isbn 978-0-306-40615-7 --author 'K. Sato'",
                   "reel materials ls --json", "reel materials rm 9780306406157",
                   "reel materials scan ~/Pictures/barcode.jpg", "reel materials scan --source v4l2:/dev/video0 --timeout 60"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let verb = try LibraryCommandText.action(arguments, action, choices: ["add", "ls", "rm", "scan"])
        switch verb {
        case "add":
            try LibraryCommandText.none(arguments, reference)
            let titleText = try checked(arguments, title, as: .title)
            for (option, field) in [(author, LibraryName.Field.author), (publisher, .publisher)] where arguments.string(option) != nil {
                _ = try checked(arguments, option, as: field)
            }
            let coverPath = arguments.string(cover).map(LibraryCommandText.absolute)
            if let coverPath, !FileManager.default.fileExists(atPath: coverPath) {
                throw ArgumentParser.Error.invalidValue(command: arguments.path, option: cover.longForm, value: arguments.string(cover) ?? "",
                                                        expected: "a picture file that exists", suggestion: nil)
            }
            let material: StudyMaterial
            do {
                material = try StudyMaterial(isbn: arguments.string(isbn), title: titleText, author: arguments.string(author),
                                             publisher: arguments.string(publisher), coverPath: coverPath, addedAt: Date())
            } catch let error as ISBN.Error {
                throw arguments.invalid(isbn, expected: "an ISBN-13: \(error)")
            } catch {
                throw arguments.invalid(title, expected: "\(error)")
            }
            try LibraryOption.openOrCreate(arguments).addMaterial(material)
            print("added '\(TerminalText.safe(material.title))'" + (material.isbn.map { " (ISBN \($0))" } ?? "") + ", id \(material.id.uuidString.lowercased().prefix(8))")
        case "scan":
            return try await scan(arguments)
        case "rm":
            let removed = try LibraryOption.openExisting(arguments).removeMaterial(try LibraryCommandText.required(arguments, reference))
            print("removed '\(TerminalText.safe(removed.title))'")
        default:
            try LibraryCommandText.none(arguments, reference)
            let materials = try LibraryOption.openExisting(arguments).materials()
            if arguments.flag(json) {
                let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!)
                print(try LibraryCommandText.json(materials.map { m -> [String: Any] in
                    ["id": m.id.uuidString.lowercased(), "isbn": m.isbn ?? NSNull(), "title": m.title, "author": m.author ?? NSNull(),
                     "publisher": m.publisher ?? NSNull(), "coverPath": m.coverPath ?? NSNull(), "addedAt": m.addedAt.formatted(style)]
                }))
            } else if materials.isEmpty {
                print("no materials yet (reel materials add --title TEXT [--isbn ISBN])")
            } else {
                print(LibraryCommandText.table([["ID", "ISBN", "TITLE", "AUTHOR"]] + materials.map {
                    [String($0.id.uuidString.lowercased().prefix(8)), $0.isbn ?? "-", $0.title, $0.author ?? "-"]
                }, maximumWidths: [nil, nil, 50, 30]), terminator: "")
            }
        }
        return 0
    }

    /// The option's text under the library's rule for names (a usage error otherwise).
    static func checked(_ arguments: ParsedArguments, _ option: Option, as field: LibraryName.Field) throws -> String {
        let text = try arguments.require(option)
        do { return try LibraryName.validate(text, as: field) } catch { throw arguments.invalid(option, expected: "a one-line \(field.rawValue) (\(error))") }
    }
}
