import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

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

@Suite struct OriginTokenTests {
    @Test func generatedTokensAre256BitHex() {
        var generator = SystemRandomNumberGenerator()
        let a = OriginToken.generate(using: &generator), b = OriginToken.generate(using: &generator)
        #expect(a.text.count == 64 && a.text.allSatisfy(\.isHexDigit))
        #expect(a.text != b.text)
        var seeded = SplitMix64(seed: 7)
        var again = SplitMix64(seed: 7)
        #expect(OriginToken.generate(using: &seeded).text == OriginToken.generate(using: &again).text)
    }

    @Test func comparison() throws {
        let token = try OriginToken("0123456789abcdef0123456789abcdef\n")
        #expect(token.text == "0123456789abcdef0123456789abcdef")
        #expect(token.matches("0123456789abcdef0123456789abcdef"))
        #expect(!token.matches("0123456789abcdef0123456789abcdeF"))
        #expect(!token.matches("0123456789abcdef0123456789abcde"))
        #expect(!token.matches("0123456789abcdef0123456789abcdef0"))
        #expect(!token.matches(""))
        // Lengths that wrap around a byte must not compare equal.
        let long = try OriginToken(String(repeating: "a", count: 272))
        #expect(!long.matches(String(repeating: "a", count: 16)))
    }

    @Test func badTokensAreRefused() {
        #expect(throws: OriginToken.Error.badLength(5)) { try OriginToken("short") }
        #expect(throws: OriginToken.Error.badCharacters) { try OriginToken("0123456789abcdef 0123456789abcdef") }
        #expect(throws: OriginToken.Error.badCharacters) { try OriginToken("0123456789abcdef\u{e9}0123456789abcdef") }
        #expect(throws: OriginToken.Error.badLength(513)) { try OriginToken(String(repeating: "a", count: 513)) }
    }

    @Test func bearerHeader() {
        #expect(OriginToken.bearer(fromAuthorization: "Bearer abc") == "abc")
        #expect(OriginToken.bearer(fromAuthorization: "bearer   abc  ") == "abc")
        #expect(OriginToken.bearer(fromAuthorization: "Basic YWJj") == nil)
        #expect(OriginToken.bearer(fromAuthorization: "Bearer ") == nil)
        #expect(OriginToken.bearer(fromAuthorization: "Bearer") == nil)
        #expect(OriginToken.bearer(fromAuthorization: nil) == nil)
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

    @Test func memoryIsBounded() {
        var limiter = AuthFailureLimiter(maxFailures: 2, window: 10, maxClients: 100)
        for i in 0..<1000 { limiter.recordFailure("c\(i)", now: Double(i) / 1000) }
        #expect(limiter.trackedClients <= 100)
        limiter.recordFailure("c999", now: 1)
        #expect(limiter.retryAfter("c999", now: 1) != nil, "the newest addresses are kept")
        for i in 0..<200 { limiter.recordFailure("d\(i)", now: 100) }
        #expect(limiter.trackedClients <= 100)
        #expect(limiter.retryAfter("c999", now: 100) == nil)
    }
}

@Suite struct ConnectionDeadlinesTests {
    let deadlines = ConnectionDeadlines(headerTimeout: 5, minimumUploadRate: 1000, uploadGrace: 3)

    @Test func headersMustArriveInTime() {
        #expect(deadlines.verdict(.awaitingRequest(since: 10), now: 15) == .keep)
        #expect(deadlines.verdict(.awaitingRequest(since: 10), now: 15.1) == .dropSlowHeaders)
        #expect(deadlines.verdict(.responding, now: 1000) == .keep)
    }

    @Test func uploadsMustKeepTheMinimumRate() {
        #expect(deadlines.verdict(.uploading(since: 0, received: 0), now: 3) == .keep, "grace")
        #expect(deadlines.verdict(.uploading(since: 0, received: 4), now: 4) == .dropSlowUpload, "a byte a second")
        #expect(deadlines.verdict(.uploading(since: 0, received: 4000), now: 4) == .keep)
        #expect(deadlines.verdict(.uploading(since: 0, received: 4000), now: 5) == .dropSlowUpload)
    }
}

@Suite struct StreamSummaryTests {
    @Test func playlistTextGivesCountAndState() throws {
        let layout = try StreamLayout(streamID: "desk")
        let live = "#EXTM3U\n#EXT-X-VERSION:7\n#EXTINF:2.000,\nseg/000001.m4s\n#EXTINF:2.000,\nseg/000002.m4s\n"
        let a = StreamSummary(layout: layout, updatedAt: Date(timeIntervalSince1970: 10), playlistText: live)
        #expect(a.segmentCount == 2 && !a.isFinished && a.playlistURL == "/streams/desk/playlist.m3u8")
        let ended = StreamSummary(layout: layout, updatedAt: Date(timeIntervalSince1970: 10), playlistText: live + "#EXT-X-ENDLIST\r\n")
        #expect(ended.isFinished && ended.segmentCount == 2)
        #expect(StreamSummary(layout: layout, updatedAt: Date(), playlistText: "").segmentCount == 0)
    }

    @Test func listIsNewestFirstWithTheAgreedFields() throws {
        let older = StreamSummary(layout: try StreamLayout(streamID: "b"), updatedAt: Date(timeIntervalSince1970: 1_700_000_000.5), playlistText: "")
        let newer = StreamSummary(layout: try StreamLayout(streamID: "a"), updatedAt: Date(timeIntervalSince1970: 1_700_000_100), playlistText: "#EXTINF:2,\nx\n#EXT-X-ENDLIST\n")
        let json = String(decoding: StreamSummary.listJSON([older, newer]), as: UTF8.self)
        #expect(json == """
            {"streams":[{"isFinished":true,"playlistURL":"/streams/a/playlist.m3u8","segmentCount":1,"streamId":"a","updatedAt":"2023-11-14T22:15:00.000Z"},\
            {"isFinished":false,"playlistURL":"/streams/b/playlist.m3u8","segmentCount":0,"streamId":"b","updatedAt":"2023-11-14T22:13:20.500Z"}]}
            """)
        #expect(String(decoding: StreamSummary.listJSON([]), as: UTF8.self) == "{\"streams\":[]}")
        #expect(String(decoding: StreamSummary.listJSON([], serverTime: Date(timeIntervalSince1970: 1_700_000_000.25)), as: UTF8.self)
                == "{\"serverTime\":\"2023-11-14T22:13:20.250Z\",\"streams\":[]}")
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
