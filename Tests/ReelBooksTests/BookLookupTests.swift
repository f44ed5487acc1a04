import Foundation
import ReelBooks
import ReelTestSupport
import Testing

/// openBD → NDL lookups against the fixture server on loopback, and the disk cache.
@Suite("BookLookup")
struct BookLookupTests {
    struct Fixture {
        let dir: TemporaryDirectory
        let server: BookAPIFixtureServer
        var lookup: BookLookup {
            BookLookup(settings: .init(openBD: URL(string: server.openBDBase)!, ndl: URL(string: server.ndlBase)!, timeout: 5),
                       cache: BookLookupCache(directory: dir.path("cache")))
        }
        init() async throws {
            dir = try TemporaryDirectory()
            server = try await BookAPIFixtureServer(folder: dir.path("server"))
        }
    }

    @Test("found in openBD: summary's title (with volume), author, publisher, cover; NDL not asked")
    func openBD() async throws {
        let f = try await Fixture()
        defer { f.dir.cleanup() }
        try f.server.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版",
            cover: "https://cover.openbd.jp/9784780802047.jpg", volume: "上"))
        let outcome = try await f.lookup.lookUp(isbn: "9784780802047")
        #expect(outcome == .found(BookRecord(isbn: "9784780802047", title: "すごい本 上", author: "山田太郎／著", publisher: "テスト出版",
                                             coverURL: "https://cover.openbd.jp/9784780802047.jpg", source: .openBD), cachedAt: nil))
        #expect(f.server.requests == ["/openbd/get?isbn=9784780802047"])
        await f.server.stop()
    }

    @Test("openBD answers [null] → the NDL search's first item (every dc:creator, dc:publisher)")
    func ndlFallback() async throws {
        let f = try await Fixture()
        defer { f.dir.cleanup() }
        try f.server.setNDL("9780306406157", rss: BookAPIFixtureServer.ndlRSS(items: [
            (title: "Organic Chemistry & You", creators: ["Sato, K.", "Tanaka, M."], publisher: "Example Press", isbn: "9780306406157"),
            (title: "Second item", creators: [], publisher: "Other", isbn: "9780306406157")]))
        let outcome = try await f.lookup.lookUp(isbn: "9780306406157")
        #expect(outcome == .found(BookRecord(isbn: "9780306406157", title: "Organic Chemistry & You", author: "Sato, K., Tanaka, M.",
                                             publisher: "Example Press", coverURL: nil, source: .ndl), cachedAt: nil))
        #expect(f.server.requests == ["/openbd/get?isbn=9780306406157", "/ndl/api/opensearch?isbn=9780306406157"])
        await f.server.stop()
    }

    @Test("neither knows it → notFound, cached for a day, asked again after")
    func notFound() async throws {
        let f = try await Fixture()
        defer { f.dir.cleanup() }
        let now = Date()
        #expect(try await f.lookup.lookUp(isbn: "9791032305690", now: now) == .notFound)
        #expect(f.server.requests.count == 2)
        #expect(try await f.lookup.lookUp(isbn: "9791032305690", now: now.addingTimeInterval(3600)) == .notFound)
        #expect(f.server.requests.count == 2)
        #expect(try await f.lookup.lookUp(isbn: "9791032305690", now: now.addingTimeInterval(25 * 3600)) == .notFound)
        #expect(f.server.requests.count == 4)
        await f.server.stop()
    }

    @Test("nothing listening → unreachable naming both services; nothing cached")
    func offline() async throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        let port = try Loopback.freePort()
        let cache = BookLookupCache(directory: dir.path("cache"))
        let lookup = BookLookup(settings: .init(openBD: URL(string: "http://127.0.0.1:\(port)/openbd")!,
                                                ndl: URL(string: "http://127.0.0.1:\(port)/ndl")!, timeout: 3), cache: cache)
        await #expect {
            try await lookup.lookUp(isbn: "9784780802047")
        } throws: { error in
            guard case .unreachable(let failures) = error as? BookLookup.Error else { return false }
            return failures.count == 2 && failures[0].hasPrefix("openBD (http://127.0.0.1:\(port)/openbd/get?isbn=9784780802047)")
                && failures[1].hasPrefix("National Diet Library")
                && failures.allSatisfy { $0.hasSuffix(": connection refused by 127.0.0.1:\(port)") }  // words, not an NSError dump
        }
        #expect(cache.entry(for: "9784780802047") == nil)
    }

    @Test("a found answer is cached with its date and answered with the server stopped")
    func cacheHit() async throws {
        let f = try await Fixture()
        defer { f.dir.cleanup() }
        try f.server.setOpenBD("9784101010014", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784101010014", title: "こころ", author: "夏目漱石／著", publisher: "新潮社", cover: ""))
        let day = Date(timeIntervalSince1970: 1_780_000_000)
        guard case .found(let first, nil) = try await f.lookup.lookUp(isbn: "9784101010014", now: day) else {
            Issue.record("not found")
            return
        }
        #expect(first.coverURL == nil)
        await f.server.stop()
        let later = try await f.lookup.lookUp(isbn: "9784101010014", now: day.addingTimeInterval(400 * 86400))
        #expect(later == .found(first, cachedAt: day))
    }

    @Test("answers that are not the documented formats are errors, not books")
    func malformed() throws {
        #expect(throws: OpenBDAnswer.Error.self) { try OpenBDAnswer.parse(Data("<html>".utf8), isbn: "9784780802047") }
        #expect(throws: OpenBDAnswer.Error.self) { try OpenBDAnswer.parse(Data("{\"a\":1}".utf8), isbn: "9784780802047") }
        #expect(try OpenBDAnswer.parse(Data("[null]".utf8), isbn: "9784780802047") == nil)
        #expect(throws: NDLSearchAnswer.Error.self) { try NDLSearchAnswer.parse(Data("<rss><channel>".utf8), isbn: "9784780802047") }
        #expect(throws: NDLSearchAnswer.Error.self) { try NDLSearchAnswer.parse(Data("<html></html>".utf8), isbn: "9784780802047") }
    }
}
