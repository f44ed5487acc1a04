/// Caps failed authentications per client address: after ``maxFailures`` failures within
/// ``window`` seconds, every PUT/DELETE from that address is refused (429) until the oldest
/// failure leaves the window. A value type; the caller passes the time (seconds on a
/// monotonic clock), so tests drive it without waiting.
///
/// Memory is bounded: at most ``maxClients`` addresses are remembered; when full, expired
/// entries go first, then the addresses whose last failure is oldest.
public struct AuthFailureLimiter: Sendable {
    /// Failures allowed within the window before the address is blocked.
    public let maxFailures: Int
    /// Seconds a failure counts against its address.
    public let window: Double
    /// Addresses remembered at most.
    public let maxClients: Int

    private var failures: [String: [Double]] = [:]

    /// A limiter: `maxFailures` failures per `window` seconds per address.
    public init(maxFailures: Int = 10, window: Double = 60, maxClients: Int = 10_000) {
        precondition(maxFailures > 0 && window > 0 && maxClients > 0)
        self.maxFailures = maxFailures
        self.window = window
        self.maxClients = maxClients
    }

    /// Seconds until `client` may try again, or `nil` when it is not blocked at `now`.
    public func retryAfter(_ client: String, now: Double) -> Double? {
        let recent = (failures[client] ?? []).filter { now - $0 < window }
        guard recent.count >= maxFailures else { return nil }
        return recent[recent.count - maxFailures] + window - now
    }

    /// Counts a failed authentication by `client` at `now`.
    public mutating func recordFailure(_ client: String, now: Double) {
        var recent = (failures[client] ?? []).filter { now - $0 < window }
        recent.append(now)
        if recent.count > maxFailures { recent.removeFirst(recent.count - maxFailures) }
        failures[client] = recent
        if failures.count > maxClients { evict(now: now) }
    }

    /// How many addresses are remembered (for tests and status).
    public var trackedClients: Int { failures.count }

    private mutating func evict(now: Double) {
        failures = failures.filter { _, times in times.contains { now - $0 < window } }
        guard failures.count > maxClients else { return }
        let newestFirst = failures.sorted { ($0.value.last ?? 0) > ($1.value.last ?? 0) }
        failures = Dictionary(uniqueKeysWithValues: newestFirst.prefix(maxClients).map { ($0.key, $0.value) })
    }
}
