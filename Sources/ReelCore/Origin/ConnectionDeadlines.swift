/// Deadlines that keep slow clients from holding connections: the bounds a plain idle
/// timeout misses, because a client trickling one byte a second is never idle.
///
/// - Every request's headers must be complete within ``headerTimeout`` seconds of the
///   connection opening or the previous request ending (this also ends idle keep-alive).
/// - An upload must average at least ``minimumUploadRate`` bytes a second once it has run
///   for ``uploadGrace`` seconds.
///
/// A value type; the server's watchdog asks it about every connection once a second.
public struct ConnectionDeadlines: Sendable, Hashable {
    /// Seconds allowed for a request's headers (and for idling between requests).
    public var headerTimeout: Double
    /// Bytes per second an upload must average.
    public var minimumUploadRate: Double
    /// Seconds an upload may run before its rate is judged.
    public var uploadGrace: Double

    /// Deadlines; the defaults suit public addresses and slow uplinks alike.
    public init(headerTimeout: Double = 30, minimumUploadRate: Double = 1024, uploadGrace: Double = 10) {
        self.headerTimeout = headerTimeout
        self.minimumUploadRate = minimumUploadRate
        self.uploadGrace = uploadGrace
    }

    /// Where a connection is, with the times the deadlines count from.
    public enum Phase: Sendable, Hashable {
        /// Waiting for (the rest of) a request's headers since this time.
        case awaitingRequest(since: Double)
        /// Receiving a body since this time, this many bytes so far.
        case uploading(since: Double, received: Int)
        /// Headers (and body) are in; the server is answering.
        case responding
    }

    /// What to do with a connection.
    public enum Verdict: Sendable, Hashable {
        /// Leave it.
        case keep
        /// Headers took too long.
        case dropSlowHeaders
        /// The upload is slower than the minimum rate.
        case dropSlowUpload
    }

    /// The verdict for a connection in `phase` at `now`.
    public func verdict(_ phase: Phase, now: Double) -> Verdict {
        switch phase {
        case .awaitingRequest(let since):
            return now - since > headerTimeout ? .dropSlowHeaders : .keep
        case .uploading(let since, let received):
            let elapsed = now - since
            guard elapsed > uploadGrace else { return .keep }
            return Double(received) / elapsed < minimumUploadRate ? .dropSlowUpload : .keep
        case .responding:
            return .keep
        }
    }
}
