import ReelHTTP

/// The one-time sign-in codes of a running studio: the link a browser opens carries one
/// (`/?code=…`) instead of the token, so the address in the browser's history, or in a file
/// someone saw, signs nobody in. A code is spent on its first use and expires after
/// ``lifetime`` seconds; at most ``capacity`` are outstanding (a new one pushes out the
/// oldest). A value type without clocks: the caller passes the time.
public struct SignInCodes: Sendable {
    /// Seconds a code is good for.
    public let lifetime: Double
    /// Codes outstanding at most.
    public let capacity: Int
    private var issued: [(code: OriginToken, expires: Double)] = []

    public init(lifetime: Double = 120, capacity: Int = 8) {
        precondition(lifetime > 0 && capacity > 0)
        self.lifetime = lifetime
        self.capacity = capacity
    }

    /// Keeps `code` (made by the caller: ``OriginToken/generate(using:)``) as issued at `now`; returns
    /// the codes pushed out to make room (the oldest), which are no longer good.
    public mutating func issue(_ code: OriginToken, now: Double) -> [String] {
        issued.append((code, now + lifetime))
        let excess = max(0, issued.count - capacity)
        defer { issued.removeFirst(excess) }
        return issued.prefix(excess).map(\.code.text)
    }

    /// Spends `presented` at `now`: true when it was an outstanding code, which is then gone.
    /// Every outstanding code is compared, each in time that depends only on the lengths.
    public mutating func spend(_ presented: some StringProtocol, now: Double) -> Bool {
        var found: Int?
        for (index, entry) in issued.enumerated() where entry.code.matches(presented) && now < entry.expires {
            found = index
        }
        guard let found else { return false }
        issued.remove(at: found)
        return true
    }

    /// Forgets the codes expired at `now`; returns them.
    public mutating func expire(now: Double) -> [String] {
        let expired = issued.filter { now >= $0.expires }.map(\.code.text)
        issued.removeAll { now >= $0.expires }
        return expired
    }

    /// Codes outstanding (expired ones count until ``expire(now:)`` forgets them).
    public var outstanding: Int { issued.count }
}
