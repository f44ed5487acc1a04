import Foundation
import ReelRuntime
import ReelCore
import Synchronization

/// Writes one ``AccessLogEntry`` line per request, whole lines only, from any thread.
///
/// Each line goes out in one `write()`. Where the kernel already keeps concurrent writes
/// whole — a regular file (POSIX makes each write to one atomic), a character device such
/// as a terminal or `/dev/null`, a pipe (writes up to `PIPE_BUF`, 4096 bytes, are atomic;
/// a line stays under 3.5 KB: method and path are cut at 512 bytes before escaping) —
/// the request threads write without taking a lock, so they never wait for each other's
/// system call. Anything else (a socket, say) is written under a lock.
final class AccessLog: Sendable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let needsLock: Bool
    private let lock = Locked(())

    /// Opens the destination (a file is created, mode 0640, and appended to).
    init(_ destination: AccessLogDestination) throws(HTTPServer.Error) {
        switch destination {
        case .standardOutput:
            fd = STDOUT_FILENO
            ownsDescriptor = false
        case .none:
            fd = -1
            ownsDescriptor = false
        case .file(let url):
            let opened = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard opened >= 0 else { throw .accessLog(url.path, ErrorSentence.posix(errno)) }
            fd = opened
            ownsDescriptor = true
        }
        needsLock = fd >= 0 && !Self.writesStayWhole(fd)
    }

    /// Whether the kernel keeps each `write()` of a line to `fd` whole against concurrent ones.
    static func writesStayWhole(_ fd: Int32) -> Bool {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return false }
        switch info.st_mode & S_IFMT {
        case S_IFREG, S_IFCHR, S_IFIFO: return true
        default: return false
        }
    }

    /// Writes `entry`'s line.
    func record(_ entry: AccessLogEntry) {
        guard fd >= 0 else { return }
        var bytes: [UInt8] = []
        entry.appendLine(to: &bytes)
        bytes.append(UInt8(ascii: "\n"))
        if needsLock {
            lock.withLock { _ in write(bytes) }
        } else {
            write(bytes)
        }
    }

    private func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { buffer in
            var done = 0
            while done < buffer.count {
                let count = Glibc.write(fd, buffer.baseAddress! + done, buffer.count - done)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                done += count
            }
        }
    }

    deinit { if ownsDescriptor { close(fd) } }
}

/// Where a server's access log lines go.
public enum AccessLogDestination: Sendable, Hashable {
    /// Standard output.
    case standardOutput
    /// Appended to a file.
    case file(URL)
    /// Nowhere.
    case none
}
