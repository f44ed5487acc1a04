import Foundation
import ReelBooks
import ReelCore
import ReelHTTP
import ReelMaterials
import ReelRuntime
import ReelStore

/// The materials page's routes: the books, their covers, adding by ISBN (looked up as
/// `reel materials add --isbn` looks it up) or by hand, removing.
extension StudioServer {
    func answerMaterials(_ route: MaterialsRoute, request: HTTPRequest, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .add:
            let added = try addMaterial(try decode(body) as MaterialRequest)
            libraryChanged()
            return json(try Self.encoded(added), status: 201)
        case .materials:
            return json(try Self.encoded(try library.materials().map(StudyMaterialJSON.init)))
        case .cover(let id):
            guard let material = try library.materials().first(where: { $0.id == id }) else {
                throw StudioRefusal(status: 404, message: "no material \(id.uuidString.lowercased()) in the library")
            }
            guard let path = material.coverPath else { throw StudioRefusal(status: 404, message: "'\(material.title)' has no cover") }
            return try SessionFile.serve(path, request: request, contentType: Self.pictureType(path), cacheControl: "private, max-age=3600")
        case .scan:
            let scan: ScanRequest = (body?.isEmpty ?? true) ? ScanRequest() : try decode(body)
            let seconds = min(120, max(1, scan.timeout ?? 30))
            let found = try camera.scanBarcode(timeout: seconds)
            return json(StudioJSON.line(ScanAnswer(found, seconds: seconds, problem: camera.problem)))
        case .remove(let id):
            let removed = try library.removeMaterial(id)
            libraryChanged()
            return json(try Self.encoded(StudyMaterialJSON(removed)))
        }
    }

    /// The backup view's routes: the backup's state, starting one, a restore.
    func answerBackup(_ route: BackupRoute, body: [UInt8]?) throws(StudioRefusal) -> HTTPResponse {
        switch route {
        case .start:
            return json(StudioJSON.line(try backup.start(into: (try decode(body) as BackupRequest).folder)), status: 202)
        case .state:
            return json(StudioJSON.line(backup.current))
        case .restore:
            let answer = try backup.restore(try decode(body) as RestoreRequest)
            if !answer.dryRun { libraryChanged() }
            return json(StudioJSON.line(answer))
        }
    }

    /// `POST /api/materials`, as `reel materials add`: with a title, added as given (nothing
    /// looked up); with only an ISBN, its title, author, publisher and cover looked up
    /// (openBD, then the National Diet Library). Each field is checked by the CLI's rules; an
    /// ISBN already in the library is refused before any lookup.
    func addMaterial(_ request: MaterialRequest) throws(StudioRefusal) -> MaterialAnswer {
        let given = try request.checked()
        if let isbn = given.isbn {
            do { try MaterialIntake.refuseIfPresent(isbn, libraryPath: settings.libraryPath) } catch {
                throw StudioRefusal(status: 409, message: "\(error)")
            }
        }
        guard let title = given.title else {
            guard let isbn = given.isbn else { throw StudioRefusal(status: 400, message: "give a title, or an ISBN to look the title up") }
            return try lookUpAndAdd(isbn, author: given.author, publisher: given.publisher)
        }
        do {
            let material = try StudyMaterial(isbn: given.isbn, title: title, author: given.author, publisher: given.publisher,
                                             coverPath: nil, addedAt: Date())
            try library.withOpen(create: true) { try $0.addMaterial(material) }
            return MaterialAnswer(material: StudyMaterialJSON(material), source: nil, warnings: [])
        } catch let refusal as StudioRefusal {
            throw refusal
        } catch {
            throw StudioRefusal(status: 400, message: "\(error)")
        }
    }

    /// The lookup and the cover, awaited on this request's thread (one thread per connection;
    /// the services' timeout bounds the wait).
    private func lookUpAndAdd(_ isbn: String, author: String?, publisher: String?) throws(StudioRefusal) -> MaterialAnswer {
        let warnings = Locked<[String]>([])
        let intake = MaterialIntake(libraryPath: settings.libraryPath, settings: settings.bookLookup,
                                    cacheFolder: settings.folders.cache + "/reel/books",
                                    warn: { line in warnings.withLock { $0.append(line) } },
                                    manualLine: { _ in "type its title (and author) below and add it again" })
        let outcome = BlockingWait.result { try await intake.addLookedUp(isbn: isbn, author: author, publisher: publisher) }
        switch outcome {
        case .success(let added):
            let origin = added.record.source == .openBD ? "openBD" : "the National Diet Library"
            return MaterialAnswer(material: StudyMaterialJSON(added.material), source: origin, warnings: warnings.withLock { $0 })
        case .failure(let error as MaterialIntake.Failure):
            throw StudioRefusal(status: 502, message: error.description)
        case .failure(let error):
            throw StudioRefusal(status: 500, message: "\(error)")
        }
    }

    static func pictureType(_ path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "png": "image/png"
        case "webp": "image/webp"
        default: "image/jpeg"
        }
    }
}

/// The body of `POST /api/materials/scan` (optional): `{"timeout": SECONDS}` (1 to 120, default 30).
struct ScanRequest: Decodable {
    var timeout: Double?
}

/// What a scan saw: the book's ISBN, or null and why (the codes seen that are no book's, the
/// source's problem), in words for the page.
struct ScanAnswer: Encodable {
    @NullWhenNil var isbn: String? = nil
    var otherCodes: [String]
    @NullWhenNil var message: String? = nil

    init(_ found: BarcodeScan.Found, seconds: Double, problem: String?) {
        isbn = found.isbn
        otherCodes = found.otherCodes
        guard found.isbn == nil else { return }
        var text = "no book barcode seen in \(Int(seconds)) s"
        if let code = found.otherCodes.first {
            text += " (saw \(code), which is no book's: a book's starts with 978 or 979)"
        }
        if let problem { text += "; the source has no picture: \(problem)" } else { text += "; hold the barcode flat and close to the camera, or type the ISBN" }
        message = text
    }

}

/// The body of `POST /api/backup`.
struct BackupRequest: Decodable {
    var folder: String
}

/// Runs async work to its end from a thread that may block (a libmicrohttpd connection's).
enum BlockingWait {
    static func result<T: Sendable>(_ work: @escaping @Sendable () async throws -> T) -> Result<T, any Error> {
        let done = DispatchSemaphore(value: 0)
        let outcome = Locked<Result<T, any Error>?>(nil)
        Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        return outcome.withLock { $0 }!
    }
}

/// The body of `POST /api/materials`: `{"isbn": "…", "title": "…", "author": "…", "publisher": "…"}`,
/// each optional; a title, an ISBN, or both.
struct MaterialRequest: Decodable {
    var isbn: String?
    var title: String?
    var author: String?
    var publisher: String?

    /// Each field checked by the rules `reel materials add` applies; empty ones left out.
    func checked() throws(StudioRefusal) -> (isbn: String?, title: String?, author: String?, publisher: String?) {
        func name(_ text: String?, _ field: LibraryName.Field) throws(StudioRefusal) -> String? {
            guard let text = text?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
            do { return try LibraryName.validate(text, as: field) } catch {
                throw StudioRefusal(status: 400, message: "the \(field.rawValue) cannot be used: \(error)")
            }
        }
        var digits: String?
        if let text = isbn?.trimmingCharacters(in: .whitespaces), !text.isEmpty {
            do { digits = try ISBN.normalized(text) } catch { throw StudioRefusal(status: 400, message: "\(error)") }
        }
        return (digits, try name(title, .title), try name(author, .author), try name(publisher, .publisher))
    }
}

/// The answer of `POST /api/materials`: what was added, where its details came from (null
/// when typed), and what went wrong on the side (a cover that could not be had).
struct MaterialAnswer: Encodable {
    var material: StudyMaterialJSON
    @NullWhenNil var source: String? = nil
    var warnings: [String]

}
