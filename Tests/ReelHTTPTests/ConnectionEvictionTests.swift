import ReelHTTP
import Testing

/// A new connection's shorter deadline for its first request head, and the connection a new
/// one pushes out of a full server (``ConnectionDeadlines/evictee(among:open:capacity:)``).
@Suite struct ConnectionEvictionTests {
    typealias Phase = ConnectionDeadlines.Phase

    @Test func aNewConnectionHasItsOwnDeadlineForItsFirstRequestHead() {
        let rules = ConnectionDeadlines(headerTimeout: 30, firstRequestTimeout: 10)
        #expect(rules.verdict(.awaitingRequest(since: 0), now: 10) == .keep)
        #expect(rules.verdict(.awaitingRequest(since: 0), now: 10.1) == .dropSlowHeaders)
        #expect(rules.verdict(.keepAlive(since: 0), now: 29) == .keep, "later requests keep the header timeout")
        #expect(ConnectionDeadlines(headerTimeout: 30).firstRequestTimeout == 30, "the same by default")
    }

    @Test func aFullServerPushesOutTheConnectionWaitingLongestForItsFirstRequest() {
        var rules = ConnectionDeadlines()
        rules.evictWhenFull = true
        let connections: [(key: Int, phase: Phase)] = [
            (1, .keepAlive(since: 0)), (2, .awaitingRequest(since: 5)), (3, .sending(since: 1, acknowledged: 0)),
            (4, .awaitingRequest(since: 2)), (5, .responding), (6, .uploading(since: 0, received: 0)),
        ]
        #expect(rules.evictee(among: connections, open: 7, capacity: 7) == 4, "the oldest still waiting for its first head")
        #expect(rules.evictee(among: connections, open: 8, capacity: 7) == 4)
        #expect(rules.evictee(among: connections, open: 6, capacity: 7) == nil, "not full: nothing goes")
        let busy = connections.filter { if case .awaitingRequest = $0.phase { false } else { true } }
        #expect(rules.evictee(among: busy, open: 7, capacity: 7) == nil, "connections that made requests stay")
        #expect(ConnectionDeadlines().evictee(among: connections, open: 7, capacity: 7) == nil, "off by default")
    }
}
