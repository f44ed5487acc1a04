import CCrypto
import CLinux
import Foundation

/// Streamed SHA-256 (libcrypto's EVP) and the backup's durable copy: read in 1 MiB chunks,
/// never whole; written to a temporary name, synced, renamed, folder synced.
public enum ChecksummedFile {
    /// A file that could not be read, written or checked, with its path.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
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

    /// SHA-256 of the file at `path`, lowercase hex.
    public static func sha256(of path: String) throws(Error) -> String {
        let input = open(path, O_RDONLY | O_CLOEXEC)
        guard input >= 0 else { throw Error(description: "\(path): cannot open (\(String(cString: strerror(errno))))") }
        defer { close(input) }
        return try stream(from: input, path: path, to: nil, destination: "")
    }

    /// Copies `source` to `destination` through `destination`'s folder as a hidden `.partial`
    /// file, synced, then renamed over nothing that matters; returns the size and SHA-256 of
    /// what was copied. When `expectedSHA256` is given and differs, the copy is removed and
    /// nothing appears at `destination`. `rename: false` leaves the temporary file (returned as
    /// `temporary`) for the caller to rename later. `durable: false` skips the file's and its
    /// folder's fsync: the caller then calls ``syncFileSystem(_:)`` once before relying on it
    /// (one flush for many files instead of a wait per file).
    @discardableResult
    public static func copy(from source: String, to destination: String, expectedSHA256: String? = nil, rename: Bool = true,
                            durable: Bool = true) throws(Error) -> (size: Int64, sha256: String, temporary: String) {
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
        let digest: String
        do throws(Error) {
            // The kernel copies (copy_file_range, as cp does) on a second thread while this one
            // reads the same source for SHA-256: the two overlap on two cores.
            let copier = ParallelCopy(source: source, output: output, destination: temporary)
            digest = try stream(from: input, path: source, to: nil, destination: temporary, counted: &size)
            let copied = try copier.wait()
            if !durable { _ = reel_start_writeback(output) }
            guard copied == size else {
                throw Error(description: "\(source) changed while it was copied (\(size) bytes read, \(copied) copied); run the backup again")
            }
            guard !durable || fsync(output) == 0 else { throw Error(description: "\(temporary): cannot sync (\(String(cString: strerror(errno))))") }
            if let expected = expectedSHA256, expected != digest {
                throw Error(description: "\(source): checksum \(digest.prefix(12))… differs from the \(expected.prefix(12))… recorded; the file is damaged")
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

    private static func stream(from input: Int32, path: String, to output: Int32?, destination: String) throws(Error) -> String {
        var ignored: Int64 = 0
        return try stream(from: input, path: path, to: output, destination: destination, counted: &ignored)
    }

    private static func stream(from input: Int32, path: String, to output: Int32?, destination: String, counted: inout Int64) throws(Error) -> String {
        guard let context = EVP_MD_CTX_new() else { throw Error(description: "libcrypto: cannot make a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_sha256(), nil) == 1 else { throw Error(description: "libcrypto: SHA-256 is not available") }
        posix_fadvise(input, 0, 0, Int32(POSIX_FADV_SEQUENTIAL))
        // Only hashing: straight from the page cache through a read-only mapping (no copy into
        // a buffer); a file that cannot be mapped (empty, special) goes through read below.
        var info = stat()
        if output == nil, fstat(input, &info) == 0, info.st_size > 0,
           let mapped = mmap(nil, Int(info.st_size), PROT_READ, MAP_PRIVATE, input, 0), mapped != MAP_FAILED {
            defer { munmap(mapped, Int(info.st_size)) }
            madvise(mapped, Int(info.st_size), MADV_SEQUENTIAL)
            var offset = 0
            let size = Int(info.st_size)
            while offset < size {
                let step = min(1 << 22, size - offset)
                EVP_DigestUpdate(context, mapped + offset, step)
                offset += step
            }
            counted = Int64(size)
            return try finish(context)
        }
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
            EVP_DigestUpdate(context, buffer, n)
            if let output {
                var offset = 0
                while offset < n {
                    let w = write(output, buffer + offset, n - offset)
                    if w < 0 {
                        if errno == EINTR { continue }
                        throw Error(description: "\(destination): cannot write (\(String(cString: strerror(errno))))")
                    }
                    offset += w
                }
            }
            counted += Int64(n)
        }
        return try finish(context)
    }

    private static func finish(_ context: OpaquePointer) throws(Error) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &digest, &length) == 1 else { throw Error(description: "libcrypto: SHA-256 failed") }
        return digest.prefix(Int(length)).map { String(format: "%02x", $0) }.joined()
    }
}

/// A copy of a whole file into an open descriptor on its own thread: `copy_file_range`
/// (in-kernel, no user-space buffer), or read/write where the file systems do not allow it.
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
            let n = reel_copy_file_range(input, output, 1 << 30)
            if n > 0 { total += Int64(n); continue }
            if n == 0 { return .success(total) }
            if errno == EINTR { continue }
            if total == 0, [EXDEV, ENOSYS, EINVAL, EOPNOTSUPP, EPERM].contains(errno) { break }
            return .failure(.init(description: "\(destination): cannot write (\(String(cString: strerror(errno))))"))
        }
        // Fallback: read and write through a buffer.
        let chunk = 1 << 20
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: chunk, alignment: 4096)
        defer { buffer.deallocate() }
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
        }
    }
}
