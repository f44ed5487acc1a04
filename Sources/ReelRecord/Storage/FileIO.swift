#if canImport(Glibc)
import Glibc
#endif
import Foundation
import ReelRuntime

/// A file operation that failed, with the path and the system's reason.
public struct FileError: Error, CustomStringConvertible, Sendable {
    /// What Reel was doing, e.g. "creating".
    public var operation: String
    /// The file or folder.
    public var path: String
    /// `errno` at the failure.
    public var code: Int32
    /// The whole sentence, when a ``DurableFile`` write failed (it says what to do).
    private var sentence: String?

    /// The failure of `operation` on `path` with the current `errno`.
    init(_ operation: String, _ path: String, code: Int32 = errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// A failed durable write, in its own words.
    init(_ error: DurableFile.Error) {
        self.init("writing", error.path, code: error.code)
        sentence = error.description
    }

    public var description: String { sentence ?? "\(operation) \(path): \(String(cString: strerror(code)))" }
}

/// The file operations the recorder needs to be crash-safe: create without replacing, append,
/// sync, replace atomically, and sync a folder so a rename survives a power cut.
enum FileIO {
    /// Flushes `path`'s data and metadata to the disk.
    static func sync(path: String) throws(FileError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("opening", path) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw FileError("syncing", path) }
    }

    /// Flushes a folder (its list of names) to the disk, after a create, rename or remove.
    static func syncFolder(_ path: String) throws(FileError) {
        do { try DurableFile.syncFolder(path) } catch { throw FileError(error) }
    }

    /// The folder part of `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        let folder = (path as NSString).deletingLastPathComponent
        return folder.isEmpty ? "." : folder
    }

    /// Creates `path` and its missing parents; returns the folders it created, outermost first.
    static func makeFolders(_ path: String) throws(FileError) -> [String] {
        var missing: [String] = []
        var current = path
        var isFolder: ObjCBool = false
        while !FileManager.default.fileExists(atPath: current, isDirectory: &isFolder) {
            missing.insert(current, at: 0)
            let parent = (current as NSString).deletingLastPathComponent
            if parent == current || parent.isEmpty { break }
            current = parent
        }
        if FileManager.default.fileExists(atPath: current, isDirectory: &isFolder), !isFolder.boolValue {
            throw FileError("using", current, code: ENOTDIR)
        }
        var created: [String] = []
        for folder in missing {
            if mkdir(folder, 0o755) != 0 && errno != EEXIST {
                let code = errno
                for made in created.reversed() { rmdir(made) }
                throw FileError("creating folder", folder, code: code)
            }
            created.append(folder)
        }
        return created
    }

    /// Proves a file can be created in `folder` (creates one and removes it): a read-only disk,
    /// missing permission or a full inode table show up before anything is recorded.
    static func checkWritable(folder: String) throws(FileError) {
        let probe = folder + "/.reel-write-check-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileError("cannot write in", folder) }
        let wrote = write(fd, "reel", 4)
        let code = errno
        close(fd)
        unlink(probe)
        guard wrote == 4 else { throw FileError("cannot write in", folder, code: code) }
    }

    /// Writes `data` to `path` atomically, replacing any file there (``DurableFile``): a reader
    /// sees the old file or the new one, never a part of either; after a crash one of them is there.
    static func writeAtomically(_ data: Data, to path: String) throws(FileError) {
        do { try DurableFile.write(data, to: path, ifExists: .replace) } catch { throw FileError(error) }
    }

    /// Writes all of `data` to `fd`, retrying short writes and interruptions.
    static func writeAll(fd: Int32, _ data: Data, path: String) throws(FileError) {
        var failure: FileError?
        data.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(fd, raw.baseAddress! + offset, raw.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    failure = FileError("writing", path)
                    return
                }
                offset += n
            }
        }
        if let failure { throw failure }
    }

    /// Free bytes for an unprivileged user on the disk holding `path`, or nil.
    static func freeBytes(at path: String) -> Int64? {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return nil }
        return Int64(stats.f_bavail) * Int64(stats.f_frsize)
    }
}

/// A file that is only ever appended to (the recording in progress): created fresh (never
/// replacing one), written in order, synced on request.
final class AppendOnlyFile {
    /// Where it is.
    let path: String
    /// Bytes written.
    private(set) var size: Int64 = 0
    private var fd: Int32

    /// Creates `path`; fails if it exists.
    init(creating path: String) throws(FileError) {
        fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw FileError("creating", path) }
        self.path = path
    }

    deinit { close() }

    /// Appends `data`.
    func append(_ data: Data) throws(FileError) {
        guard !data.isEmpty else { return }
        guard fd >= 0 else { throw FileError("writing", path, code: EBADF) }
        try FileIO.writeAll(fd: fd, data, path: path)
        size += Int64(data.count)
    }

    /// Flushes what was appended to the disk (data only: the size is part of it).
    func sync() throws(FileError) {
        guard fd >= 0 else { return }
        guard fdatasync(fd) == 0 else { throw FileError("syncing", path) }
    }

    /// Closes the file (idempotent).
    func close() {
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
    }
}

extension FileIO {
    /// `path` itself, or its nearest folder that exists (what a file there would be on).
    static func existingAncestor(_ path: String) -> String {
        var current = path
        while !current.isEmpty, current != "/", !FileManager.default.fileExists(atPath: current) {
            current = (current as NSString).deletingLastPathComponent
        }
        return current.isEmpty ? "/" : current
    }

    /// The device (file system) holding `path`, or nil.
    static func device(_ path: String) -> UInt64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return UInt64(info.st_dev)
    }

    /// "1.50 GB" (decimal units, as the status line).
    static func bytesText(_ count: Int64) -> String {
        let units = ["B", "kB", "MB", "GB", "TB"]
        var value = Double(count)
        var unit = 0
        while abs(value) >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format: "%.2f %@", value, units[unit])
    }

    /// "1 GiB", "256 MiB" (binary units, for the fixed reserves).
    static func binaryBytesText(_ count: Int64) -> String {
        count >= 1 << 30 && count % (1 << 30) == 0 ? "\(count >> 30) GiB"
            : count >= 1 << 20 && count % (1 << 20) == 0 ? "\(count >> 20) MiB" : bytesText(count)
    }
}
