import Foundation
import ReelCompose
import ReelCore
import ReelRuntime

/// The stamp images the review can put over a face instead of the mosaic: PNG files in
/// `reel/stamps` of the XDG data folder, named as ``StampName`` allows. Uploads are judged by
/// their header (``PNGHeader``), written under a hidden name, decoded whole as the export will
/// decode them, and only then given their name: a damaged upload never shows in the list.
final class StudioStamps: Sendable {
    /// One stamp: `GET /api/stamps` lists them.
    struct Answer: Encodable, Sendable {
        var name: String
        var width: Int, height: Int
        var bytes: Int64
    }

    let folder: String
    private let adding = NSLock()

    init(folder: String) {
        self.folder = folder
    }

    /// The stamps, by name; a file that is not a readable PNG is left out.
    func list() -> [Answer] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { StampName.isValid($0) }.sorted().compactMap { try? describe($0) }
    }

    /// The path of the stamp `name`; 404 when there is none.
    func path(of name: String) throws(StudioRefusal) -> String {
        let path = folder + "/" + name
        guard StampName.isValid(name), FileManager.default.fileExists(atPath: path) else {
            throw StudioRefusal(status: 404, message: "there is no stamp \(name); GET /api/stamps lists them, POST /api/stamps adds one")
        }
        return path
    }

    /// Keeps `bytes` as a stamp named after `original` (numbered when the name is taken).
    func add(original: String?, bytes: [UInt8]) throws(StudioRefusal) -> Answer {
        if let problem = PNGHeader.stampProblem(bytes) { throw StudioRefusal(status: 415, message: problem) }
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw StudioRefusal(status: 500, message: "the stamps folder \(folder) cannot be made: \(error)")
        }
        let hidden = folder + "/.upload-\(UUID().uuidString.lowercased()).png"
        defer { unlink(hidden) }
        do {
            try DurableFile.write(Data(bytes), to: hidden, ifExists: .fail)
        } catch {
            throw StudioRefusal(status: 500, message: "the stamp could not be stored in \(folder): \(error)")
        }
        do { _ = try RGBAImage(pngAt: hidden) } catch {
            throw StudioRefusal(status: 415, message: "the PNG cannot be decoded: \(error)")
        }
        adding.lock()
        defer { adding.unlock() }
        let base = StampName.from(original: original ?? "stamp.png")
        for n in 1...1000 {
            let name = StampName.numbered(base, n)
            if link(hidden, folder + "/" + name) == 0 { return try describe(name) }
            guard errno == EEXIST else {
                throw StudioRefusal(status: 500, message: "the stamp could not be named \(name): \(String(cString: strerror(errno)))")
            }
        }
        throw StudioRefusal(status: 409, message: "there are too many stamps named like \(base); rename the file")
    }

    private func describe(_ name: String) throws(StudioRefusal) -> Answer {
        let path = folder + "/" + name
        guard let file = FileHandle(forReadingAtPath: path) else { throw StudioRefusal(status: 404, message: "\(path) cannot be read") }
        defer { try? file.close() }
        let head = [UInt8]((try? file.read(upToCount: 24)) ?? Data())
        let end = (try? file.seekToEnd()) ?? 0
        guard let (width, height) = PNGHeader.size(head) else { throw StudioRefusal(status: 500, message: "\(path) is not a PNG") }
        return Answer(name: name, width: width, height: height, bytes: Int64(end))
    }
}
