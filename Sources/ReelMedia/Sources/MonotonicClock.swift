import ReelCore
import ReelRuntime

/// The capture clock: CLOCK_MONOTONIC in nanoseconds, as cameras stamp frames. The sources'
/// name for ReelRuntime's ``RealClock`` (one implementation of the clock).
public enum MonotonicClock {
    /// Now, in nanoseconds since an arbitrary start.
    public static func now() -> MediaTime { RealClock().now() }

    /// Sleeps until the clock reads `deadline` (returns at once if it already has).
    public static func sleep(until deadline: MediaTime) { RealClock().sleep(until: deadline) }
}
