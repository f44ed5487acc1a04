import Synchronization

/// "Stop now, because …", shared by a pipeline's threads: the first reason wins, and what
/// must happen on a stop (a source told to stop, a queue closed) is registered once and run
/// once, whichever thread asks — a signal handler, a key, a watchdog, the end of a file.
public final class StopSignal: Sendable {
    private struct State {
        var reason: String?
        var handlers: [@Sendable (String) -> Void] = []
    }
    private let state = Locked(State())

    /// A signal not yet given.
    public init() {}

    /// Why the stop was asked for (nil: not yet).
    public var reason: String? { state.withLock { $0.reason } }

    /// Whether a stop was asked for.
    public var isRequested: Bool { reason != nil }

    /// Asks for a stop for `reason`; true when this was the first request (only that one's
    /// reason is kept and only it runs the handlers, outside the lock).
    @discardableResult
    public func request(_ reason: String) -> Bool {
        let handlers: [@Sendable (String) -> Void]? = state.withLock { s in
            guard s.reason == nil else { return nil }
            s.reason = reason
            defer { s.handlers = [] }
            return s.handlers
        }
        guard let handlers else { return false }
        for handler in handlers { handler(reason) }
        return true
    }

    /// Runs `handler` on the first stop request (at once, on this thread, when one came already).
    public func onStop(_ handler: @escaping @Sendable (String) -> Void) {
        let already: String? = state.withLock { s in
            if let reason = s.reason { return reason }
            s.handlers.append(handler)
            return nil
        }
        if let already { handler(already) }
    }
}
