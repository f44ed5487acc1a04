import Foundation
import ReelHTTP
import ReelRuntime

/// The studio's server-sent events: every open `/api/events` stream gets each event published,
/// newest state first when it connects.
///
/// Events are states (the status, a recording's progress), so a stream that falls behind
/// needs only the newest of each name: a subscription keeps at most one pending event per
/// name, and a slow browser costs memory for one snapshot per name, never a backlog.
final class StudioEvents: Sendable {
    private struct State {
        var subscriptions: [ObjectIdentifier: EventSubscription] = [:]
        /// The browser session each stream was opened by (none for a script with the token).
        var owners: [ObjectIdentifier: String] = [:]
        /// The newest data of each event, for streams that connect later.
        var latest: [StudioEvent: String] = [:]
        var closed = false
    }

    private let state = Locked(State())
    private let maxStreams: Int
    private let keepAlive: Double

    init(maxStreams: Int, keepAlive: Double) {
        self.maxStreams = maxStreams
        self.keepAlive = keepAlive
    }

    /// Streams open now.
    var streamCount: Int { state.withLock { $0.subscriptions.count } }

    /// Sends `data` (one line of JSON) as `event` to every stream, and keeps it for the
    /// streams that open later.
    func publish(_ event: StudioEvent, data: String) {
        let subscriptions = state.withLock { state -> [EventSubscription] in
            state.latest[event] = data
            return Array(state.subscriptions.values)
        }
        for subscription in subscriptions { subscription.post(event, data: data) }
    }

    /// A new stream with the newest state of every event, or nil when ``maxStreams`` are open
    /// or the studio is stopping. `owner` is the browser session that opens it.
    func subscribe(owner: String?) -> EventSubscription? {
        state.withLock { state -> EventSubscription? in
            guard !state.closed, state.subscriptions.count < maxStreams else { return nil }
            let subscription = EventSubscription(keepAlive: keepAlive) { [weak self] ended in
                self?.state.withLock { state in
                    state.subscriptions.removeValue(forKey: ObjectIdentifier(ended))
                    state.owners.removeValue(forKey: ObjectIdentifier(ended))
                }
            }
            for (event, data) in state.latest.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { subscription.post(event, data: data) }
            state.subscriptions[ObjectIdentifier(subscription)] = subscription
            if let owner { state.owners[ObjectIdentifier(subscription)] = owner }
            return subscription
        }
    }

    /// Ends the streams `owner` opened (a session that signed out hears nothing more).
    func close(owner: String) {
        let ended = state.withLock { state in
            state.owners.filter { $0.value == owner }.compactMap { state.subscriptions[$0.key] }
        }
        for subscription in ended { subscription.close() }
    }

    /// Ends every stream (their reads return at once) and refuses new ones.
    func closeAll() {
        let subscriptions = state.withLock { state -> [EventSubscription] in
            state.closed = true
            return Array(state.subscriptions.values)
        }
        for subscription in subscriptions { subscription.close() }
    }
}

/// One browser's event stream: the body of an `/api/events` response, read on its
/// connection's thread. A read waits for the next event, at most ``keepAlive`` seconds; then
/// it sends a comment, which keeps proxies from closing the stream and tells the server when
/// the browser has gone (the write fails and libmicrohttpd ends the request).
final class EventSubscription: HTTPStream, @unchecked Sendable {
    // @unchecked: every field below is touched only with `condition` held.
    private let condition = NSCondition()
    private var pending: [(event: StudioEvent, data: String)] = []
    private var unsent: [UInt8] = Array("retry: 2000\n\n".utf8)
    private var closed = false
    private let keepAlive: Double
    private let ended: @Sendable (EventSubscription) -> Void

    init(keepAlive: Double, ended: @escaping @Sendable (EventSubscription) -> Void) {
        self.keepAlive = keepAlive
        self.ended = ended
    }

    /// Queues `event`, replacing one of the same name not yet sent.
    func post(_ event: StudioEvent, data: String) {
        condition.withLock {
            if let index = pending.firstIndex(where: { $0.event == event }) {
                pending[index].data = data
            } else {
                pending.append((event, data))
            }
            condition.signal()
        }
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> Int? {
        condition.withLock { () -> Int? in
            if unsent.isEmpty {
                let deadline = Date(timeIntervalSinceNow: keepAlive)
                while pending.isEmpty && !closed {
                    if !condition.wait(until: deadline) { break }
                }
                if closed { return nil }
                if pending.isEmpty {
                    unsent = Array(": keep-alive\n\n".utf8)
                } else {
                    for event in pending { unsent += Array("event: \(event.event.rawValue)\ndata: \(event.data)\n\n".utf8) }
                    pending.removeAll()
                }
            }
            let count = min(buffer.count, unsent.count)
            unsent.withUnsafeBytes { buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
            unsent.removeFirst(count)
            return count
        }
    }

    func close() {
        let first = condition.withLock { () -> Bool in
            defer { closed = true; condition.broadcast() }
            return !closed
        }
        if first { ended(self) }
    }
}
