import Foundation
import ReelCore
import Testing
@testable import ReelHTTP

@Suite struct ByteRangeTests {
    @Test func satisfiableRanges() {
        #expect(ByteRange(header: nil, length: 100) == .whole)
        #expect(ByteRange(header: "bytes=0-9", length: 100) == .partial(offset: 0, count: 10))
        #expect(ByteRange(header: "bytes=90-", length: 100) == .partial(offset: 90, count: 10))
        #expect(ByteRange(header: "bytes=-10", length: 100) == .partial(offset: 90, count: 10))
        #expect(ByteRange(header: "bytes=-500", length: 100) == .partial(offset: 0, count: 100))
        #expect(ByteRange(header: "bytes=50-5000", length: 100) == .partial(offset: 50, count: 50))
        #expect(ByteRange(header: "bytes=99-99", length: 100) == .partial(offset: 99, count: 1))
        #expect(ByteRange(header: " Bytes = 1-2 ", length: 100) == .partial(offset: 1, count: 2))
        #expect(ByteRange.partial(offset: 90, count: 10).contentRange(length: 100) == "bytes 90-99/100")
    }

    @Test func ignoredRangesServeEverything() {
        #expect(ByteRange(header: "items=0-1", length: 100) == .whole)
        #expect(ByteRange(header: "bytes=0-1,5-6", length: 100) == .whole)
        #expect(ByteRange.whole.contentRange(length: 100) == nil)
    }

    @Test(arguments: ["bytes=100-", "bytes=100-200", "bytes=5-2", "bytes=-0", "bytes=abc", "bytes=1-x", "bytes=", "bytes=-",
                      "bytes=+1-2", "bytes=1 -2", "bytes", "bytes=99999999999999999999-"])
    func unsatisfiableRanges(header: String) {
        #expect(ByteRange(header: header, length: 100) == .unsatisfiable, "\(header)")
        #expect(ByteRange.unsatisfiable.contentRange(length: 100) == "bytes */100")
    }

    @Test func emptyFilesHaveNoRanges() {
        #expect(ByteRange(header: "bytes=0-", length: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-1", length: 0) == .unsatisfiable)
        #expect(ByteRange(header: nil, length: 0) == .whole)
    }
}

@Suite struct EntityTagTests {
    let tag = EntityTag(inode: 0x1234, size: 5000, modificationNanoseconds: 1_700_000_000_123_456_789)

    @Test func identityMakesTheTag() {
        #expect(tag.headerValue.hasPrefix("\"1234-1388-") && tag.headerValue.hasSuffix("\""))
        #expect(tag != EntityTag(inode: 0x1235, size: 5000, modificationNanoseconds: 1_700_000_000_123_456_789), "a new file (rename) is a new version")
        #expect(tag != EntityTag(inode: 0x1234, size: 5000, modificationNanoseconds: 1_700_000_000_123_456_790))
        #expect(tag.gzipVariant != tag && tag.gzipVariant.headerValue.hasSuffix("-gz\""))
    }

    @Test func contentMakesTheTagOfBytesInMemory() {
        // FNV-1a 64 of "a" is af63dc4c8601ec8c (the published test vector).
        #expect(EntityTag(content: Array("a".utf8)).headerValue == "\"c-af63dc4c8601ec8c\"")
        #expect(EntityTag(content: Array("viewer".utf8)) == EntityTag(content: Array("viewer".utf8)))
        #expect(EntityTag(content: Array("viewer".utf8)) != EntityTag(content: Array("viewe r".utf8)))
    }

    @Test func ifRangeNamesThisVersionOnly() {
        let tag = EntityTag(inode: 1, size: 2, modificationNanoseconds: 3_000_000_000)
        let date = TimestampFormat.httpDate(secondsSince1970: 3)
        #expect(tag.permitsRange(ifRange: nil, lastModifiedSeconds: 3))
        #expect(tag.permitsRange(ifRange: tag.headerValue, lastModifiedSeconds: 3))
        #expect(!tag.permitsRange(ifRange: "W/" + tag.headerValue, lastModifiedSeconds: 3), "weak tags never match")
        #expect(!tag.permitsRange(ifRange: "\"other\"", lastModifiedSeconds: 3))
        #expect(tag.permitsRange(ifRange: date, lastModifiedSeconds: 3))
        #expect(!tag.permitsRange(ifRange: date, lastModifiedSeconds: 4))
    }

    @Test func ifNoneMatch() {
        #expect(tag.matches(ifNoneMatch: tag.headerValue))
        #expect(tag.matches(ifNoneMatch: "W/" + tag.headerValue))
        #expect(tag.matches(ifNoneMatch: "\"other\", " + tag.headerValue))
        #expect(tag.matches(ifNoneMatch: "*"))
        #expect(!tag.matches(ifNoneMatch: nil))
        #expect(!tag.matches(ifNoneMatch: "\"other\""))
        #expect(!tag.matches(ifNoneMatch: tag.opaque), "unquoted is not the tag")
        #expect(!tag.matches(ifNoneMatch: tag.gzipVariant.headerValue))
    }
}

@Suite struct ContentCodingTests {
    @Test func gzipNegotiation() {
        #expect(ContentCoding.acceptsGzip("gzip"))
        #expect(ContentCoding.acceptsGzip("gzip, deflate, br"))
        #expect(ContentCoding.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(ContentCoding.acceptsGzip("x-gzip"))
        #expect(ContentCoding.acceptsGzip("*"))
        #expect(!ContentCoding.acceptsGzip(nil))
        #expect(!ContentCoding.acceptsGzip("identity"))
        #expect(!ContentCoding.acceptsGzip("deflate, br"))
        #expect(!ContentCoding.acceptsGzip("gzip;q=0"))
        #expect(!ContentCoding.acceptsGzip("*, gzip;q=0"))
        #expect(!ContentCoding.acceptsGzip("*;q=0"))
    }
}

@Suite struct UploadPolicyTests {
    let policy = UploadPolicy()

    @Test func lengthIsRequiredAndBounded() {
        #expect(policy.maxBodyBytes == 32 * 1024 * 1024)
        #expect(policy.decide(contentLength: "0", transferEncoding: nil) == .accept(length: 0))
        #expect(policy.decide(contentLength: " 4096 ", transferEncoding: nil) == .accept(length: 4096))
        #expect(policy.decide(contentLength: String(32 << 20), transferEncoding: nil) == .accept(length: 32 << 20))
        #expect(policy.decide(contentLength: String((32 << 20) + 1), transferEncoding: nil) == .tooLarge(length: (32 << 20) + 1))
        #expect(policy.decide(contentLength: "99999999999999999999999", transferEncoding: nil) == .tooLarge(length: Int.max))
        #expect(policy.decide(contentLength: nil, transferEncoding: nil) == .lengthRequired)
        #expect(policy.decide(contentLength: nil, transferEncoding: "chunked") == .lengthRequired)
        #expect(policy.decide(contentLength: "10", transferEncoding: "chunked") == .lengthRequired)
        for bad in ["", "-1", "+1", "1e3", "0x10", "1,2", "12 34"] {
            #expect(policy.decide(contentLength: bad, transferEncoding: nil) == .invalidLength, "\(bad)")
        }
    }
}

@Suite struct AuthFailureLimiterTests {
    @Test func blocksAfterTheCapUntilTheWindowPasses() {
        var limiter = AuthFailureLimiter(maxFailures: 3, window: 60)
        for t in [0.0, 1, 2] {
            #expect(limiter.retryAfter("10.0.0.1", now: t) == nil)
            limiter.recordFailure("10.0.0.1", now: t)
        }
        #expect(limiter.retryAfter("10.0.0.1", now: 3) == 57)
        #expect(limiter.retryAfter("10.0.0.2", now: 3) == nil, "other addresses are not affected")
        #expect(limiter.retryAfter("10.0.0.1", now: 59.5) == 0.5)
        #expect(limiter.retryAfter("10.0.0.1", now: 60) == nil, "the first failure left the window")
        limiter.recordFailure("10.0.0.1", now: 60)
        #expect(limiter.retryAfter("10.0.0.1", now: 60) == 1, "failures at 1, 2, 60: blocked until 61")
    }

    @Test func aFullTableCannotBeFlushed() {
        var limiter = AuthFailureLimiter(maxFailures: 3, window: 60, maxClients: 100)
        for t in [0.0, 1, 2] { limiter.recordFailure("victim", now: t) }
        #expect(limiter.retryAfter("victim", now: 3) == 57)
        // 20,000 other addresses, one failure each: the attack the table must survive.
        for i in 0..<20_000 { limiter.recordFailure("10.1.\(i / 256).\(i % 256)", now: 3 + Double(i) / 10_000) }
        #expect(limiter.trackedClients == 100)
        #expect(limiter.retryAfter("victim", now: 5) == 55, "the block still holds")
        #expect(limiter.retryAfter("10.9.9.9", now: 5) != nil, "addresses beyond the table share one entry, which is blocked")
        #expect(limiter.retryAfter("10.1.0.5", now: 5) == nil, "a remembered address with one failure is not")
        #expect(limiter.queuedFailures == 105, "3 + 99 + the shared entry's 3: failures while blocked are not queued")
    }

    @Test func addressesAreForgottenWithTheirLastFailure() {
        var limiter = AuthFailureLimiter(maxFailures: 2, window: 10, maxClients: 100)
        for i in 0..<100 { limiter.recordFailure("c\(i)", now: Double(i) / 100) }
        limiter.recordFailure("c5", now: 9)
        #expect(limiter.trackedClients == 100)
        limiter.recordFailure("late", now: 11)
        #expect(limiter.trackedClients == 2, "c5 (failed at 9) and the newcomer remain")
        #expect(limiter.retryAfter("late", now: 11) == nil)
        #expect(limiter.retryAfter("c5", now: 11) == nil, "one failure in the window")
        limiter.recordFailure("c5", now: 11)
        #expect(limiter.retryAfter("c5", now: 11) == 8, "failures at 9 and 11: blocked until 19")
    }

    @Test func oneAddressHammeringQueuesOnlyItsCap() {
        var limiter = AuthFailureLimiter(maxFailures: 10, window: 60)
        for i in 0..<100_000 { limiter.recordFailure("10.0.0.1", now: Double(i) / 1000) }
        #expect(limiter.queuedFailures <= 20)
        #expect(limiter.retryAfter("10.0.0.1", now: 100) != nil)
    }
}

@Suite struct ConnectionDeadlinesTests {
    let deadlines = ConnectionDeadlines(headerTimeout: 5, minimumUploadRate: 1000, uploadGrace: 3)

    @Test func headersMustArriveInTime() {
        #expect(deadlines.verdict(.awaitingRequest(since: 10), now: 15) == .keep)
        #expect(deadlines.verdict(.awaitingRequest(since: 10), now: 15.1) == .dropSlowHeaders)
        #expect(deadlines.verdict(.responding, now: 1000) == .keep)
    }

    @Test func downloadsMustKeepTheMinimumRate() {
        let rules = ConnectionDeadlines(minimumDownloadRate: 1000, downloadGrace: 2)
        #expect(rules.verdict(.sending(since: 10, acknowledged: 500), now: 12, acknowledged: 500) == .keep, "grace")
        #expect(rules.verdict(.sending(since: 10, acknowledged: 500), now: 13, acknowledged: 3000) == .dropSlowDownload)
        #expect(rules.verdict(.sending(since: 10, acknowledged: 500), now: 13, acknowledged: 3500) == .keep, "1000 B/s")
        #expect(rules.verdict(.sending(since: 10, acknowledged: 500), now: 100, acknowledged: nil) == .keep, "unknown: not judged")
    }

    @Test func idleKeepAliveGivesWayUnderPressureOnly() {
        let rules = ConnectionDeadlines(headerTimeout: 30, idleUnderPressure: 1)
        #expect(rules.verdict(.keepAlive(since: 0), now: 20) == .keep)
        #expect(rules.verdict(.keepAlive(since: 0), now: 31) == .dropSlowHeaders)
        #expect(rules.verdict(.keepAlive(since: 0), now: 0.9, underPressure: true) == .keep)
        #expect(rules.verdict(.keepAlive(since: 0), now: 1.1, underPressure: true) == .dropIdleUnderPressure)
        #expect(rules.verdict(.awaitingRequest(since: 0), now: 5, underPressure: true) == .keep, "a new connection gets its header time")
    }

    @Test func uploadsMustKeepTheMinimumRate() {
        #expect(deadlines.verdict(.uploading(since: 0, received: 0), now: 3) == .keep, "grace")
        #expect(deadlines.verdict(.uploading(since: 0, received: 4), now: 4) == .dropSlowUpload, "a byte a second")
        #expect(deadlines.verdict(.uploading(since: 0, received: 4000), now: 4) == .keep)
        #expect(deadlines.verdict(.uploading(since: 0, received: 4000), now: 5) == .dropSlowUpload)
    }
}

@Suite struct ConnectionAdmissionTests {
    @Test func eachAddressHoldsItsShareAndProxiesAreNotCapped() {
        var admission = ConnectionAdmission(maxPerAddress: 2, exempt: ["10.0.0.9"])
        let first = admission.admit("10.0.0.1"), second = admission.admit("10.0.0.1"), third = admission.admit("10.0.0.1")
        #expect(first && second && !third)
        let other = admission.admit("10.0.0.2")
        #expect(other)
        admission.release("10.0.0.1")
        let again = admission.admit("10.0.0.1")
        #expect(again, "a closed connection frees its place")
        var proxied = 0
        for _ in 0..<100 where admission.admit("10.0.0.9") { proxied += 1 }
        #expect(proxied == 100, "a trusted proxy is not capped")
        admission.release("10.0.0.3")  // never admitted: nothing to release
        #expect(admission.connections(from: "10.0.0.3") == 0 && admission.connections(from: "10.0.0.1") == 2)
        var open = ConnectionAdmission(maxPerAddress: 0)
        var admitted = 0
        for _ in 0..<1000 where open.admit("10.0.0.1") { admitted += 1 }
        #expect(admitted == 1000, "0: no cap")
    }
}

@Suite struct ForwardedClientTests {
    @Test func onlyATrustedProxyNamesTheClient() {
        let proxies = ForwardedClient(trustedProxies: ["127.0.0.1", "10.0.0.5"])
        #expect(proxies.client(peer: "192.0.2.1", forwardedFor: "203.0.113.9") == "192.0.2.1", "an untrusted peer's header is ignored")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "203.0.113.9") == "203.0.113.9")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "1.1.1.1, 203.0.113.9") == "203.0.113.9",
                "what the client wrote itself sits left of what the proxy appended")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "203.0.113.9, 10.0.0.5") == "203.0.113.9", "a chain of trusted proxies")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "2001:db8::7") == "2001:db8::7")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: nil) == "127.0.0.1")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "evil.example") == "127.0.0.1", "malformed: the proxy's own address")
        #expect(proxies.client(peer: "127.0.0.1", forwardedFor: "10.0.0.5, 127.0.0.1") == "127.0.0.1", "all trusted")
    }
}

@Suite struct RequestFramingTests {
    @Test func ambiguousFramingIsRefused() {
        func check(_ headers: [(String, String)], version: String = "HTTP/1.1") -> String? {
            RequestFraming.check(version: version, headers: headers.map { (name: $0.0, value: $0.1) })?.description
        }
        #expect(check([("Host", "x"), ("Content-Length", "5")]) == nil)
        #expect(check([("Host", "x"), ("Transfer-Encoding", "chunked")]) == nil)
        #expect(check([("Host", "x"), ("Transfer-Encoding", ""), ("Content-Length", "5")]) != nil)
        #expect(check([("Host", "x"), ("Transfer-Encoding", "chunked"), ("Content-Length", "5")]) != nil)
        #expect(check([("Host", "x"), ("Transfer-Encoding", "gzip, chunked")]) != nil)
        #expect(check([("Host", "x"), ("Content-Length", "5"), ("Content-Length", "5")]) != nil)
        #expect(check([("Host", "x"), ("Content-Length", "+5")]) != nil)
        #expect(check([("Host", "x"), ("Content-Length ", "5")]) != nil)
        #expect(check([("Host", "x"), ("X-A", "1\rX-B: 2")]) != nil)
        #expect(check([]) != nil, "HTTP/1.1 needs Host")
        #expect(check([("Host", "a"), ("host", "b")]) != nil)
        #expect(check([], version: "HTTP/1.0") == nil)
        #expect(RequestFraming.isToken("X-Custom_1.2~") && !RequestFraming.isToken("a b") && !RequestFraming.isToken(""))
    }
}

@Suite struct AccessLogEntryTests {
    @Test func oneSafeLinePerRequest() {
        let entry = AccessLogEntry(time: Date(timeIntervalSince1970: 1_700_000_000), client: "127.0.0.1", method: "PUT",
                                   path: "/streams/desk/seg/000001.m4s", status: 201, bytes: 0, duration: 0.00321)
        #expect(entry.line == "2023-11-14T22:13:20.000Z 127.0.0.1 PUT /streams/desk/seg/000001.m4s 201 0 3.2ms")
        let hostile = AccessLogEntry(time: Date(timeIntervalSince1970: 0), client: "::1", method: "GET",
                                     path: "/a b\n1970-01-01 fake 200%", status: 404, bytes: 9, duration: 0, note: "client-abort")
        #expect(hostile.line == "1970-01-01T00:00:00.000Z ::1 GET /a%20b%0A1970-01-01%20fake%20200%25 404 9 0.0ms client-abort")
        #expect(!hostile.line.contains("\n"))
        let long = AccessLogEntry(time: Date(), client: "", method: "", path: String(repeating: "x", count: 5000), status: 0, bytes: 0, duration: 0)
        #expect(long.line.count < 600 && long.line.contains(" - - "))
    }
}
