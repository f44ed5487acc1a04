import Foundation
import CLinux
import Synchronization

/// A thread running a throwing body once, observable from async code: a capture loop or a
/// writer that must keep its own thread (blocking I/O, FFmpeg pointers owned by one thread)
/// while the caller goes on and later waits for it.
///
/// The one way Reel starts and joins a thread: ``run(name:_:)`` starts it, ``wait()`` (async)
/// or ``join()`` (blocking) return when the body has — woken by the thread itself, never by
/// polling.
public final class WorkerThread: Sendable {
    private struct State {
        var finished = false
        var error: (any Error)?
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())
    private let done = DispatchSemaphore(value: 0)

    /// Whether the body has returned or thrown.
    public var isFinished: Bool { state.withLock { $0.finished } }
    /// What the body threw, once finished.
    public var error: (any Error)? { state.withLock { $0.error } }

    /// Starts `body` on a new thread named `name` (4 MiB stack).
    public static func run(name: String, _ body: @escaping @Sendable () throws -> Void) -> WorkerThread {
        let handle = WorkerThread()
        let thread = Thread {
            var failure: (any Error)?
            do { try body() } catch { failure = error }
            handle.finish(failure)
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
        return handle
    }

    private func finish(_ failure: (any Error)?) {
        let waiters = state.withLock { s in
            s.finished = true
            s.error = failure
            defer { s.waiters = [] }
            return s.waiters
        }
        done.signal()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once the body has finished (woken by the thread, not by polling).
    public func wait() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let finished = state.withLock { s in
                if !s.finished { s.waiters.append(continuation) }
                return s.finished
            }
            if finished { continuation.resume() }
        }
    }

    /// Blocks the calling thread until the body has finished.
    public func join() {
        done.wait()
        done.signal()  // later joins return at once too
    }
}

extension WorkerThread {
    /// Gives the calling thread, and the threads it starts from now on, the nice value `nice`
    /// (1 to 19: lower priority), so background work (an export beside a recording) yields
    /// the processor. False when the system refuses (the thread runs on unchanged).
    @discardableResult
    public static func lowerCurrentPriority(nice: Int32) -> Bool {
        reel_set_thread_nice(nice) == 0
    }
}
