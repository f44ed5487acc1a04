import Foundation
import ReelTestSupport
import Testing
@testable import ReelExport

/// ExportOutput's placement of a finished file (``DurableFile``): never over a file that appeared
/// during the work unless `--overwrite`; the hidden file gone either way; a full disk said plainly.
@Suite("Export output placement", .serialized)
struct ExportOutputPlacementTests {
    @Test("a file that appeared at -o while exporting is left as it is and the result is not placed; with --overwrite it is replaced")
    func appearedDuringTheWork() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let path = dir.path("out.mp4")
        let output = try ExportOutput(path: path, overwrite: false, inputs: [])
        let hidden = try output.hiddenFile("video")
        try Data("export".utf8).write(to: URL(fileURLWithPath: hidden))
        try Data("someone else's".utf8).write(to: URL(fileURLWithPath: path))
        #expect { try output.place(hidden) } throws: { error in
            "\(error)" == "\(path) appeared while the result was made and is left as it is; choose another -o, or add --overwrite to replace it"
        }
        #expect(FileManager.default.contents(atPath: path) == Data("someone else's".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.mp4"])

        let replacing = try ExportOutput(path: path, overwrite: true, inputs: [])
        let next = try replacing.hiddenFile("video")
        try Data("export".utf8).write(to: URL(fileURLWithPath: next))
        try replacing.place(next)
        #expect(FileManager.default.contents(atPath: path) == Data("export".utf8))
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.url.path) == ["out.mp4"])
        replacing.removeHiddenFiles()
        output.removeHiddenFiles()
    }
}
