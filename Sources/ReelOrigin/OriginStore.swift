import CLinux
import Foundation
import ReelCore
import ReelHTTP
import ReelRuntime
import Synchronization

/// The data folder, reached only through file descriptors: every path is walked from the
/// folder's own descriptor one component at a time with `openat(O_NOFOLLOW | O_DIRECTORY)`,
/// and files are opened with `O_NOFOLLOW`, so a symlink planted anywhere below the data
/// folder (a stream folder, a rung folder, `seg`, a file) is never followed. Names come only
/// from ``OriginRoute`` (an allow-list grammar), never from the raw URL.
///
/// A rung of an ABR ladder keeps its files in `streams/{id}/{rung}/` (``StreamLayout``), but
/// everything that guards a stream stays per stream: one lock, one folder identity, one
/// DELETE for `streams/{id}` and every rung in it. What blocking reload decides on is per
/// media playlist (each rung's, by its layout).
///
/// Writes go through ``DurableFile`` (a temp file in the destination folder, fsynced, renamed
/// over the destination, the folder fsynced): readers see the old complete file or the new one.
/// Readers hold an open descriptor, so a file replaced mid-read keeps serving the version
/// that was opened.
public final class OriginStore: Sendable {
    /// The data folder's path (for messages).
    public let path: String
    private let root: Int32
    /// Whether reads still try `openat2` (cleared once it proved unavailable).
    let beneathAvailable = Atomic<Bool>(true)
    /// One lock per stream (striped by id): a stream's DELETE, and each upload's start and
    /// commit (whatever the rung), hold it, so no file is created in or renamed into a stream
    /// being deleted.
    private let streamLocks = (0..<64).map { _ in Locked(()) }
    /// What is known of every stream's playlists (its own and each rung's), by stream id: read
    /// from the folder at start, then kept current by each commit and delete (under the
    /// stream's lock), so neither a listing (`/api/streams`) nor blocking reload (each media
    /// playlist's tally) reads a file.
    private let records = Locked<[String: StreamRecord]>([:])

    /// Opens (and creates, mode 0700, when missing) the data folder.
    public init(directory: URL) throws(Error) {
        path = directory.path
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw .dataFolder(path, ErrorSentence.reason(error))
        }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw .dataFolder(path, Self.reason()) }
        root = fd
        if mkdirat(root, "streams", 0o755) == 0 { fsync(root) }
        removeLeftovers()
        let found = scanRecords()
        records.withLock { $0 = found }
    }

    /// Removes what a crash can leave behind: temp files of unfinished uploads
    /// (`streams/{id}/.NAME.PID.RANDOM.tmp`, also in `seg/` and `part/`, and the same in every
    /// rung folder) and stream folders a DELETE had renamed away but not yet removed
    /// (`streams/.deleted-*`).
    func removeLeftovers() {
        guard let streams = try? openFolder(["streams"], create: false) else { return }
        defer { close(streams) }
        for name in Self.entries(of: streams) {
            if name.hasPrefix(".deleted-") {
                removeTree(parent: streams, name: name)
                continue
            }
            guard let stream = try? StreamLayout(streamID: name) else { continue }
            // Any folder with a rung's name: an upload may have died before the rung's first file.
            let rungs = rungFolderNames(stream).compactMap { try? stream.rung($0) }
            for layout in [stream] + rungs {
                for folders in [[String](), ["seg"], ["part"]] {
                    guard let folder = try? openFolder(layout.directoryComponents + folders, create: false) else { continue }
                    for entry in Self.entries(of: folder) where entry.hasPrefix(".") && entry.hasSuffix(".tmp") {
                        unlinkat(folder, entry, 0)
                    }
                    close(folder)
                }
            }
        }
    }

    /// The names in the stream's folder that can be rung folders (``StreamLayout/isValidRungName(_:)``);
    /// whether each is a folder is up to whoever opens it.
    private func rungFolderNames(_ stream: StreamLayout) -> [String] {
        guard let folder = try? openFolder(stream.directoryComponents, create: false) else { return [] }
        defer { close(folder) }
        return Self.entries(of: folder).filter(StreamLayout.isValidRungName)
    }

    deinit { close(root) }

    /// A stored file opened for reading, with its identity. The caller owns `fd`.
    public struct OpenFile: Sendable {
        /// The descriptor; close it (or hand it to a response that closes it).
        public var fd: Int32
        /// What `fstat` of `fd` said: which version of the file this is.
        public var version: FileVersion
        /// Size in bytes.
        public var size: Int64 { version.size }
        /// Last modification.
        public var modified: Date {
            let (seconds, nanoseconds) = version.modificationNanoseconds.quotientAndRemainder(dividingBy: 1_000_000_000)
            return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
        }
        /// The version's strong tag.
        public var tag: EntityTag { version.tag }
    }

    /// Opens a stream file for reading; `nil` when it does not exist (or a symlink or
    /// something other than a regular file stands in its way).
    ///
    /// One `openat2(RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS)` from the data folder's descriptor
    /// resolves `streams/{id}/[{rung}/][seg/]NAME` without following a symlink anywhere on the way;
    /// where the kernel lacks `openat2` (before Linux 5.6, or a seccomp filter refuses it)
    /// the same walk is done one `openat(O_NOFOLLOW)` per component.
    public func openFile(_ layout: StreamLayout, _ file: OriginFile) -> OpenFile? {
        let location = file.location
        let flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
        var fd: Int32 = -1
        var fallBack = !beneathAvailable.load(ordering: .relaxed)
        if !fallBack {
            var path = layout.directory + "/"
            for folder in location.folders { path += folder + "/" }
            path += location.name
            fd = reel_open_beneath(root, path, flags)
            // Not available here: walk instead (and stop trying once the walk succeeds).
            if fd < 0 && (errno == ENOSYS || errno == EPERM) { fallBack = true }
        }
        if fallBack {
            guard let folder = try? openFolder(layout.directoryComponents + location.folders, create: false) else { return nil }
            fd = openat(folder, location.name, flags)
            close(folder)
            if fd >= 0 { beneathAvailable.store(false, ordering: .relaxed) }
        }
        guard fd >= 0 else { return nil }
        guard let version = Self.version(of: fd) else {
            close(fd)
            return nil
        }
        return OpenFile(fd: fd, version: version)
    }

    /// Whether the stream file exists (as ``openFile(_:_:)`` would open it).
    public func fileExists(_ layout: StreamLayout, _ file: OriginFile) -> Bool {
        guard let opened = openFile(layout, file) else { return false }
        close(opened.fd)
        return true
    }

    /// The version of the regular file open as `fd`; `nil` for anything else.
    static func version(of fd: Int32) -> FileVersion? {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return FileVersion(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                           modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec),
                           changeNanoseconds: Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec))
    }

    /// Starts writing a new version of a stream file: creates the folders (a rung's too), starts
    /// a ``DurableFile`` in the destination's folder (reached without following a symlink), and
    /// remembers which stream folder (`streams/{id}`, whatever the rung) it is in, so that
    /// ``commit(_:)`` can tell whether the stream was deleted meanwhile.
    public func beginWrite(_ layout: StreamLayout, _ file: OriginFile) throws(Error) -> PendingFile {
        let displayPath = Self.displayPath(layout, file)
        return try withStreamLock(layout.streamID) { () throws(Error) -> PendingFile in
            let streamFolder = try openFolder(["streams", layout.streamID], create: true)
            defer { close(streamFolder) }
            let identity = Self.identity(of: streamFolder)
            let below = (layout.rung.map { [$0] } ?? []) + file.location.folders
            let folder = try openFolder(below, create: true, from: streamFolder)
            defer { close(folder) }
            do throws(DurableFile.Error) {
                let durable = try DurableFile(in: folder, name: file.location.name, displayPath: displayPath, ifExists: .replace)
                return PendingFile(file: durable, displayPath: displayPath, store: self, layout: layout, file: file, folder: identity)
            } catch {
                throw Self.fileError(error.code, displayPath)
            }
        }
    }

    /// Makes an upload's bytes its file's new version, unless its stream was deleted (or
    /// replaced) since the upload began: then the bytes are dropped and the answer says so.
    /// Returns whether a version existed.
    func commit(_ upload: PendingFile, _ durable: DurableFile) throws(Error) -> Bool {
        try withStreamLock(upload.layout.streamID) { () throws(Error) -> Bool in
            guard let current = currentFolderIdentity(upload.layout.streamID), current == upload.folder else {
                durable.discard()
                throw .streamDeleted(upload.displayPath)
            }
            let replaced: Bool
            do throws(DurableFile.Error) {
                replaced = try durable.commit()
            } catch {
                throw Self.fileError(error.code, upload.displayPath)
            }
            let layout = upload.layout
            if let tally = upload.tally {
                let entry = StreamRecord.Entry(updatedAt: Date(), tally: tally.finished())
                records.withLock { $0[layout.streamID, default: StreamRecord()][layout.rung] = entry }
            } else if upload.file == .initSegment {
                records.withLock { all in
                    if all[layout.streamID]?[layout.rung] == nil {
                        all[layout.streamID, default: StreamRecord()][layout.rung] = StreamRecord.Entry(updatedAt: Date(), tally: nil)
                    }
                }
            }
            return replaced
        }
    }

    private func withStreamLock<T>(_ streamID: String, _ body: () throws(Error) -> T) throws(Error) -> T {
        var hasher = Hasher()
        hasher.combine(streamID)
        let lock = streamLocks[Int(UInt(bitPattern: hasher.finalize()) % UInt(streamLocks.count))]
        return try lock.withLock { (_: inout ()) throws(Error) -> T in try body() }
    }

    /// Device and inode of an open folder.
    static func identity(of fd: Int32) -> FolderIdentity? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return FolderIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The identity of the folder `streams/{id}` names now (nil when there is none).
    private func currentFolderIdentity(_ streamID: String) -> FolderIdentity? {
        guard let folder = try? openFolder(["streams", streamID], create: false) else { return nil }
        defer { close(folder) }
        return Self.identity(of: folder)
    }

    /// Which folder a stream's files were being written in.
    struct FolderIdentity: Hashable, Sendable {
        var device: UInt64
        var inode: UInt64
    }

    /// Removes one stream file: its name is unlinked in its folder, which is reached without
    /// following a symlink; a symlink standing in the file's place is removed itself, never
    /// its target. Empty folders stay (a PUT may be creating a file in them). `false` when
    /// there was no such file.
    public func deleteFile(_ layout: StreamLayout, _ file: OriginFile) throws(Error) -> Bool {
        let location = file.location
        let folder: Int32
        do {
            folder = try openFolder(layout.directoryComponents + location.folders, create: false)
        } catch .notFound {
            return false
        }
        defer { close(folder) }
        guard unlinkat(folder, location.name, 0) == 0 else {
            if errno == ENOENT { return false }
            throw Self.fileError(errno, Self.displayPath(layout, file))
        }
        fsync(folder)
        if file == .playlist || file == .initSegment {
            try withStreamLock(layout.streamID) { () throws(Error) -> Void in
                let found = entry(of: layout)
                records.withLock { all in
                    var record = all[layout.streamID] ?? StreamRecord()
                    record[layout.rung] = found
                    all[layout.streamID] = record.isEmpty ? nil : record
                }
            }
        }
        return true
    }

    /// `streams/{id}/[{rung}/][seg/]NAME`, for messages.
    static func displayPath(_ layout: StreamLayout, _ file: OriginFile) -> String {
        "\(layout.directory)/\((file.location.folders + [file.location.name]).joined(separator: "/"))"
    }

    /// Removes a stream, every rung of a ladder with it: its folder is first renamed out of the
    /// layout (one atomic step that readers observe), then deleted without following any
    /// symlink inside. `false` when there was no such stream.
    public func deleteStream(_ layout: StreamLayout) throws(Error) -> Bool {
        let streams: Int32
        do {
            streams = try openFolder(["streams"], create: false)
        } catch .notFound {
            return false
        }
        defer { close(streams) }
        do {
            try renameToTrash(layout, in: streams)
        } catch .notFound {
            return false
        }
        return true
    }

    private func renameToTrash(_ layout: StreamLayout, in streams: Int32) throws(Error) {
        let trash = ".deleted-\(layout.streamID)-\(String(UInt64.random(in: 0...UInt64.max), radix: 16))"
        // Under the stream's lock: an upload started before the rename has its temp file in the
        // trash (removed with it) and can no longer commit; one started after writes anew.
        try withStreamLock(layout.streamID) { () throws(Error) -> Void in
            guard renameat(streams, layout.streamID, streams, trash) == 0 else {
                if errno == ENOENT { throw .notFound }
                throw Self.fileError(errno, layout.directory)
            }
            _ = records.withLock { $0.removeValue(forKey: layout.streamID) }
        }
        fsync(streams)
        removeTree(parent: streams, name: trash)
    }

    /// The tally of the layout's playlist (the stream's own, or a rung's) as last stored (nil
    /// before one was).
    public func playlistTally(_ layout: StreamLayout) -> PlaylistTally? {
        records.withLock { $0[layout.streamID]?[layout.rung]?.tally }
    }

    /// The rungs of the stream known now (files stored in them), in name order.
    public func rungs(of layout: StreamLayout) -> [String] {
        records.withLock { $0[layout.streamID]?.rungs.keys.sorted() ?? [] }
    }

    /// Every stream with a playlist or an init segment (its own or a rung's), unsorted (from memory).
    public func streams() -> [StreamSummary] {
        records.withLock { all in
            all.compactMap { stream in (try? StreamLayout(streamID: stream.key)).flatMap(stream.value.summary(layout:)) }
        }
    }

    /// Reads what is stored of every stream from the folder (at start): its own playlist or init
    /// segment, and each rung folder's (a folder with a rung's name holding either).
    private func scanRecords() -> [String: StreamRecord] {
        guard let streams = try? openFolder(["streams"], create: false) else { return [:] }
        defer { close(streams) }
        var result: [String: StreamRecord] = [:]
        for name in Self.entries(of: streams) {
            guard let layout = try? StreamLayout(streamID: name) else { continue }
            var record = StreamRecord(own: entry(of: layout))
            for rung in rungFolderNames(layout) {
                guard let rungLayout = try? layout.rung(rung), let found = entry(of: rungLayout) else { continue }
                record.rungs[rung] = found
            }
            if !record.isEmpty { result[name] = record }
        }
        return result
    }

    /// What the layout's folder holds (the stream's own, or a rung's), from its files: the whole
    /// playlist read in pieces, whatever its length; `nil` when it has neither a playlist nor an
    /// init segment.
    private func entry(of layout: StreamLayout) -> StreamRecord.Entry? {
        if let playlist = openFile(layout, .playlist) {
            defer { close(playlist.fd) }
            var tally = PlaylistTally()
            var buffer = [UInt8](repeating: 0, count: 64 * 1024)
            var offset: off_t = 0
            while true {
                let count = buffer.withUnsafeMutableBytes { pread(playlist.fd, $0.baseAddress, $0.count, offset) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { break }
                buffer.withUnsafeBytes { tally.consume(UnsafeRawBufferPointer(rebasing: $0.prefix(count))) }
                offset += off_t(count)
            }
            return StreamRecord.Entry(updatedAt: playlist.modified, tally: tally.finished())
        }
        guard let initSegment = openFile(layout, .initSegment) else { return nil }
        close(initSegment.fd)
        return StreamRecord.Entry(updatedAt: initSegment.modified, tally: nil)
    }

    // MARK: Folders

    /// Walks `components` from the data folder, never following a symlink; creates missing
    /// folders (and fsyncs their parents) when asked. The caller closes the result.
    func openFolder(_ components: [String], create: Bool, from base: Int32? = nil) throws(Error) -> Int32 {
        var current = dup(base ?? root)
        guard current >= 0 else { throw .io(path, Self.reason()) }
        for (depth, component) in components.enumerated() {
            if create {
                if mkdirat(current, component, 0o755) == 0 {
                    fsync(current)
                } else if errno != EEXIST {
                    let error = Self.fileError(errno, components[...depth].joined(separator: "/"))
                    close(current)
                    throw error
                }
            }
            let next = openat(current, component, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            let failure = errno
            close(current)
            guard next >= 0 else {
                switch failure {
                case ENOENT: throw .notFound
                case ELOOP, ENOTDIR: throw .notAFolder(components.joined(separator: "/"))
                default: throw Self.fileError(failure, components.joined(separator: "/"))
                }
            }
            current = next
        }
        return current
    }

    /// Deletes `name` in `parent`: a folder recursively, anything else (a symlink too) by unlink.
    private func removeTree(parent: Int32, name: String) {
        let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        guard fd >= 0 else {
            unlinkat(parent, name, 0)
            return
        }
        for entry in Self.entries(of: fd) {
            if unlinkat(fd, entry, 0) != 0, errno == EISDIR || errno == EPERM {
                removeTree(parent: fd, name: entry)
            }
        }
        close(fd)
        unlinkat(parent, name, AT_REMOVEDIR)
    }

    /// Names in a folder (without `.` and `..`); the descriptor stays open.
    static func entries(of folder: Int32) -> [String] {
        let copy = dup(folder)
        guard copy >= 0, let directory = fdopendir(copy) else {
            if copy >= 0 { close(copy) }
            return []
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Reads from the start of `fd` up to `limit` bytes.
    static func readAll(_ fd: Int32, limit: Int) -> [UInt8] {
        var result: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var offset: off_t = 0
        while result.count < limit {
            let count = pread(fd, &buffer, min(buffer.count, limit - result.count), offset)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            result.append(contentsOf: buffer.prefix(count))
            offset += off_t(count)
        }
        return result
    }

    /// Reads from the start of `fd` into `buffer`, up to `count` bytes; returns the bytes read
    /// (fewer at the end of the file or on an error).
    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, count: Int) -> Int {
        var done = 0
        while done < count {
            let result = pread(fd, buffer.baseAddress! + done, count - done, off_t(done))
            if result < 0 && errno == EINTR { continue }
            guard result > 0 else { break }
            done += result
        }
        return done
    }

    static func reason(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    static func fileError(_ code: Int32, _ what: String) -> Error {
        switch code {
        case ENOSPC, EDQUOT: .noSpace(what)
        case ELOOP, ENOTDIR, EISDIR: .notAFolder(what)
        default: .io(what, reason(code))
        }
    }

    /// Why a store operation failed.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The data folder cannot be created or opened.
        case dataFolder(String, String)
        /// Nothing there.
        case notFound
        /// A symlink or a file stands where a folder (or a folder where a file) should be.
        case notAFolder(String)
        /// The disk (or quota) is full.
        case noSpace(String)
        /// Any other I/O failure.
        case io(String, String)
        /// The stream was deleted while this file of it was being uploaded.
        case streamDeleted(String)

        /// A message for the user: what happened and what to do.
        public var description: String {
            switch self {
            case .dataFolder(let path, let reason): "cannot use the data folder \(path): \(reason); pass --data with a folder you can write"
            case .notFound: "not found"
            case .notAFolder(let what): "\(what) is not a plain folder or file in the data folder (symlinks are never followed)"
            case .noSpace(let what): "no space left on the device while storing \(what)"
            case .io(let what, let reason): "\(what): \(reason)"
            case .streamDeleted(let what): "the stream was deleted while \(what) was uploading; the upload was dropped"
            }
        }
    }
}
