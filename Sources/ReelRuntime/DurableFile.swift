import CLinux
import Foundation
import ReelCore

/// A file placed so that a crash or a power cut leaves either the old file or the whole new
/// one, never a part: Reel's one way to write a file it keeps.
///
/// The steps, each checked: the destination's folder is opened (it must exist and take files;
/// an existing file is refused unless the caller asks to replace it); a hidden temporary file
/// `.NAME.PID.RANDOM.tmp` is created in that folder (so a leftover of a dead process is
/// recognisable, see ``leftover(_:)``); the bytes are written (whole, or streamed through
/// ``write(_:)-(UnsafeRawBufferPointer)`` and ``fileDescriptor``); the file is fsynced; it is
/// renamed onto its name (`renameat2(RENAME_NOREPLACE)`, or `link` + `unlink` where a file
/// system lacks it, when nothing may be replaced); the folder is fsynced. Every failure removes
/// the temporary file. Used by one thread at a time.
///
/// Two ways in: a path (``init(creating:ifExists:permissions:)``, the folder opened from it),
/// or a folder descriptor and a plain name (``init(in:name:displayPath:ifExists:permissions:)``)
/// for callers that reach their folder without following symlinks (the origin): the temporary
/// file is created with `O_NOFOLLOW | O_EXCL` and every step is relative to that descriptor, so
/// nothing is written outside it and no symlink is followed.
public final class DurableFile {
    /// What to do when a file already has the destination's name.
    public enum IfExists: Sendable {
        /// Refuse: the existing file stays and the write fails with `EEXIST`.
        case fail
        /// Replace it in one atomic rename (readers see the old file or the new one).
        case replace
    }

    /// The destination, as the caller names it in messages.
    public let path: String
    /// What happens to a file already at the destination.
    public let ifExists: IfExists
    /// The temporary file's name in the destination's folder.
    public let temporaryName: String
    private let name: String
    /// The folder's path, when the file was started from a path (for ``handOver(sync:)``).
    private var folderPath: String?
    private var folder: Int32
    private var fd: Int32
    private var failure: Error?
    private var finished = false

    /// Starts a new file at `path` (its folder must exist). `permissions` are the new file's
    /// mode before the umask.
    public convenience init(creating path: String, ifExists: IfExists = .fail, permissions: mode_t = 0o644) throws(Error) {
        let folderPath = Self.folder(of: path)
        let folder = open(folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { throw Error(.openFolder, path, code: errno) }
        defer { close(folder) }
        try self.init(in: folder, name: DurableFile.name(of: path), displayPath: path,
                      ifExists: ifExists, permissions: permissions)
        self.folderPath = folderPath
    }

    /// Starts a new file named `name` (one plain component) in the open folder `folder`, which
    /// the caller keeps (it is duplicated); `displayPath` names it in messages. The temporary
    /// file is never created through a symlink, and nothing leaves `folder`.
    public init(in folder: Int32, name: String, displayPath: String, ifExists: IfExists = .fail,
                permissions: mode_t = 0o644) throws(Error) {
        path = displayPath
        self.ifExists = ifExists
        self.name = name
        temporaryName = Self.temporaryName(for: name)
        self.folder = -1
        fd = -1
        guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { throw Error(.create, displayPath, code: EINVAL) }
        if ifExists == .fail {
            var info = stat()
            if fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 { throw Error(.place, displayPath, code: EEXIST) }
        }
        self.folder = fcntl(folder, F_DUPFD_CLOEXEC, 0)
        guard self.folder >= 0 else { throw Error(.openFolder, displayPath, code: errno) }
        fd = openat(self.folder, temporaryName, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else {
            let code = errno
            close(self.folder)
            self.folder = -1
            throw Error(.create, displayPath, code: code)
        }
    }

    deinit { discard() }

    /// The temporary file's descriptor, for a writer that streams into it itself (a copy
    /// thread, `copy_file_range`); -1 once committed or discarded.
    public var fileDescriptor: Int32 { fd }

    /// Appends `bytes`, retrying short writes. A failure removes the temporary file at once;
    /// later writes and ``commit(sync:)`` throw the same error.
    public func write(_ bytes: UnsafeRawBufferPointer) throws(Error) {
        if let failure { throw failure }
        guard !finished else { throw Error(.write, path, code: EBADF) }
        var offset = 0
        while offset < bytes.count {
            let n = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n < 0 {
                if errno == EINTR { continue }
                throw fail(Error(.write, path, code: errno))
            }
            offset += n
        }
    }

    /// Appends `data`.
    public func write(_ data: Data) throws(Error) {
        var failure: Error?
        data.withUnsafeBytes { raw in
            do throws(Error) { try write(raw) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Makes the written bytes the destination: fsync, rename (replacing only when asked),
    /// folder fsync. Returns whether a file was replaced. `sync: false` skips both fsyncs, for a
    /// caller that syncs the whole file system once after many files (the backup).
    @discardableResult
    public func commit(sync: Bool = true) throws(Error) -> Bool {
        if let failure { throw failure }
        guard !finished else { throw Error(.place, path, code: EBADF) }
        if sync, fsync(fd) != 0 { throw fail(Error(.sync, path, code: errno)) }
        close(fd)
        fd = -1
        let replaced: Bool
        do throws(Error) {
            replaced = try Self.rename(from: folder, temporaryName, to: folder, name, ifExists: ifExists, path: path)
        } catch {
            throw fail(error)
        }
        finished = true
        defer { close(folder); folder = -1 }
        if sync, fsync(folder) != 0 { throw Error(.syncFolder, path, code: errno) }
        return replaced
    }

    /// Ends the write without placing the file: syncs it (unless `sync` is false), closes it and
    /// returns the temporary file's path, which the caller now owns and places later with
    /// ``place(_:at:ifExists:sync:)`` (possibly under another name in the same folder: the
    /// backup names a copy after its checksum), or removes. Only for a file started from a path.
    public func handOver(sync: Bool = true) throws(Error) -> String {
        if let failure { throw failure }
        guard !finished, let folderPath else { throw Error(.place, path, code: EBADF) }
        if sync, fsync(fd) != 0 { throw fail(Error(.sync, path, code: errno)) }
        finished = true
        close(fd)
        fd = -1
        close(folder)
        folder = -1
        return folderPath + "/" + temporaryName
    }

    /// Removes the temporary file (nothing appears at the destination). Idempotent; a file
    /// neither committed nor discarded is discarded when released.
    public func discard() {
        guard !finished else { return }
        finished = true
        if fd >= 0 { close(fd); fd = -1 }
        if folder >= 0 {
            unlinkat(folder, temporaryName, 0)
            close(folder)
            folder = -1
        }
    }

    /// Discards the file and remembers `error` for later calls; returns it.
    private func fail(_ error: Error) -> Error {
        discard()
        failure = error
        return error
    }
}

extension DurableFile {
    /// Writes `data` to `path` durably (see ``DurableFile``).
    public static func write(_ data: Data, to path: String, ifExists: IfExists = .fail, permissions: mode_t = 0o644) throws(Error) {
        let file = try DurableFile(creating: path, ifExists: ifExists, permissions: permissions)
        try file.write(data)
        try file.commit()
    }

    /// Places `finished`, a complete file another writer made by path (FFmpeg's muxer, a copy
    /// handed over), at `path`: fsync, rename (replacing only when asked), folder fsync; `sync:
    /// false` skips both fsyncs (the caller syncs the file system later). On failure `finished`
    /// is removed and nothing appears at `path`.
    public static func place(_ finished: String, at path: String, ifExists: IfExists = .fail, sync: Bool = true) throws(Error) {
        if sync {
            let fd = open(finished, O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { throw Error(.sync, path, code: errno) }
            let synced = fsync(fd) == 0
            let code = errno
            close(fd)
            guard synced else { unlink(finished); throw Error(.sync, path, code: code) }
        }
        let folder = open(Self.folder(of: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard folder >= 0 else { let code = errno; unlink(finished); throw Error(.openFolder, path, code: code) }
        defer { close(folder) }
        do throws(Error) {
            _ = try rename(from: AT_FDCWD, finished, to: folder, Self.name(of: path), ifExists: ifExists, path: path)
        } catch {
            unlink(finished)
            throw error
        }
        if sync, fsync(folder) != 0 { throw Error(.syncFolder, path, code: errno) }
    }

    /// Flushes a folder's list of names to the disk (after a create, rename or remove).
    public static func syncFolder(_ folderPath: String) throws(Error) {
        let fd = open(folderPath.isEmpty ? "." : folderPath, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(.openFolder, folderPath + "/", code: errno) }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw Error(.syncFolder, folderPath + "/", code: errno) }
    }

    /// The folder part of `path` ("." for a bare name).
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The last component of `path` (what follows its last "/").
    static func name(of path: String) -> String {
        path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
    }

    /// Renames `from` onto `to`; with ``IfExists/fail`` never over an existing name (EEXIST).
    /// Returns whether a file was replaced.
    private static func rename(from fromFolder: Int32, _ from: String, to toFolder: Int32, _ to: String,
                               ifExists: IfExists, path: String) throws(Error) -> Bool {
        switch ifExists {
        case .replace:
            var info = stat()
            let existed = fstatat(toFolder, to, &info, AT_SYMLINK_NOFOLLOW) == 0
            guard renameat(fromFolder, from, toFolder, to) == 0 else { throw Error(.place, path, code: errno) }
            return existed
        case .fail:
            if reel_renameat2(fromFolder, from, toFolder, to, REEL_RENAME_NOREPLACE) == 0 { return false }
            guard errno == EINVAL || errno == ENOSYS else { throw Error(.place, path, code: errno) }
            // No RENAME_NOREPLACE here: a hard link also refuses an existing name.
            guard linkat(fromFolder, from, toFolder, to, 0) == 0 else { throw Error(.place, path, code: errno) }
            unlinkat(fromFolder, from, 0)
            return false
        }
    }
}
