/// How long to wait before the next attempt of a failed upload.
///
/// Every PUT first gets a few quick attempts (by default 3: the first, then after 250 ms,
/// then after 500 ms). When those are used up the upload is *backing off*: it stays queued
/// and is retried with capped exponential backoff (1 s, 2 s, 4 s, 8 s, 8 s, …), so an origin
/// outage costs a retry every few seconds and loses nothing.
///
/// Deterministic (no jitter): a single publisher talks to one origin, so there is no herd
/// to spread out, and tests can state exact times.
public struct RetryPolicy: Sendable, Hashable {
    /// Waits between the quick attempts; `n` delays allow `n + 1` quick attempts.
    public var quickDelays: [MediaTime]
    /// The first wait once the quick attempts are used up.
    public var backoffInitial: MediaTime
    /// The longest wait between two attempts while backing off.
    public var backoffCap: MediaTime

    /// 3 quick attempts (waits 250 ms, 500 ms), then 1 s, 2 s, 4 s, capped at 8 s.
    public static let `default` = RetryPolicy(
        quickDelays: [MediaTime(value: 250, timescale: 1000), MediaTime(value: 500, timescale: 1000)],
        backoffInitial: MediaTime(value: 1, timescale: 1),
        backoffCap: MediaTime(value: 8, timescale: 1)
    )

    /// A policy; `backoffCap` below `backoffInitial` is raised to it.
    public init(quickDelays: [MediaTime], backoffInitial: MediaTime, backoffCap: MediaTime) {
        precondition(backoffInitial > .zero, "the backoff must wait a positive time")
        self.quickDelays = quickDelays
        self.backoffInitial = backoffInitial
        self.backoffCap = max(backoffCap, backoffInitial)
    }

    /// How many attempts an upload gets before it starts backing off.
    public var quickAttempts: Int { quickDelays.count + 1 }

    /// Whether an upload that failed `failures` times in a row is past its quick attempts.
    public func isBackingOff(afterFailures failures: Int) -> Bool { failures >= quickAttempts }

    /// The wait before the next attempt of an upload that has failed `failures` times in a
    /// row (`failures >= 1`).
    ///
    /// With the default policy: 1 → 250 ms, 2 → 500 ms, 3 → 1 s, 4 → 2 s, 5 → 4 s, 6+ → 8 s.
    public func delay(afterFailures failures: Int) -> MediaTime {
        precondition(failures >= 1, "a delay is only asked for after a failure")
        if failures <= quickDelays.count { return quickDelays[failures - 1] }
        var delay = backoffInitial
        var doublings = failures - quickAttempts
        while doublings > 0 && delay < backoffCap {
            delay = delay * 2
            doublings -= 1
        }
        return min(delay, backoffCap)
    }
}
