import ReelHTTP
import Testing

/// A new connection's shorter deadline for its first request head, and the connection a new
/// one pushes out of a full server, or its refusal when none can go
/// (``ConnectionDeadlines/arrival(among:open:capacity:)``), and the library's larger limit.
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

    @Test func aNewcomerIsRefusedOnlyWhenTheServerIsFullOfConnectionsThatMadeRequests() {
        var rules = ConnectionDeadlines()
        rules.evictWhenFull = true
        let waiting: [(key: Int, phase: Phase)] = [(1, .responding), (2, .awaitingRequest(since: 3)), (3, .keepAlive(since: 0))]
        let busy = waiting.filter { $0.key != 2 }
        #expect(rules.arrival(among: waiting, open: 3, capacity: 4) == .admit, "room left")
        #expect(rules.arrival(among: waiting, open: 4, capacity: 4) == .evict(2), "full: the one still waiting goes")
        #expect(rules.arrival(among: waiting, open: 9, capacity: 4) == .evict(2))
        #expect(rules.arrival(among: busy, open: 4, capacity: 4) == .admit, "exactly full: the newcomer is the last served")
        #expect(rules.arrival(among: busy, open: 5, capacity: 4) == .refuse, "past full with nothing to push out")
        #expect(ConnectionDeadlines().arrival(among: busy, open: 9, capacity: 4) == .admit, "without eviction the library's limit rules")
    }

    @Test func theLibrarysLimitLeavesRoomForPushedOutConnectionsStillClosing() {
        var settings = HTTPServerSettings(host: "127.0.0.1", port: 0, accessLog: .none, threading: .perConnection,
                                          maxConnections: 64, messagePrefix: "test")
        #expect(settings.libraryConnectionLimit == 64, "without eviction libmicrohttpd holds the bound")
        settings.deadlines.evictWhenFull = true
        #expect(settings.libraryConnectionLimit == 96)
        settings.maxConnections = 4
        #expect(settings.libraryConnectionLimit == 12, "at least 8 more")
    }
}
