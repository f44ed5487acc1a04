import Foundation
import ReelBooks
import ReelCore
import ReelMaterials
import ReelStore

/// `reel materials add|ls|rm|scan`: books and other study materials.
enum MaterialsCommand {
    static let reference = Positional("MATERIAL", help: "The material's ISBN (-13 or -10) or at least 4 characters of its id.")
    static let picture = Positional("PICTURE", arity: .optional, help: "A picture of the barcode (instead of --source).")
    static let title = Option.value("title", placeholder: "TEXT",
                                    help: "The title; without it, --isbn's title is looked up (openBD, then the National Diet Library).")
    static let isbn = Option.value("isbn", placeholder: "ISBN",
                                   help: "The ISBN-13 (978… or 979…) or an old ISBN-10 (kept as its ISBN-13); hyphens allowed; checked.")
    static let author = Option.value("author", placeholder: "TEXT", help: "The author.")
    static let publisher = Option.value("publisher", placeholder: "TEXT", help: "The publisher.")
    static let cover = Option.value("cover", placeholder: "FILE", help: "A cover picture on disk (must exist).")
    static let json = Option.flag("json", help: "A JSON array with every field (absent ones as null).")

    static let spec = CommandSpec(
        name: "materials",
        summary: "Add, list, remove or scan study materials (books).",
        discussion: """
            A material is what you study with: a title, and when known its ISBN-13, author, \
            publisher and a cover picture. An ISBN is checked (13 digits, check digit, 978/979; an \
            ISBN-10's check digit, then kept as the ISBN-13 with 978) and may be in the library \
            once. `add --isbn` without --title looks the book up as `scan` does (--offline: never). \
            `scan` reads a book's EAN-13 barcode from a picture or a camera, looks the title up in \
            openBD, then the National Diet Library (answers cached in the XDG cache folder), and \
            adds it with its cover; offline or unknown, it prints the `add` line to type instead. \
            A book already in the library is not looked up again: add and scan say so and exit 1.
            """,
        subcommands: [
            CommandSpec(name: "add", summary: "Add a material; with only --isbn, its title, author, publisher and cover are looked up.",
                        options: [title, isbn, author, publisher, cover, offline, openBD, ndl, LibraryOption.option],
                        examples: ["reel materials add --title 'Organic Chemistry' --isbn 978-0-306-40615-7 --author 'K. Sato'",
                                   "reel materials add --isbn 4-10-101001-3"]),
            CommandSpec(name: "ls", summary: "List the materials.", options: [json, openBD, ndl, LibraryOption.option],
                        examples: ["reel materials ls --json"]),
            CommandSpec(name: "rm", summary: "Remove a material from the library.", options: [openBD, ndl, LibraryOption.option],
                        positionals: [reference], examples: ["reel materials rm 9780306406157"]),
            CommandSpec(name: "scan", summary: "Read a book's barcode from a picture or a camera, look it up and add it.",
                        options: [scanSource, scanTimeout, openBD, ndl, LibraryOption.option, VerboseOption.option], positionals: [picture],
                        examples: ["reel materials scan ~/Pictures/barcode.jpg", "reel materials scan --source v4l2:/dev/video0 --timeout 60"]),
        ],
        examples: ["reel materials add --title 'Organic Chemistry' --isbn 978-0-306-40615-7 --author 'K. Sato'",
                   "reel materials add --isbn 4-10-101001-3",
                   "reel materials ls --json", "reel materials rm 9780306406157",
                   "reel materials scan ~/Pictures/barcode.jpg", "reel materials scan --source v4l2:/dev/video0 --timeout 60"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        switch arguments.command.name {
        case "add":
            return try await add(arguments)
        case "scan":
            return try await scan(arguments)
        case "rm":
            let given = try LibraryCommandText.required(arguments, reference)
            let removed = try LibraryOption.openExisting(arguments).removeMaterial((try? ISBN.normalized(given)) ?? given)
            print("removed '\(TerminalText.safe(removed.title))'")
        default:
            let materials = try LibraryOption.openExisting(arguments).materials()
            if arguments.flag(json) {
                print(try StudyMaterialJSON.text(materials, pretty: true))
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

    /// `add`: with `--title`, no network; with only `--isbn`, the title (author, publisher,
    /// cover) looked up as `scan` does, unless `--offline`. A book already in the library is
    /// refused before any lookup.
    static func add(_ arguments: ParsedArguments) async throws -> Int32 {
        var isbnDigits: String?
        if let text = arguments.string(isbn) {
            do { isbnDigits = try ISBN.normalized(text) } catch { throw arguments.invalid(isbn, expected: "an ISBN-13 or ISBN-10: \(error)") }
        }
        let titleText = arguments.string(title) == nil ? nil : try checked(arguments, title, as: .title)
        let authorText = arguments.string(author) == nil ? nil : try checked(arguments, author, as: .author)
        let publisherText = arguments.string(publisher) == nil ? nil : try checked(arguments, publisher, as: .publisher)
        let coverPath = arguments.string(cover).map(LibraryCommandText.absolute)
        if let coverPath, !FileManager.default.fileExists(atPath: coverPath) {
            throw ArgumentParser.Error.invalidValue(command: arguments.path, option: cover.longForm, value: arguments.string(cover) ?? "",
                                                    expected: "a picture file that exists", suggestion: nil)
        }
        guard titleText != nil || (isbnDigits != nil && !arguments.flag(offline)) else {
            let why = isbnDigits == nil ? "give --title, or --isbn to look the title up"
                : "--offline looks nothing up, so give the title: \(manualLine(isbnDigits!))"
            throw arguments.refused("a title is needed: \(why)")
        }
        if let isbnDigits { try MaterialIntake.refuseIfPresent(isbnDigits, libraryPath: LibraryOption.path(arguments)) }
        guard let titleText else {
            let added = try await intake(arguments, settings: try lookupSettings(arguments))
                .addLookedUp(isbn: isbnDigits!, author: authorText, publisher: publisherText, coverPath: coverPath)
            print(addedLine(added.material, from: added.record, cachedAt: added.cachedAt))
            return 0
        }
        let material = try StudyMaterial(isbn: isbnDigits, title: titleText, author: authorText, publisher: publisherText,
                                         coverPath: coverPath, addedAt: Date())
        try LibraryOption.openOrCreate(arguments).addMaterial(material)
        print(addedLine(material, from: nil, cachedAt: nil))
        return 0
    }

    /// The option's text under the library's rule for names (a usage error otherwise).
    static func checked(_ arguments: ParsedArguments, _ option: Option, as field: LibraryName.Field) throws -> String {
        let text = try arguments.require(option)
        do { return try LibraryName.validate(text, as: field) } catch { throw arguments.invalid(option, expected: "a one-line \(field.rawValue) (\(error))") }
    }
}
