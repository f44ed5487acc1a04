#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// An exclusive `flock` on a recording's work folder, held by the recorder for as long as it
/// runs: `reel recover` skips a folder it cannot lock (a recording still running), so it never
/// finishes a recording under a live recorder. The kernel drops the lock when the process
/// dies, however it dies, so a crashed recording is always recoverable.
final class WorkFolderLock: Sendable {
    private let fd: Int32

    /// Locks `folder`, or throws `EWOULDBLOCK` when another process holds it.
    init(_ folder: String) throws(FileError) {
        fd = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw FileError("opening folder", folder) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Glibc.close(fd)
            throw FileError("locking", folder, code: code)
        }
    }

    /// Whether `folder` is locked by a running recorder (another open file description).
    static func isHeld(_ folder: String) -> Bool {
        do {
            _ = try WorkFolderLock(folder)
            return false
        } catch {
            return error.code == EWOULDBLOCK
        }
    }

    deinit { Glibc.close(fd) }
}
