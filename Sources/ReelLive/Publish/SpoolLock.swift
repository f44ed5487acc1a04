import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// An exclusive `flock` on a spool folder, held while an ``HLSPublisher`` writes to it. The
/// kernel drops it when the process ends, however it ends, so a spool whose lock can be taken
/// belongs to no running stream: `reel live` lists it as waiting, `reel publish` may take it.
final class SpoolLock: Sendable {
    private let descriptor: Int32

    /// Takes the lock on `folder` (which must exist); nil when another process holds it.
    /// Throws the errno when the folder cannot be opened.
    static func take(_ folder: URL) throws -> SpoolLock? {
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return SpoolLock(descriptor: fd)
    }

    /// Whether some process holds the lock on `folder` now (false when the folder is missing).
    static func isHeld(_ folder: URL) -> Bool {
        do { return try take(folder) == nil } catch { return false }
    }

    private init(descriptor: Int32) { self.descriptor = descriptor }

    deinit { close(descriptor) }
}
