import ReelRuntime
import Synchronization

/// A request from outside (Ctrl-C, SIGTERM) to stop an export or a vlog. The command line
/// asks from its signal handler; ``PrivacyExporter`` and ``WeeklyVlog`` look at it before
/// each picture and stop by throwing ``Stopped``, after removing every hidden file: an export
/// that was stopped leaves nothing behind.
public final class ExportStopRequest: Sendable {
    private let reason = Locked<String?>(nil)

    /// A request nobody has made yet.
    public init() {}

    /// Asks to stop, saying why ("Ctrl-C"); the first reason stays.
    public func request(reason text: String) {
        reason.withLock { if $0 == nil { $0 = text } }
    }

    /// Why stopping was asked for; nil while it was not.
    public var requestedReason: String? { reason.withLock { $0 } }

    /// Removes the hidden files of every export and vlog in progress in this process and
    /// refuses new ones: for a signal that ends the process at once (a second Ctrl-C), just
    /// before it does. Safe to call from any thread.
    public static func removeHiddenFilesNow() {
        ExportOutput.removeAllInProgress()
    }

    /// Throws ``Stopped`` once stopping was asked for.
    func check() throws {
        if let requestedReason { throw Stopped(reason: requestedReason) }
    }

    /// The export or vlog stopped because it was asked to: nothing was written, and the
    /// partial output (its hidden files) was removed.
    public struct Stopped: Error, CustomStringConvertible {
        /// Why ("Ctrl-C", "SIGTERM").
        public var reason: String
        public var description: String { "stopped (\(reason)): nothing was written; the partial output was removed" }
    }
}
