#if canImport(Glibc)
import Glibc
#endif

/// A value behind a lock: Reel's one lock for shared mutable state, with the shape of the
/// standard library's `Mutex` (`withLock { $0 … }`) but a class over a `pthread_mutex_t`.
///
/// Why not `Synchronization.Mutex`: on Linux it locks with raw futex calls, which
/// ThreadSanitizer does not see, so every access it protects is reported as a data race
/// (measured: `make tsan` reported 19 races, every one inside a `Mutex.withLock`); TSan does see
/// pthread mutexes, so with this lock `make tsan` reports only real races. Being a class, it can
/// also be captured by a `@Sendable` closure, which a noncopyable `Mutex` cannot.
public final class Locked<Value>: @unchecked Sendable {
    // @unchecked: `value` is only reached between `pthread_mutex_lock` and `_unlock` of `mutex`,
    // and (as with `Mutex`) it goes in and out only as `sending`, so a non-Sendable value held
    // here is never also reachable from elsewhere.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    /// A lock holding `value`.
    public init(_ value: sending Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        self.value = value
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, the lock held (not reentrant: `body` must not take it again).
    public func withLock<Result, Failure: Error>(
        _ body: (inout sending Value) throws(Failure) -> sending Result
    ) throws(Failure) -> sending Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
