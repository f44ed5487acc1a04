import CMicroHTTPD
import ReelRuntime

/// Requests a service holds (``HTTPStart/hold(key:until:)``): each one's connection is
/// suspended in libmicrohttpd, so a held request costs no thread and no poll, only this entry.
/// A wake-up or a passed deadline removes the entry and resumes the connection; libmicrohttpd
/// then calls the access handler again, which asks the service again.
///
/// Resuming happens outside the lock, and a request is resumed at most once per hold: the
/// entry is removed before its connection is resumed, by whichever comes first.
final class HeldRequests: Sendable {
    private struct Entry {
        var request: HTTPRequest
        var key: String
        var deadline: Double
    }

    private let entries = Locked<[ObjectIdentifier: Entry]>([:])
    /// Set by ``releaseAll()``: nothing is held any more (the server is stopping).
    private let closed = Locked(false)
    private let limit: Int

    init(limit: Int) {
        self.limit = max(0, limit)
    }

    var count: Int { entries.withLock { $0.count } }

    /// Suspends `request`'s connection (in its access handler call) under `key` until
    /// `deadline`; `false`, and not suspended, when the limit is reached.
    func park(_ request: HTTPRequest, key: String, until deadline: Double) -> Bool {
        // Suspended under the lock: a wake-up on another thread can only take the entry, and
        // resume the connection, once it is suspended.
        entries.withLock { entries -> Bool in
            guard entries.count < limit, !closed.withLock({ $0 }) else { return false }
            entries[ObjectIdentifier(request)] = Entry(request: request, key: key, deadline: deadline)
            MHD_suspend_connection(request.connection)
            return true
        }
    }

    /// Resumes every request held under `key`.
    func wake(_ key: String) {
        resume(entries.withLock { entries in take(from: &entries) { $0.key == key } }, expired: false)
    }

    /// Resumes, with their wait over, the requests whose deadline is `now` or earlier.
    func expire(now: Double) {
        resume(entries.withLock { entries in take(from: &entries) { $0.deadline <= now } }, expired: true)
    }

    /// Holds requests again (the server starts).
    func reopen() {
        entries.withLock { _ in closed.withLock { $0 = false } }
    }

    /// Resumes every held request with its wait over, and holds none from now on (the server
    /// is stopping: libmicrohttpd must not stop with a connection suspended).
    func releaseAll() {
        entries.withLock { _ in closed.withLock { $0 = true } }
        resume(entries.withLock { entries in take(from: &entries) { _ in true } }, expired: true)
    }

    private func take(from entries: inout [ObjectIdentifier: Entry], where matches: (Entry) -> Bool) -> [Entry] {
        var taken: [Entry] = []
        for (id, entry) in entries where matches(entry) {
            entries.removeValue(forKey: id)
            taken.append(entry)
        }
        return taken
    }

    private func resume(_ taken: [Entry], expired: Bool) {
        for entry in taken {
            if expired { entry.request.holdExpired = true }
            MHD_resume_connection(entry.request.connection)
        }
    }
}
