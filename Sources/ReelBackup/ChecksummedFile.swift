import CCrypto
import CLinux
import CXXHash
import Foundation
import ReelCore
import ReelRuntime

/// The backup's file work: streamed checksums (XXH3-128 through xxHash, SHA-256 through
/// libcrypto's EVP for format-1 entries), read in 1 MiB chunks, never whole; the durable copy
/// and atomic writes through ``DurableFile`` (a temporary name, synced, renamed, folder synced).
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

    /// Copies `source` to `destination` through a hidden temporary file in `destination`'s
    /// folder (``DurableFile``), synced, then renamed over whatever is there; returns the size and
    /// checksum of what was copied (XXH3-128, or `expected`'s algorithm). When `expected` is given
    /// and differs, the copy is removed and nothing appears at `destination`. `rename: false`
    /// leaves the temporary file (returned as `temporary`) for the caller to place later with
    /// ``commit(_:to:durable:)`` or ``commitWithoutReplacing(_:to:)``.
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
        let input = open(source, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Error(description: "\(source): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(input) }
        let output = try durably { () throws(DurableFile.Error) in try DurableFile(creating: destination, ifExists: .replace) }
        var size: Int64 = 0
        // The kernel copies (copy_file_range, as cp does) on a second thread while this one
        // reads the same source for the checksum: the two overlap on two cores.
        let copier = ParallelCopy(source: source, output: output.fileDescriptor, destination: destination)
        let hashed = Result { () throws(Error) in try hash(input, path: source, algorithm: expected?.algorithm ?? .xxh3, counted: &size) }
        // Waited for even when the read failed: the thread writes to the temporary file, which
        // must not be closed (and its number reused) under it. A failure discards the file.
        let copied = try copier.wait()
        let digest = try hashed.get()
        guard copied == size else {
            throw Error(description: "\(source) changed while it was copied (\(size) bytes read, \(copied) copied); run the backup again")
        }
        if let expected, expected != digest {
            throw Error(description: "\(source): checksum \(digest.algorithm.rawValue) \(digest.short)… differs from the \(expected.short)… recorded; the file is damaged",
                        isDamage: true)
        }
        guard rename else { return (size, digest, try durably { () throws(DurableFile.Error) in try output.handOver(sync: durable) }) }
        _ = try durably { () throws(DurableFile.Error) in try output.commit(sync: durable) }
        return (size, digest, destination)
    }

    /// Places the `temporary` copy at `destination`, replacing any file there, and (`durable`)
    /// syncs it and its folder. On failure the copy is removed.
    public static func commit(_ temporary: String, to destination: String, durable: Bool = true) throws(Error) {
        try durably { () throws(DurableFile.Error) in try DurableFile.place(temporary, at: destination, ifExists: .replace, sync: durable) }
    }

    /// Places the `temporary` copy at `destination` unless a file is there (then the copy is
    /// removed and the result is false), synced with its folder.
    public static func commitWithoutReplacing(_ temporary: String, to destination: String) throws(Error) -> Bool {
        do {
            try DurableFile.place(temporary, at: destination, ifExists: .fail)
            return true
        } catch where error.step == .place && error.code == EEXIST {
            return false
        } catch {
            throw Error(description: "\(error)")
        }
    }

    /// Writes `data` to `path` atomically, replacing any file there (``DurableFile``).
    public static func writeAtomically(_ data: Data, to path: String) throws(Error) {
        try durably { () throws(DurableFile.Error) in try DurableFile.write(data, to: path, ifExists: .replace) }
    }

    /// Runs a ``DurableFile`` step; its failure becomes an ``Error`` in the same words.
    private static func durably<T>(_ step: () throws(DurableFile.Error) -> T) throws(Error) -> T {
        do { return try step() } catch { throw Error(description: "\(error)") }
    }

    /// Writes out everything of the file system holding `path` (syncfs): files and folders.
    public static func syncFileSystem(_ path: String) throws(Error) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw Error(description: "\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(fd) }
        guard reel_syncfs(fd) == 0 else { throw Error(description: "\(path): cannot sync (\(String(cString: strerror(errno))))") }
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

/// One streamed digest, for the folder backup's copies and the bucket backup's uploads:
/// xxHash's XXH3-128 state or a libcrypto EVP context for SHA-256.
final class StreamingDigest {
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
private final class ParallelCopy: Sendable {
    private let result = Locked<Result<Int64, ChecksummedFile.Error>>(.success(0))
    private let worker: WorkerThread

    init(source: String, output: Int32, destination: String) {
        worker = WorkerThread.run(name: "reel.backup.copy") { [result] in
            let copied = Self.copy(source: source, output: output, destination: destination)
            result.withLock { $0 = copied }
        }
    }

    /// Bytes copied, once the copy is finished.
    func wait() throws(ChecksummedFile.Error) -> Int64 {
        worker.join()
        return try result.withLock { $0 }.get()
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
