/// Caps failed authentications per client address: after ``maxFailures`` failures within
/// ``window`` seconds, wrong tokens from that address get 429 until the oldest of those
/// failures leaves the window. It only judges failures: the server compares the token first,
/// so a correct token is never refused by it. A value type; the caller passes the time
/// (seconds on a monotonic clock), so tests drive it without waiting.
///
/// Memory and time are bounded, and the table cannot be flushed:
/// - an address is forgotten only once its last failure has left the window, never to make
///   room, so failures from many other addresses cannot unblock one;
/// - at most ``maxClients`` addresses are remembered; while the table is full, failures from
///   addresses it does not hold count together in one shared entry (``othersKey``), which
///   blocks them all together;
/// - every call costs O(1) amortized: failures expire from the front of a queue in the order
///   they were recorded, with no sort or scan under the caller's lock.
public struct AuthFailureLimiter: Sendable {
    /// Failures allowed within the window before the address is blocked.
    public let maxFailures: Int
    /// Seconds a failure counts against its address.
    public let window: Double
    /// Addresses remembered at most (besides the shared entry).
    public let maxClients: Int
    /// The shared entry's name in ``trackedClients``' count and in messages.
    public static let othersKey = "(other addresses)"

    private struct Entry: Sendable {
        /// The latest failures, oldest first, at most `maxFailures`.
        var times: [Double] = []
        /// The stamp of the latest failure (matches its record in `order`).
        var lastStamp: UInt64 = 0
    }

    private struct Record: Sendable {
        var client: String
        var stamp: UInt64
        var time: Double
    }

    private var entries: [String: Entry] = [:]
    private var others = Entry()
    /// Every failure in the order recorded; `head` is the first one still queued.
    private var order: [Record] = []
    private var head = 0
    private var stamps: UInt64 = 0

    /// A limiter: `maxFailures` failures per `window` seconds per address.
    public init(maxFailures: Int = 10, window: Double = 60, maxClients: Int = 10_000) {
        precondition(maxFailures > 0 && window > 0 && maxClients > 0)
        self.maxFailures = maxFailures
        self.window = window
        self.maxClients = maxClients
    }

    /// Seconds until a wrong token from `client` is judged again, or `nil` when it is not
    /// blocked at `now`.
    public func retryAfter(_ client: String, now: Double) -> Double? {
        let entry = entries[client] ?? (entries.count >= maxClients ? others : nil)
        guard let entry, entry.times.count >= maxFailures, let oldest = entry.times.first, now - oldest < window else {
            return nil
        }
        return oldest + window - now
    }

    /// Counts a failed authentication by `client` at `now`. A failure while the address is
    /// blocked is not counted: it is refused anyway, and it does not extend the block.
    public mutating func recordFailure(_ client: String, now: Double) {
        expire(now: now)
        guard retryAfter(client, now: now) == nil else { return }
        stamps &+= 1
        let key = entries[client] != nil || entries.count < maxClients ? client : Self.othersKey
        var entry = key == Self.othersKey ? others : entries[key, default: Entry()]
        entry.times.append(now)
        if entry.times.count > maxFailures { entry.times.removeFirst(entry.times.count - maxFailures) }
        entry.lastStamp = stamps
        if key == Self.othersKey { others = entry } else { entries[key] = entry }
        order.append(Record(client: key, stamp: stamps, time: now))
    }

    /// How many addresses are remembered (for tests and status); the shared entry is not counted.
    public var trackedClients: Int { entries.count }

    /// Failures still queued (for tests: bounded by the addresses times the cap).
    public var queuedFailures: Int { order.count - head }

    /// Forgets every failure that has left the window, from the front of the queue; an
    /// address goes with its last failure.
    private mutating func expire(now: Double) {
        while head < order.count, now - order[head].time >= window {
            let record = order[head]
            head += 1
            if record.client == Self.othersKey {
                if others.lastStamp == record.stamp { others = Entry() }
            } else if entries[record.client]?.lastStamp == record.stamp {
                entries.removeValue(forKey: record.client)
            }
        }
        if head > 64 && head * 2 > order.count {
            order.removeFirst(head)
            head = 0
        }
    }
}
