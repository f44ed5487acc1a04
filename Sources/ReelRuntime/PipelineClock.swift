import Foundation
import ReelCore
import Synchronization

/// The time a pipeline's supervision runs on: the machine's monotonic clock when recording
/// (``RealClock``), a ``VirtualClock`` in tests, where time moves only when the pipeline's
/// driving thread waits, so a watchdog's or a schedule's decision never depends on how busy the
/// machine is.
public protocol PipelineClock: Sendable {
    /// Now.
    func now() -> MediaTime
    /// Blocks the calling thread until the clock reads `deadline` (returns at once if it has).
    func sleep(until deadline: MediaTime)
    /// Calls `tick` with the time every `period` until the returned ticker is stopped: on a
    /// thread of its own named `name` (real), or inside ``sleep(until:)`` of the thread that
    /// moves the time (virtual). Ticks never overlap.
    func every(_ period: MediaTime, name: String, _ tick: @escaping @Sendable (MediaTime) -> Void) -> any Ticker
}

/// A running ``PipelineClock/every(_:name:_:)``.
public protocol Ticker: Sendable {
    /// Stops the ticks; when it returns, no tick runs and none will start (called from a tick,
    /// it only prevents the next one).
    func stop()
}

/// `CLOCK_MONOTONIC`: never jumps with the wall clock, in nanoseconds since an arbitrary start.
public struct RealClock: PipelineClock {
    /// The machine's monotonic clock.
    public init() {}

    public func now() -> MediaTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .nanoseconds(Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    public func sleep(until deadline: MediaTime) {
        let remaining = deadline.nanoseconds - now().nanoseconds
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
    }

    public func every(_ period: MediaTime, name: String, _ tick: @escaping @Sendable (MediaTime) -> Void) -> any Ticker {
        precondition(period > .zero, "a tick period must be positive")
        return ThreadTicker(clock: self, period: period, name: name, tick: tick)
    }
}

/// A real clock's ticks on their own thread; ``stop()`` wakes it at once (a condition, not a
/// poll) and joins it.
///
/// The thread's body holds the ticker (and through `tick` whatever the tick captures: a whole
/// recorder, with its encoder and the encoder's threads), and the ticker holds the thread: the
/// thread lets go of its reference once it ended, so the pair is released with its last
/// outside owner instead of living for ever.
private final class ThreadTicker: Ticker, @unchecked Sendable {
    // @unchecked: `stopped`, `finished` and `thread` are only touched with `condition` held.
    private let condition = NSCondition()
    private var stopped = false
    private var finished = false
    private var thread: Thread?

    init(clock: RealClock, period: MediaTime, name: String, tick: @escaping @Sendable (MediaTime) -> Void) {
        let thread = Thread { [self] in
            var next = clock.now() + period
            while waitUntil(next, clock: clock) {
                let now = clock.now()
                tick(now)
                next = max(next + period, now)
            }
            condition.withLock {
                finished = true
                self.thread = nil
                condition.broadcast()
            }
        }
        thread.name = name
        self.thread = thread
        thread.start()
    }

    /// Waits until `deadline` or a stop; false when stopped.
    private func waitUntil(_ deadline: MediaTime, clock: RealClock) -> Bool {
        condition.withLock {
            while !stopped {
                let remaining = (deadline - clock.now()).seconds
                if remaining <= 0 { return true }
                condition.wait(until: Date(timeIntervalSinceNow: remaining))
            }
            return false
        }
    }

    func stop() {
        condition.withLock {
            stopped = true
            condition.broadcast()
            guard thread != nil, Thread.current !== thread else { return }
            while !finished { condition.wait() }
        }
    }
}

/// A clock for tests: it reads `start` until someone moves it, and moves only forward.
/// ``sleep(until:)`` moves it (the sleeper is the one that drives the time: a scripted source
/// waiting for its next frame), and every tick that falls due on the way runs then, on the
/// moving thread, in time order, at its own time. So "0.4 s without a frame" is decided the
/// same way on an idle machine and on a loaded one.
///
/// Moving the time is serialised: ticks run one at a time, even when two threads move it.
public final class VirtualClock: PipelineClock {
    private struct Timer {
        var next: MediaTime
        let period: MediaTime
        let tick: @Sendable (MediaTime) -> Void
    }
    private struct State {
        var now: MediaTime
        var timers: [Int: Timer] = [:]
        var nextID = 0
    }
    private let state: Locked<State>
    /// Held while the time moves (recursive: a tick may sleep, which moves the time further).
    private let moving = NSRecursiveLock()

    /// A clock reading `start`.
    public init(start: MediaTime = .zero) {
        state = Locked(State(now: start))
    }

    public func now() -> MediaTime { state.withLock { $0.now } }

    /// Moves the time to `target` (never back), running the ticks that fall due on the way.
    public func advance(to target: MediaTime) {
        moving.withLock {
            while let (time, tick) = nextDue(before: target) { tick(time) }
        }
    }

    /// Moves the time on by `duration`.
    public func advance(by duration: MediaTime) { advance(to: now() + duration) }

    public func sleep(until deadline: MediaTime) { advance(to: deadline) }

    public func every(_ period: MediaTime, name: String, _ tick: @escaping @Sendable (MediaTime) -> Void) -> any Ticker {
        precondition(period > .zero, "a tick period must be positive")
        let id = state.withLock { s in
            s.nextID += 1
            s.timers[s.nextID] = Timer(next: s.now + period, period: period, tick: tick)
            return s.nextID
        }
        return VirtualTicker(clock: self, id: id)
    }

    /// The earliest tick due at or before `target` (the time set to it, the timer rescheduled),
    /// or nil with the time set to `target`.
    private func nextDue(before target: MediaTime) -> (MediaTime, @Sendable (MediaTime) -> Void)? {
        state.withLock { s in
            guard let (id, timer) = s.timers.min(by: { ($0.value.next, $0.key) < ($1.value.next, $1.key) }),
                  timer.next <= target else {
                s.now = max(s.now, target)
                return nil
            }
            let time = max(s.now, timer.next)
            s.now = time
            s.timers[id]?.next = timer.next + timer.period
            return (time, timer.tick)
        }
    }

    fileprivate func remove(_ id: Int) {
        // Taking `moving` waits for a tick running on another thread to end.
        moving.withLock { _ = state.withLock { $0.timers.removeValue(forKey: id) } }
    }
}

private struct VirtualTicker: Ticker {
    let clock: VirtualClock
    let id: Int
    func stop() { clock.remove(id) }
}
