import CMicroHTTPD
import Foundation
import ReelCore
import ReelRuntime
import Synchronization

/// Enforces ``ConnectionDeadlines`` and ``ConnectionAdmission`` on libmicrohttpd's
/// connections, which has only an idle timeout: a client sending one header byte a second,
/// trickling a body, reading an answer a few bytes at a time or holding many idle
/// connections is never idle.
///
/// The server reports each connection's phase (opened, request started, upload progress,
/// answer queued, request ended, closed); a connection from an address that already holds its
/// share is shut down as it opens; a thread checks every connection on an interval and shuts
/// down the socket of one past its deadline. How fast a client reads an answer is what the
/// kernel says it acknowledged (`TCP_INFO`). libmicrohttpd then sees the closed socket and
/// cleans the connection up itself. Shutting down happens under the same lock as the
/// removal on close, so a descriptor number is never touched after libmicrohttpd closed it.
final class ConnectionWatchdog: Sendable {
    private struct Record {
        var fd: Int32
        var address: String
        var phase: ConnectionDeadlines.Phase
        var admitted: Bool
        var dropped = false
        /// The request ended while its answer may still sit in the socket: it stays
        /// `.sending` until the client has acknowledged everything.
        var draining = false
    }

    private struct State {
        var records: [UInt: Record] = [:]
        var admission: ConnectionAdmission
    }

    private let deadlines: ConnectionDeadlines
    private let interval: Double
    /// Open connections at or above this count put the server under pressure.
    private let pressureThreshold: Int
    /// Connections served at most with ``ConnectionDeadlines/evictWhenFull`` (the settings'
    /// `maxConnections`): a newcomer past it pushes one out or is refused. A pushed-out socket
    /// is only shut down here and counts against libmicrohttpd's limit until its thread closes
    /// it, which is why that limit is larger (``HTTPServerSettings/libraryConnectionLimit``).
    private let capacity: Int
    private let state: Locked<State>
    private let ticker = Locked<(any Ticker)?>(nil)
    private let drops = Atomic<Int>(0)
    private let refusals = Atomic<Int>(0)
    private let start = ContinuousClock.now

    init(deadlines: ConnectionDeadlines, interval: Double, admission: ConnectionAdmission, maxConnections: Int) {
        self.deadlines = deadlines
        self.interval = interval
        pressureThreshold = max(1, maxConnections * 3 / 4)
        capacity = max(1, maxConnections)
        state = Locked(State(admission: admission))
    }

    /// Seconds since the watchdog was made, on the monotonic clock.
    var now: Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Connections dropped so far for missing a deadline.
    var dropped: Int { drops.load(ordering: .relaxed) }

    /// Connections refused so far as they opened: their address held its share, or (with
    /// eviction) the server was full of connections that had made requests.
    var refused: Int { refusals.load(ordering: .relaxed) }

    /// Starts the checking thread: a sweep every interval, then `alsoEachPass` with the time.
    func run(alsoEachPass: @escaping @Sendable (Double) -> Void = { _ in }) {
        let started = RealClock().every(MediaTime(seconds: interval), name: "reel-http-watchdog") { [self] _ in
            sweep()
            alsoEachPass(now)
        }
        ticker.withLock { $0 = started }
    }

    /// Stops the checking thread; when it returns, no sweep runs.
    func stop() {
        ticker.withLock { $0 }?.stop()
    }

    /// A connection from socket address `address` opened; one over the address's share is shut
    /// down at once (libmicrohttpd then closes it as it would any closed socket), and one into a
    /// full server pushes another out or is shut down (``ConnectionDeadlines/arrival(among:open:capacity:)``).
    func opened(_ connection: UInt, fd: Int32, address: String) {
        let now = now
        state.withLock { state in
            let admitted = state.admission.admit(address)
            state.records[connection] = Record(fd: fd, address: address, phase: .awaitingRequest(since: now),
                                               admitted: admitted, dropped: !admitted)
            if !admitted {
                Self.abort(fd)
                refusals.add(1, ordering: .relaxed)
                return
            }
            let waiting = state.records.lazy.filter { $0.key != connection && !$0.value.dropped }.map { (key: $0.key, phase: $0.value.phase) }
            let open = state.records.values.count(where: { !$0.dropped })
            switch deadlines.arrival(among: waiting, open: open, capacity: capacity) {
            case .admit:
                break
            case .evict(let evicted):
                guard let victim = state.records[evicted] else { break }
                Self.abort(victim.fd)
                state.records[evicted]?.dropped = true
                drops.add(1, ordering: .relaxed)
            case .refuse:
                Self.abort(fd)
                state.records[connection]?.dropped = true
                refusals.add(1, ordering: .relaxed)
            }
        }
    }

    /// Sends `bytes` on `connection`'s socket itself and ends its sending side, so that what
    /// libmicrohttpd queues after them never reaches the client (for an answer libmicrohttpd
    /// would make without the service). False when the connection is gone or was dropped.
    func answerDirectly(_ connection: UInt, _ bytes: [UInt8]) -> Bool {
        state.withLock { state in
            guard let record = state.records[connection], !record.dropped else { return false }
            let sent = bytes.withUnsafeBytes { send(record.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            shutdown(record.fd, Int32(SHUT_WR))
            state.records[connection]?.dropped = true
            return sent == bytes.count
        }
    }

    func closed(_ connection: UInt) {
        state.withLock { state in
            guard let record = state.records.removeValue(forKey: connection) else { return }
            if record.admitted { state.admission.release(record.address) }
        }
    }

    func requestStarted(_ connection: UInt, uploading: Bool) {
        let now = now
        setPhase(connection, uploading ? .uploading(since: now, received: 0) : .responding)
    }

    func uploaded(_ connection: UInt, total: Int) {
        state.withLock { state in
            if case .uploading(let since, _) = state.records[connection]?.phase {
                state.records[connection]?.phase = .uploading(since: since, received: total)
            }
        }
    }

    func responding(_ connection: UInt) {
        setPhase(connection, .responding)
    }

    /// An answer was queued: from now on the client must read it at the minimum rate.
    func sending(_ connection: UInt) {
        let now = now
        state.withLock { state in
            guard let fd = state.records[connection]?.fd else { return }
            let acknowledged = reel_tcp_bytes_acknowledged(fd)
            // Where the kernel cannot tell, the rate is not judged.
            state.records[connection]?.phase = acknowledged == .max ? .responding : .sending(since: now, acknowledged: acknowledged)
        }
    }

    func requestEnded(_ connection: UInt) {
        let now = now
        setPhase(connection, .keepAlive(since: now))
    }

    private func setPhase(_ connection: UInt, _ phase: ConnectionDeadlines.Phase) {
        state.withLock { state in
            guard var record = state.records[connection] else { return }
            if case .keepAlive = phase, case .sending = record.phase {
                // libmicrohttpd is done once the kernel took the bytes; the client may not be.
                record.draining = true
            } else {
                record.phase = phase
                record.draining = false
            }
            state.records[connection] = record
        }
    }

    /// Ends a connection now: with lingering off, libmicrohttpd's close resets it and the
    /// kernel drops whatever it still held to send (a slow reader's megabytes), and the
    /// shutdown wakes libmicrohttpd to close it.
    private static func abort(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        shutdown(fd, Int32(SHUT_RDWR))
    }

    /// One pass: shuts down every connection past a deadline.
    func sweep() {
        let now = now
        state.withLock { state in
            let underPressure = state.records.count >= pressureThreshold
            for (key, record) in state.records where !record.dropped {
                var acknowledged: UInt64?
                if case .sending = record.phase {
                    if record.draining && reel_socket_unacknowledged(record.fd) <= 0 {
                        state.records[key]?.phase = .keepAlive(since: now)
                        state.records[key]?.draining = false
                        continue
                    }
                    let value = reel_tcp_bytes_acknowledged(record.fd)
                    acknowledged = value == .max ? nil : value
                }
                let verdict = deadlines.verdict(record.phase, now: now, acknowledged: acknowledged, underPressure: underPressure)
                guard verdict != .keep else { continue }
                Self.abort(record.fd)
                state.records[key]?.dropped = true
                drops.add(1, ordering: .relaxed)
            }
        }
    }
}
