import Foundation
import ReelCore
import Synchronization

/// Writes one ``AccessLogEntry`` line per request, whole lines only, from any thread.
final class AccessLog: Sendable {
    private let fd: Int32
    private let ownsDescriptor: Bool
    private let lock = Mutex(())

    /// Opens the destination (a file is created, mode 0640, and appended to).
    init(_ destination: OriginSettings.AccessLogDestination) throws(OriginServer.Error) {
        switch destination {
        case .standardOutput:
            fd = STDOUT_FILENO
            ownsDescriptor = false
        case .none:
            fd = -1
            ownsDescriptor = false
        case .file(let url):
            let opened = open(url.path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
            guard opened >= 0 else { throw .accessLog(url.path, String(cString: strerror(errno))) }
            fd = opened
            ownsDescriptor = true
        }
    }

    /// Writes `entry`'s line.
    func record(_ entry: AccessLogEntry) {
        guard fd >= 0 else { return }
        let bytes = Array((entry.line + "\n").utf8)
        lock.withLock { _ in
            var done = 0
            while done < bytes.count {
                let count = bytes[done...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                done += count
            }
        }
    }

    deinit { if ownsDescriptor { close(fd) } }
}
