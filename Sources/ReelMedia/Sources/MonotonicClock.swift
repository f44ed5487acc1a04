#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ReelCore

/// The capture clock: CLOCK_MONOTONIC in nanoseconds, as cameras stamp frames.
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> MediaTime {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return .nanoseconds(Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec))
    }

    /// Sleeps until the clock reads `deadline` (returns at once if it already has).
    public static func sleep(until deadline: MediaTime) {
        let remaining = deadline.nanoseconds - now().nanoseconds
        guard remaining > 0 else { return }
        var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
        var left = timespec()
        while nanosleep(&request, &left) != 0 && errno == EINTR { request = left }
    }
}
