import CCrypto
import CLinux
import CXXHash
import Foundation
import ReelCore

/// The backup's file work: streamed checksums (XXH3-128 through xxHash, SHA-256 through
/// libcrypto's EVP for format-1 entries), read in 1 MiB chunks, never whole; the durable copy
/// (a temporary name, synced, renamed, folder synced); atomic writes.
public enum ChecksummedFile {
    /// A file that could not be read, written or checked, with its path.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
        /// The source is damaged (its checksum differs from the one recorded); not an I/O failure.
        public var isDamage = false
    }

    /// A file's size and modification time (seconds since 1970), nil when it does not exist.
    public static func status(_ path: String) -> (size: Int64, modified: Double)? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return (Int64(info.st_size), Double(info.st_mtim.tv_sec) + Double(info.st_mtim.tv_nsec) / 1e9)
    }

    /// Free bytes for an unprivileged user on the file system holding `path`.
    public static func availableBytes(at path: String) throws(Error) -> Int64 {
        var info = statvfs()
        guard statvfs(path, &info) == 0 else { throw Error(description: "\(path): cannot measure free space (\(String(cString: strerror(errno))))") }
        return Int64(info.f_bavail) * Int64(info.f_frsize)
    }

    /// The checksum of the file at `path` (XXH3-128 unless told otherwise).
    public static func checksum(of path: String, _ algorithm: MediaChecksum.Algorithm = .xxh3) throws(Error) -> MediaChecksum {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Error(description: "\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(input) }
        var ignored: Int64 = 0
        return try hash(input, path: path, algorithm: algorithm, counted: &ignored)
    }

    /// Copies `source` to `destination` through `destination`'s folder as a hidden `.partial`
    /// file, synced, then renamed over nothing that matters; returns the size and checksum of
    /// what was copied (XXH3-128, or `expected`'s algorithm). When `expected` is given and
    /// differs, the copy is removed and nothing appears at `destination`. `rename: false` leaves
    /// the temporary file (returned as `temporary`) for the caller to rename later.
    /// `durable: false` skips the file's and its folder's fsync: the caller then calls
    /// ``syncFileSystem(_:)`` once before relying on it (one flush for many files instead of a
    /// wait per file; each chunk's writeback is started as soon as it is copied either way).
    @discardableResult
    public static func copy(from source: String, to destination: String, expected: MediaChecksum? = nil, rename: Bool = true,
                            durable: Bool = true) throws(Error) -> (size: Int64, checksum: MediaChecksum, temporary: String) {
        let folder = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Error(description: "\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        let temporary = folder + "/." + (destination as NSString).lastPathComponent + ".partial"
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Error(description: "\(source): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(input) }
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Error(description: "\(temporary): cannot create (\(String(cString: strerror(errno))))") }
        var size: Int64 = 0
        let digest: MediaChecksum
        do throws(Error) {
            // The kernel copies (copy_file_range, as cp does) on a second thread while this one
            // reads the same source for the checksum: the two overlap on two cores.
            let copier = ParallelCopy(source: source, output: output, destination: temporary)
            let hashed = Result { () throws(Error) in try hash(input, path: source, algorithm: expected?.algorithm ?? .xxh3, counted: &size) }
            // Waited for even when the read failed: the thread writes to `output`, which must
            // not be closed (and its number reused) under it.
            let copied = try copier.wait()
            digest = try hashed.get()
            guard copied == size else {
                throw Error(description: "\(source) changed while it was copied (\(size) bytes read, \(copied) copied); run the backup again")
            }
            guard !durable || fsync(output) == 0 else { throw Error(description: "\(temporary): cannot sync (\(String(cString: strerror(errno))))") }
            if let expected, expected != digest {
                throw Error(description: "\(source): checksum \(digest.algorithm.rawValue) \(digest.short)… differs from the \(expected.short)… recorded; the file is damaged",
                            isDamage: true)
            }
        } catch {
            close(output)
            unlink(temporary)
            throw error
        }
        close(output)
        if rename {
            try commit(temporary, to: destination, durable: durable)
        }
        return (size, digest, temporary)
    }

    /// Renames the synced `temporary` to `destination` and (`durable`) syncs the folder.
    public static func commit(_ temporary: String, to destination: String, durable: Bool = true) throws(Error) {
        guard Foundation.rename(temporary, destination) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw Error(description: "\(destination): cannot rename the copy into place (\(reason))")
        }
        if durable { syncFolder((destination as NSString).deletingLastPathComponent) }
    }

    /// Moves the synced `temporary` to `destination` unless a file is there (a hard link, which
    /// fails on an existing name, then the temporary name removed); false when one was there.
    public static func commitWithoutReplacing(_ temporary: String, to destination: String) throws(Error) -> Bool {
        defer { unlink(temporary) }
        guard link(temporary, destination) == 0 else {
            if errno == EEXIST { return false }
            throw Error(description: "\(destination): cannot place the copy (\(String(cString: strerror(errno))))")
        }
        syncFolder((destination as NSString).deletingLastPathComponent)
        return true
    }

    /// Writes `data` to `path` atomically: temporary file, fsync, rename, folder fsync.
    public static func writeAtomically(_ data: Data, to path: String) throws(Error) {
        let temporary = path + ".partial"
        let output = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw Error(description: "\(temporary): cannot create (\(String(cString: strerror(errno))))") }
        let written = data.withUnsafeBytes { buffer -> Bool in
            var offset = 0
            while offset < buffer.count {
                let n = write(output, buffer.baseAddress! + offset, buffer.count - offset)
                if n < 0 { if errno == EINTR { continue }; return false }
                offset += n
            }
            return true
        }
        let synced = written && fsync(output) == 0
        let reason = String(cString: strerror(errno))
        close(output)
        guard synced else {
            unlink(temporary)
            throw Error(description: "\(path): cannot write (\(reason))")
        }
        try commit(temporary, to: path)
    }

    /// Writes out everything of the file system holding `path` (syncfs): files and folders.
    public static func syncFileSystem(_ path: String) throws(Error) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(description: "\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        guard reel_syncfs(fd) == 0 else { throw Error(description: "\(path): cannot sync (\(String(cString: strerror(errno))))") }
    }

    /// fsync on a folder (a rename is durable once its folder is synced).
    public static func syncFolder(_ path: String) {
        let fd = open(path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Reads `input` to its end through a 1 MiB buffer (faster here than a mapping: no page
    /// faults) and returns its checksum; `counted` gets the bytes read.
    private static func hash(_ input: Int32, path: String, algorithm: MediaChecksum.Algorithm, counted: inout Int64) throws(Error) -> MediaChecksum {
        let digest = try StreamingDigest(algorithm)
        posix_fadvise(input, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { buffer.deallocate() }
        while true {
            let n = read(input, buffer, chunk)
            if n < 0 {
                if errno == EINTR { continue }
                throw Error(description: "\(path): cannot read (\(String(cString: strerror(errno))))")
            }
            if n == 0 { break }
            digest.update(buffer, n)
            counted += Int64(n)
        }
        return try digest.finish()
    }
}

/// One streamed digest: xxHash's XXH3-128 state or a libcrypto EVP context for SHA-256.
private final class StreamingDigest {
    private let algorithm: MediaChecksum.Algorithm
    private var xxh3: OpaquePointer?
    private var evp: OpaquePointer?

    init(_ algorithm: MediaChecksum.Algorithm) throws(ChecksummedFile.Error) {
        self.algorithm = algorithm
        switch algorithm {
        case .xxh3:
            guard let state = XXH3_createState(), XXH3_128bits_reset(state) == XXH_OK else {
                throw .init(description: "xxHash: cannot make an XXH3 state")
            }
            xxh3 = state
        case .sha256:
            guard let context = EVP_MD_CTX_new() else { throw .init(description: "libcrypto: cannot make a digest context") }
            evp = context
            guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw .init(description: "libcrypto: SHA-256 is not available") }
        }
    }

    deinit {
        if let xxh3 { XXH3_freeState(xxh3) }
        if let evp { EVP_MD_CTX_free(evp) }
    }

    func update(_ bytes: UnsafeRawPointer, _ count: Int) {
        if let xxh3 { XXH3_128bits_update(xxh3, bytes, count) } else { EVP_DigestUpdate(evp, bytes, count) }
    }

    func finish() throws(ChecksummedFile.Error) -> MediaChecksum {
        var bytes: [UInt8]
        if let xxh3 {
            var canonical = XXH128_canonical_t()
            XXH128_canonicalFromHash(&canonical, XXH3_128bits_digest(xxh3))
            bytes = withUnsafeBytes(of: canonical.digest) { Array($0) }
        } else {
            bytes = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard EVP_DigestFinal_ex(evp, &bytes, &length) == 1 else { throw .init(description: "libcrypto: SHA-256 failed") }
            bytes.removeLast(bytes.count - Int(length))
        }
        let digits = Array("0123456789abcdef".utf8)
        var hex = [UInt8]()
        hex.reserveCapacity(bytes.count * 2)
        for byte in bytes { hex.append(digits[Int(byte >> 4)]); hex.append(digits[Int(byte & 15)]) }
        guard let checksum = MediaChecksum(algorithm, hex: String(decoding: hex, as: UTF8.self)) else {
            throw .init(description: "\(algorithm.rawValue): a digest of \(bytes.count) bytes")
        }
        return checksum
    }
}

/// A copy of a whole file into an open descriptor on its own thread: `copy_file_range`
/// (in-kernel, no user-space buffer), or read/write where the file systems do not allow it.
/// `@unchecked Sendable`: `result` is written by the copy thread before `done` is signalled and read only after waiting on it.
private final class ParallelCopy: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    // Written by the thread before `done` is signalled, read after waiting on it.
    private var result: Result<Int64, ChecksummedFile.Error> = .success(0)

    init(source: String, output: Int32, destination: String) {
        let thread = Thread { [self] in
            result = Self.copy(source: source, output: output, destination: destination)
            done.signal()
        }
        thread.start()
    }

    /// Bytes copied, once the copy is finished.
    func wait() throws(ChecksummedFile.Error) -> Int64 {
        done.wait()
        return try result.get()
    }

    private static func copy(source: String, output: Int32, destination: String) -> Result<Int64, ChecksummedFile.Error> {
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { return .failure(.init(description: "\(source): cannot open (\(String(cString: strerror(errno))))")) }
        defer { close(input) }
        var total: Int64 = 0
        while true {
            // 32 MiB at a time, each chunk's writeback started at once (not waited for).
            let n = reel_copy_file_range(input, output, 32 << 20)
            if n > 0 {
                _ = reel_start_writeback_range(output, total, Int64(n))
                total += Int64(n)
                continue
            }
            if n == 0 { return .success(total) }
            if errno == EINTR { continue }
            if total == 0, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EPERM].contains(errno) { break }
            return .failure(.init(description: "\(destination): cannot write (\(String(cString: strerror(errno))))"))
        }
        // Fallback (another file system: copy_file_range refuses since Linux 5.19): read and
        // write through a buffer, starting the writeback every 32 MiB as above.
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { buffer.deallocate() }
        var unflushed: Int64 = 0
        while true {
            let n = read(input, buffer, chunk)
            if n < 0 { if errno == EINTR { continue }; return .failure(.init(description: "\(source): cannot read (\(String(cString: strerror(errno))))")) }
            if n == 0 { return .success(total) }
            var offset = 0
            while offset < n {
                let w = write(output, buffer + offset, n - offset)
                if w < 0 { if errno == EINTR { continue }; return .failure(.init(description: "\(destination): cannot write (\(String(cString: strerror(errno))))")) }
                offset += w
            }
            total += Int64(n)
            unflushed += Int64(n)
            if unflushed >= 32 << 20 {
                _ = reel_start_writeback_range(output, total - unflushed, unflushed)
                unflushed = 0
            }
        }
    }
}
