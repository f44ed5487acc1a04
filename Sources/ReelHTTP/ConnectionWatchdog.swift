import Foundation
import ReelCore
import ReelRuntime
import Synchronization

/// Enforces ``ConnectionDeadlines`` on libmicrohttpd's connections, which has only an idle
/// timeout: a client sending one header byte a second, or trickling a body, is never idle.
///
/// The server reports each connection's phase (opened, request started, upload progress,
/// request ended, closed); a thread checks every connection on an interval and shuts down
/// the socket of one past its deadline. libmicrohttpd then sees the closed socket and
/// cleans the connection up itself. Shutting down happens under the same lock as the
/// removal on close, so a descriptor number is never touched after libmicrohttpd closed it.
final class ConnectionWatchdog: Sendable {
    private struct Record {
        var fd: Int32
        var phase: ConnectionDeadlines.Phase
        var dropped = false
    }

    private let deadlines: ConnectionDeadlines
    private let interval: Double
    private let records = Locked<[UInt: Record]>([:])
    private let ticker = Locked<(any Ticker)?>(nil)
    private let drops = Atomic<Int>(0)
    private let clock = ContinuousClock()
    private let start = ContinuousClock.now

    init(deadlines: ConnectionDeadlines, interval: Double) {
        self.deadlines = deadlines
        self.interval = interval
    }

    /// Seconds since the watchdog was made, on the monotonic clock.
    var now: Double {
        let elapsed = start.duration(to: .now).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// Connections dropped so far.
    var dropped: Int { drops.load(ordering: .relaxed) }

    /// Starts the checking thread: a sweep every interval.
    func run() {
        let started = RealClock().every(MediaTime(seconds: interval), name: "reel-http-watchdog") { [self] _ in sweep() }
        ticker.withLock { $0 = started }
    }

    /// Stops the checking thread; when it returns, no sweep runs.
    func stop() {
        ticker.withLock { $0 }?.stop()
    }

    func opened(_ connection: UInt, fd: Int32) {
        let now = now
        records.withLock { $0[connection] = Record(fd: fd, phase: .awaitingRequest(since: now)) }
    }

    func closed(_ connection: UInt) {
        _ = records.withLock { $0.removeValue(forKey: connection) }
    }

    func requestStarted(_ connection: UInt, uploading: Bool) {
        let now = now
        records.withLock { $0[connection]?.phase = uploading ? .uploading(since: now, received: 0) : .responding }
    }

    func uploaded(_ connection: UInt, total: Int) {
        records.withLock { records in
            if case .uploading(let since, _) = records[connection]?.phase {
                records[connection]?.phase = .uploading(since: since, received: total)
            }
        }
    }

    func responding(_ connection: UInt) {
        records.withLock { $0[connection]?.phase = .responding }
    }

    func requestEnded(_ connection: UInt) {
        let now = now
        records.withLock { $0[connection]?.phase = .awaitingRequest(since: now) }
    }

    /// One pass: shuts down every connection past a deadline.
    func sweep() {
        let now = now
        records.withLock { records in
            for (key, record) in records where !record.dropped {
                guard deadlines.verdict(record.phase, now: now) != .keep else { continue }
                shutdown(record.fd, Int32(SHUT_RDWR))
                records[key]?.dropped = true
                drops.add(1, ordering: .relaxed)
            }
        }
    }
}
