import Foundation
import ReelCore
import ReelImage
import ReelOverlay
import ReelStore
import ReelTestSupport
import Testing

@Suite("OverlayAssetShelf and reel overlay import/assets/rm")
struct OverlayAssetShelfTests {
    func shelf(_ folder: TemporaryDirectory) throws -> OverlayAssetShelf {
        OverlayAssetShelf(library: try StudyLibrary(path: folder.path("lib/library.sqlite")))
    }

    func keptFiles(_ shelf: OverlayAssetShelf) throws -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: shelf.folder))?.sorted() ?? []
    }

    @Test("an import keeps a copy under the asset's id, records what it is, and rm removes both")
    func importListRemove() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["png", folder.path("Cat sticker.png"), "40", "30", "65535,0,0,30000"])
        let shelf = try shelf(folder)
        let date = Date(timeIntervalSince1970: 1_780_000_000)
        let asset = try shelf.importImage(at: folder.path("Cat sticker.png"), now: date)
        #expect(asset.name == "Cat sticker" && asset.width == 40 && asset.height == 30 && asset.hasAlpha)
        #expect(asset.format == "PNG" && asset.profile == "sRGB" && asset.origin == .imported && asset.addedAt == date)
        #expect(try keptFiles(shelf) == [asset.fileName])
        #expect(try Data(contentsOf: URL(fileURLWithPath: shelf.path(of: asset))) == Data(contentsOf: folder.url.appendingPathComponent("Cat sticker.png")))
        // The original may go: the library keeps its own copy.
        try FileManager.default.removeItem(atPath: folder.path("Cat sticker.png"))
        #expect(try shelf.assets() == [asset])
        #expect(try shelf.find("Cat sticker").asset == asset)
        #expect(try shelf.find(String(asset.id.uuidString.prefix(6))).asset == asset)
        #expect(try Artwork(imageAt: try shelf.find("Cat sticker").path).width == 40)
        try shelf.remove("Cat sticker")
        #expect(try shelf.assets().isEmpty && keptFiles(shelf).isEmpty)
    }

    @Test("what cannot be artwork is refused and leaves neither a file nor a record")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let shelf = try shelf(folder)
        try "text".write(toFile: folder.path("notes.png"), atomically: true, encoding: .utf8)
        try StillsTool.run(["oversized", folder.path("huge.png"), "20000", "20000"])
        // A 65 MiB file (sparse): refused by its size before a byte is read.
        let big = folder.path("big.png")
        FileManager.default.createFile(atPath: big, contents: nil)
        try FileHandle(forWritingAtPath: big)!.truncate(atOffset: 65 * 1_048_576)
        let cases = [("notes.png", "is not an image Reel can read"), ("huge.png", "20000x20000"),
                     ("big.png", "65 MiB; an artwork file may be at most 64 MiB"), ("missing.png", "No such file"),
                     ("", "not a regular file")]
        for (name, words) in cases {
            do {
                try shelf.importImage(at: name.isEmpty ? folder.url.path : folder.path(name))
                Issue.record("\(name) was imported")
            } catch {
                #expect("\(error)".contains(words), "\(name): \(error)")
                #expect(!"\(error)".contains("overlay-assets"), "the error names the user's file, not the copy: \(error)")
            }
        }
        #expect(try shelf.assets().isEmpty && keptFiles(shelf).isEmpty)
    }

    @Test("an asset whose file went away says how to recover; a taken name gets a number; names and ids that match nothing are errors")
    func lookups() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["png", folder.path("a.png"), "8", "8", "0,0,65535,65535"])
        let shelf = try shelf(folder)
        let first = try shelf.importImage(at: folder.path("a.png"), name: "same")
        let second = try shelf.importImage(at: folder.path("a.png"), name: "same")
        #expect(second.name == "same 2")
        #expect(try shelf.find("same").asset.id == first.id && shelf.find("same 2").asset.id == second.id)
        #expect(throws: (any Error).self) { try shelf.find("abc") }
        #expect(throws: (any Error).self) { try shelf.find("ffffffff") }
        try FileManager.default.removeItem(atPath: shelf.path(of: first))
        do {
            _ = try shelf.find(String(first.id.uuidString.prefix(8)))
            Issue.record("a missing file was found")
        } catch {
            #expect("\(error)".contains("is gone") && "\(error)".contains("reel overlay rm"), "\(error)")
        }
    }

    @Test("the CLI: import (also as a file manager's Open with runs it), assets, snap --asset, rm")
    func commandLine() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = ["--library", folder.path("lib/library.sqlite")]
        try StillsTool.run(["png", folder.path("frame.png"), "90", "160", "0,65535,0,20000"])
        // The desktop entry's Exec line, as a file manager runs it with one file for %f.
        let entry = try String(contentsOfFile: URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../scripts/reel-overlay-import.desktop.in").standardized.path, encoding: .utf8)
        let exec = try #require(entry.split(separator: "\n").first { $0.hasPrefix("Exec=") })
        let words = exec.dropFirst(5).split(separator: " ").map(String.init)
        #expect(words.first == "@BIN@" && words.last == "%f" && entry.contains("MimeType=image/png;"))
        let imported = try ReelBinary.run(Array(words.dropFirst().dropLast()) + [folder.path("frame.png")] + library)
        #expect(imported.status == 0 && imported.stdout.contains("imported 'frame'") && imported.stdout.contains("PNG 90x160 with alpha"),
                "\(imported.stdout) \(imported.stderr)")
        let listed = try ReelBinary.run(["overlay", "assets", "--json"] + library)
        let assets = try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]
        #expect(assets?.count == 1 && assets?.first?["name"] as? String == "frame" && assets?.first?["hasAlpha"] as? Bool == true)
        let snapped = try ReelBinary.run(["overlay", "snap", "--asset", "frame", "-o", folder.path("p.jpg")] + library)
        #expect(snapped.status == 0, "\(snapped.stderr)")
        let both = try ReelBinary.run(["overlay", "snap", "--asset", "frame", "--art", folder.path("frame.png"), "-o", folder.path("q.jpg")] + library)
        #expect(both.status == 64 && both.stderr.contains("--art or --asset"), "\(both.stderr)")
        let removed = try ReelBinary.run(["overlay", "rm", "frame"] + library)
        #expect(removed.status == 0 && removed.stdout.contains("removed 'frame'"))
        let empty = try ReelBinary.run(["overlay", "assets", "--json"] + library)
        #expect(empty.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        let gone = try ReelBinary.run(["overlay", "snap", "--asset", "frame", "-o", folder.path("r.jpg")] + library)
        #expect(gone.status == 1 && gone.stderr.contains("no asset is named 'frame'"), "\(gone.stderr)")
    }
}
