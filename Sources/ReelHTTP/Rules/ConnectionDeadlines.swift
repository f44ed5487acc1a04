/// Deadlines that keep slow or idle clients from holding connections: the bounds a plain idle
/// timeout misses, because a client trickling one byte a second is never idle.
///
/// - A new connection's first request head must be complete within ``firstRequestTimeout``
///   seconds of the connection opening; every later request's within ``headerTimeout``
///   seconds of the previous request ending (this also ends idle keep-alive).
/// - With ``evictWhenFull``, a connection that opens while every connection is in use pushes
///   out the one that has waited longest for its first request head, or is refused when every
///   connection has made a request (``arrival(among:open:capacity:)``): clients that open
///   connections and send nothing, or trickle, cannot keep a browser out, while connections
///   that have made requests (a signed-in tab, its event stream) stay.
/// - While the server is under pressure (most of its connections in use), a keep-alive
///   connection idle between requests for ``idleUnderPressure`` seconds is closed, so that
///   clients holding connections open cannot lock newcomers out.
/// - An upload must average at least ``minimumUploadRate`` bytes a second once it has run
///   for ``uploadGrace`` seconds.
/// - A download must average at least ``minimumDownloadRate`` bytes a second (acknowledged by
///   the client) once it has run for ``downloadGrace`` seconds.
///
/// A value type; the server's watchdog asks it about every connection on an interval.
public struct ConnectionDeadlines: Sendable, Hashable {
    /// Seconds allowed for a request's headers (and for idling between requests).
    public var headerTimeout: Double
    /// Bytes per second an upload must average.
    public var minimumUploadRate: Double
    /// Seconds an upload may run before its rate is judged.
    public var uploadGrace: Double
    /// Bytes per second a download must average.
    public var minimumDownloadRate: Double
    /// Seconds a download may run before its rate is judged.
    public var downloadGrace: Double
    /// Seconds an idle keep-alive connection is kept while the server is under pressure.
    public var idleUnderPressure: Double
    /// Seconds a new connection has for its first request head.
    public var firstRequestTimeout: Double
    /// Whether a connection opening into a full server pushes out the one waiting longest for
    /// its first request head.
    public var evictWhenFull = false

    /// Deadlines; the defaults suit public addresses and slow links alike.
    public init(headerTimeout: Double = 30, minimumUploadRate: Double = 1024, uploadGrace: Double = 10,
                minimumDownloadRate: Double = 2048, downloadGrace: Double = 10, idleUnderPressure: Double = 1,
                firstRequestTimeout: Double? = nil) {
        self.headerTimeout = headerTimeout
        self.minimumUploadRate = minimumUploadRate
        self.uploadGrace = uploadGrace
        self.minimumDownloadRate = minimumDownloadRate
        self.downloadGrace = downloadGrace
        self.idleUnderPressure = idleUnderPressure
        self.firstRequestTimeout = firstRequestTimeout ?? headerTimeout
    }

    /// Where a connection is, with the times the deadlines count from.
    public enum Phase: Sendable, Hashable {
        /// A new connection waiting for (the rest of) its first request's headers since this time.
        case awaitingRequest(since: Double)
        /// Idle between requests (or receiving the next one's headers) since this time.
        case keepAlive(since: Double)
        /// Receiving a body since this time, this many bytes so far.
        case uploading(since: Double, received: Int)
        /// Headers (and body) are in; the server is working on the answer.
        case responding
        /// The answer is being sent since this time; `acknowledged` counts what the client had
        /// acknowledged on the connection when it started.
        case sending(since: Double, acknowledged: UInt64)
    }

    /// What to do with a connection.
    public enum Verdict: Sendable, Hashable {
        /// Leave it.
        case keep
        /// Headers took too long.
        case dropSlowHeaders
        /// Idle while others need the connection.
        case dropIdleUnderPressure
        /// The upload is slower than the minimum rate.
        case dropSlowUpload
        /// The client reads the answer slower than the minimum rate.
        case dropSlowDownload
    }

    /// The verdict for a connection in `phase` at `now`. `acknowledged` is what the client has
    /// acknowledged on the connection by now (nil when unknown: the rate is not judged);
    /// `underPressure` says whether most of the server's connections are in use.
    public func verdict(_ phase: Phase, now: Double, acknowledged: UInt64? = nil, underPressure: Bool = false) -> Verdict {
        switch phase {
        case .awaitingRequest(let since):
            return now - since > firstRequestTimeout ? .dropSlowHeaders : .keep
        case .keepAlive(let since):
            if now - since > headerTimeout { return .dropSlowHeaders }
            return underPressure && now - since > idleUnderPressure ? .dropIdleUnderPressure : .keep
        case .uploading(let since, let received):
            let elapsed = now - since
            guard elapsed > uploadGrace else { return .keep }
            return Double(received) / elapsed < minimumUploadRate ? .dropSlowUpload : .keep
        case .responding:
            return .keep
        case .sending(let since, let start):
            let elapsed = now - since
            guard elapsed > downloadGrace, let acknowledged else { return .keep }
            let sent = acknowledged >= start ? Double(acknowledged - start) : 0
            return sent / elapsed < minimumDownloadRate ? .dropSlowDownload : .keep
        }
    }
}

extension ConnectionDeadlines {
    /// What becomes of a connection as it opens (``arrival(among:open:capacity:)``).
    public enum Arrival<Key> {
        /// It is served, and nothing else changes.
        case admit
        /// It is served, and this connection is pushed out to make room.
        case evict(Key)
        /// It is shut at once: the server is full, and every connection has made a request.
        case refuse
    }

    /// The connection a new one pushes out: with ``evictWhenFull``, once `open` connections
    /// (the new one counted) reach `capacity`, the one among `connections` (the new one not
    /// among them) that has waited longest for its first request head; nil when the server is
    /// not full, or no connection is still waiting for its first request.
    public func evictee<Key>(among connections: some Sequence<(key: Key, phase: Phase)>, open: Int, capacity: Int) -> Key? {
        guard evictWhenFull, open >= capacity else { return nil }
        var oldest: (key: Key, since: Double)?
        for (key, phase) in connections {
            guard case .awaitingRequest(let since) = phase, since < oldest?.since ?? .infinity else { continue }
            oldest = (key, since)
        }
        return oldest?.key
    }

    /// A new connection's fate with ``evictWhenFull``: the ``evictee(among:open:capacity:)``
    /// goes to make room; with none to push out, a newcomer past `capacity` is refused, so
    /// `capacity` connections at most are served. Without ``evictWhenFull`` every connection
    /// is admitted here (the server's own connection limit is the bound).
    public func arrival<Key>(among connections: some Sequence<(key: Key, phase: Phase)>, open: Int, capacity: Int) -> Arrival<Key> {
        guard evictWhenFull else { return .admit }
        if let evicted = evictee(among: connections, open: open, capacity: capacity) { return .evict(evicted) }
        return open > capacity ? .refuse : .admit
    }
}

extension ConnectionDeadlines.Arrival: Equatable where Key: Equatable {}

/// How many connections each address may hold at once: one client must not take every
/// connection the server has. Trusted proxies carry many clients on their address and are not
/// capped. A value type; the server keeps one behind its connection lock.
public struct ConnectionAdmission: Sendable {
    /// Connections one address may hold; 0 leaves addresses uncapped.
    public let maxPerAddress: Int
    /// Addresses not capped (trusted proxies).
    public let exempt: Set<String>
    private var open: [String: Int] = [:]

    public init(maxPerAddress: Int, exempt: Set<String> = []) {
        self.maxPerAddress = max(0, maxPerAddress)
        self.exempt = exempt
    }

    /// Counts a new connection from `address`; `false` (and not counted) when the address
    /// already holds its share.
    public mutating func admit(_ address: String) -> Bool {
        let current = open[address, default: 0]
        guard maxPerAddress == 0 || exempt.contains(address) || current < maxPerAddress else { return false }
        open[address] = current + 1
        return true
    }

    /// A counted connection from `address` has closed.
    public mutating func release(_ address: String) {
        guard let current = open[address] else { return }
        if current <= 1 { open.removeValue(forKey: address) } else { open[address] = current - 1 }
    }

    /// Connections counted for `address`.
    public func connections(from address: String) -> Int { open[address, default: 0] }
}
