import Foundation
import ReelTestSupport
import Testing
@testable import ReelRuntime

/// DurableFile on real folders, and on real faults: a full tmpfs and a read-only one in a
/// private mount namespace (``PrivateDisk``; root needed, as CI runs).
@Suite("DurableFile")
struct DurableFileTests {
    /// Names in `folder` that start with a dot (temporary files).
    private func hidden(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".") }
    }

    private func text(_ path: String) -> String? {
        FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func writesANewFileAndLeavesNoTemporaryFile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try DurableFile.write(Data("hello".utf8), to: folder.path("a.json"))
        #expect(text(folder.path("a.json")) == "hello")
        #expect(hidden(in: folder.url.path).isEmpty)
    }

    @Test func refusesAnExistingFileUnlessAskedToReplace() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("a.json")
        try DurableFile.write(Data("old".utf8), to: path)
        #expect(throws: DurableFile.Error(.place, path, code: EEXIST)) { try DurableFile.write(Data("new".utf8), to: path) }
        #expect(text(path) == "old")
        #expect(hidden(in: folder.url.path).isEmpty)
        let error = DurableFile.Error(.place, path, code: EEXIST)
        #expect(error.description == "\(path) already exists and is left as it is; remove it or choose another name")

        let file = try DurableFile(creating: path, ifExists: .replace)
        try file.write(Data("new".utf8))
        #expect(try file.commit() == true, "a file was replaced")
        #expect(text(path) == "new")
        #expect(hidden(in: folder.url.path).isEmpty)
    }

    @Test func aFileAppearingDuringTheWriteIsNotReplaced() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("a.json")
        let file = try DurableFile(creating: path)  // nothing there yet: accepted
        try file.write(Data("mine".utf8))
        try Data("theirs".utf8).write(to: URL(fileURLWithPath: path))
        #expect(throws: DurableFile.Error(.place, path, code: EEXIST)) { try file.commit() }
        #expect(text(path) == "theirs")
        #expect(hidden(in: folder.url.path).isEmpty)
    }

    @Test func aDiscardedOrReleasedWriteLeavesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let file = try DurableFile(creating: folder.path("big.bin"))
        try file.write(Data(repeating: 7, count: 1 << 20))
        #expect(hidden(in: folder.url.path).count == 1, "the temporary file exists while writing")
        file.discard()
        #expect(throws: DurableFile.Error.self) { try file.commit() }
        do {
            let released = try DurableFile(creating: folder.path("other.bin"))
            try released.write(Data(repeating: 1, count: 100))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test func aMissingFolderIsAnErrorSayingSo() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let path = folder.path("missing/a.json")
        do {
            try DurableFile.write(Data("x".utf8), to: path)
            Issue.record("wrote into a missing folder")
        } catch {
            #expect(error.step == .openFolder && error.code == ENOENT)
            #expect(error.description == "cannot open the folder of \(path): no such file or folder; create the folder \(folder.path("missing")) first")
        }
    }

    @Test func placesAFileAnotherWriterMade() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let finished = folder.path(".out.mp4.video-1-a.mp4"), path = folder.path("out.mp4")
        try Data("movie".utf8).write(to: URL(fileURLWithPath: finished))
        try DurableFile.place(finished, at: path)
        #expect(text(path) == "movie" && !FileManager.default.fileExists(atPath: finished))
        try Data("second".utf8).write(to: URL(fileURLWithPath: finished))
        #expect(throws: DurableFile.Error(.place, path, code: EEXIST)) { try DurableFile.place(finished, at: path) }
        #expect(text(path) == "movie" && hidden(in: folder.url.path).isEmpty, "the refused file is removed, the old one kept")
        try Data("third".utf8).write(to: URL(fileURLWithPath: finished))
        try DurableFile.place(finished, at: path, ifExists: .replace)
        #expect(text(path) == "third" && hidden(in: folder.url.path).isEmpty)
    }

    @Test func inAFolderHandleASymlinkIsNeverFollowed() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try FileManager.default.createDirectory(atPath: folder.path("data"), withIntermediateDirectories: true)
        try Data("secret".utf8).write(to: URL(fileURLWithPath: folder.path("outside")))
        try FileManager.default.createSymbolicLink(atPath: folder.path("data/link"), withDestinationPath: folder.path("outside"))
        let fd = open(folder.path("data"), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        defer { close(fd) }
        #expect(throws: DurableFile.Error(.place, "data/link", code: EEXIST)) {
            _ = try DurableFile(in: fd, name: "link", displayPath: "data/link")
        }
        let file = try DurableFile(in: fd, name: "link", displayPath: "data/link", ifExists: .replace)
        try file.write(Data("new".utf8))
        #expect(try file.commit() == true)
        #expect(text(folder.path("outside")) == "secret", "the link's target is untouched")
        #expect(text(folder.path("data/link")) == "new")
        #expect((try? FileManager.default.destinationOfSymbolicLink(atPath: folder.path("data/link"))) == nil, "the link itself was replaced")
        #expect(throws: DurableFile.Error(.create, "x", code: EINVAL)) { _ = try DurableFile(in: fd, name: "../x", displayPath: "x") }
    }

    @Test func leftoversOfDeadProcessesAreRecognisedAndRemoved() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let mine = DurableFile.temporaryName(for: "state.v1.json")
        #expect(DurableFile.leftover(mine)?.name == "state.v1.json" && DurableFile.leftover(mine)?.pid == getpid())
        #expect(DurableFile.leftover("state.json") == nil && DurableFile.leftover(".state.json.tmp") == nil)
        // A process that has exited (its id reaped), and pid 1, which is always running.
        let exited = try Subprocess.run("/bin/sh", ["-c", "echo $$"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        for name in [".a.json.\(exited).x1.tmp", ".a.json.1.x2.tmp", mine, "a.json"] {
            FileManager.default.createFile(atPath: folder.path(name), contents: Data())
        }
        #expect(DurableFile.removeLeftovers(in: folder.url.path) == 1)
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: folder.url.path)) == [".a.json.1.x2.tmp", mine, "a.json"])
    }

    // MARK: Real faults

    @Test func aFullDiskKeepsTheOldFileAndLeavesNoTemporaryFile() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let path = disk.path + "/state.json"
        try DurableFile.write(Data("old".utf8), to: path)
        disk.fill()
        do {
            try DurableFile.write(Data(repeating: 65, count: 32 << 10), to: path, ifExists: .replace)
            Issue.record("wrote 32 KiB onto a full disk")
        } catch {
            #expect(error.isNoSpace && error.step == .write, "\(error)")
            #expect(error.description == "cannot write \(path): no space left on the device; free some space on that disk and try again")
        }
        #expect(text(path) == "old")
        #expect(hidden(in: disk.path).isEmpty)
    }

    @Test func aStreamThatRunsOutOfSpaceMidwayLeavesNothing() throws {
        let disk = try PrivateDisk(bytes: 256 << 10)
        defer { disk.stop() }
        let file = try DurableFile(creating: disk.path + "/big.bin")
        try file.write(Data(repeating: 1, count: 128 << 10))
        #expect(throws: DurableFile.Error(.write, disk.path + "/big.bin", code: ENOSPC)) {
            for _ in 0..<4 { try file.write(Data(repeating: 2, count: 64 << 10)) }
        }
        #expect(throws: DurableFile.Error(.write, disk.path + "/big.bin", code: ENOSPC)) { try file.commit() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
        try DurableFile.write(Data(repeating: 3, count: 128 << 10), to: disk.path + "/after.bin")  // the space came back
    }

    @Test func aReadOnlyDiskKeepsTheOldFile() throws {
        let disk = try PrivateDisk(bytes: 64 << 10)
        defer { disk.stop() }
        let path = disk.path + "/state.json"
        try DurableFile.write(Data("old".utf8), to: path)
        try disk.remount(readOnly: true)
        do {
            try DurableFile.write(Data("new".utf8), to: path, ifExists: .replace)
            Issue.record("wrote onto a read-only disk")
        } catch {
            #expect(error.step == .create && error.code == EROFS)
            #expect(error.description == "cannot create a temporary file beside \(path): read-only file system; "
                    + "the disk is mounted read-only; choose a folder on a writable disk")
        }
        #expect(text(path) == "old")
        #expect(hidden(in: disk.path).isEmpty)
    }
}
