import Foundation
import ReelTestSupport
import Testing

/// `reel materials add` through the real binary with the fixture book server on loopback:
/// ISBN-10s, `materials add --isbn` looking the title up as `scan` does, no network for a book
/// already in the library, and network or file failures in words (never Foundation's dump).
@Suite("reel materials add: ISBN-10, lookup, no network when not needed")
struct MaterialsAddLookupTests {
    typealias Home = MaterialsScanCommandTests.Home
    static let leaks = ["NSURLErrorDomain", "NSCocoaErrorDomain", "UserInfo", "could not be completed", "Error Domain"]

    static func noLeak(_ run: Subprocess) {
        for leak in leaks { #expect(!(run.stdout + run.stderr).contains(leak), "\(leak): \(run.stderr)") }
    }

    @Test("an ISBN-10 is kept as its ISBN-13; a wrong check digit (X too) is refused with the reason; rm takes the ISBN-10")
    func isbn10() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let added = try home.reel(["materials", "add", "--title", "Signals", "--isbn", "0-306-40615-2"])
        #expect(added.status == 0 && added.stdout.hasPrefix("added 'Signals' (ISBN 9780306406157), id "), "\(added.stderr)")
        #expect(try home.materials().first?["isbn"] as? String == "9780306406157")
        let x = try home.reel(["materials", "add", "--title", "Legacy", "--isbn", "080442957X"])
        #expect(x.status == 0 && x.stdout.contains("(ISBN 9780804429573)"), "\(x.stderr)")
        let wrongX = try home.reel(["materials", "add", "--title", "Wrong", "--isbn", "0-306-40615-X"])
        #expect(wrongX.status == 64)
        #expect(wrongX.stderr.contains("'0-306-40615-X' is not a valid ISBN-10: its check digit (the last) should be 2"), "\(wrongX.stderr)")
        let wrong = try home.reel(["materials", "add", "--title", "Wrong", "--isbn", "0804429570"])
        #expect(wrong.status == 64 && wrong.stderr.contains("should be X"), "\(wrong.stderr)")
        let short = try home.reel(["materials", "add", "--title", "Short", "--isbn", "030640615"])
        #expect(short.status == 64 && short.stderr.contains("or 10 for an old ISBN-10"), "\(short.stderr)")
        #expect(try home.reel(["materials", "rm", "0-306-40615-2"]).stdout == "removed 'Signals'\n")
        #expect(home.server.requests.isEmpty, "--title given: nothing looked up")
        #expect(try home.materials().count == 1)
        await home.server.stop()
    }

    @Test("add --isbn without --title: openBD (with its cover), then the NDL; an ISBN-10 is looked up as its ISBN-13")
    func lookedUp() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        try home.server.setCover("9784101010014.jpg", bytes: Data([0xFF, 0xD8, 0xFF, 9]))
        try home.server.setOpenBD("9784101010014", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784101010014", title: "こころ", author: "夏目漱石／著", publisher: "新潮社",
            cover: "http://127.0.0.1:\(home.server.port)/covers/9784101010014.jpg"))
        let fromOpenBD = try home.reel(["materials", "add", "--isbn", "4-10-101001-3"])
        #expect(fromOpenBD.status == 0, "\(fromOpenBD.stderr)")
        #expect(fromOpenBD.stdout.hasPrefix("added 'こころ' by 夏目漱石／著 (ISBN 9784101010014, from openBD), id "), "\(fromOpenBD.stdout)")
        #expect(home.server.requests == ["/openbd/get?isbn=9784101010014", "/covers/9784101010014.jpg"])
        try home.server.setNDL("9780306406157", rss: BookAPIFixtureServer.ndlRSS(items: [
            (title: "有機化学入門", creators: ["佐藤, 健"], publisher: "例文社", isbn: "9780306406157")]))
        let fromNDL = try home.reel(["materials", "add", "--isbn", "9780306406157", "--author", "K. Sato"])
        #expect(fromNDL.status == 0, "\(fromNDL.stderr)")
        #expect(fromNDL.stdout.contains("added '有機化学入門' by K. Sato (ISBN 9780306406157, from the National Diet Library)"), "\(fromNDL.stdout)")
        let listed = try home.materials()
        #expect(listed.map { $0["publisher"] as? String } == ["新潮社", "例文社"])
        #expect(listed.first?["coverPath"] as? String == home.dir.path("lib/covers/9784101010014.jpg"))
        await home.server.stop()
    }

    @Test("--offline or a failed lookup: a clear error saying to pass --title; nothing added")
    func noTitle() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let offline = try home.reel(["materials", "add", "--isbn", "9784101010014", "--offline"])
        #expect(offline.status == 64)
        #expect(offline.stderr.contains("--offline looks nothing up, so give the title: reel materials add --isbn 9784101010014 --title 'TITLE'"),
                "\(offline.stderr)")
        let none = try home.reel(["materials", "add"])
        #expect(none.status == 64 && none.stderr.contains("give --title, or --isbn to look the title up"), "\(none.stderr)")
        #expect(home.server.requests.isEmpty)
        let unknown = try home.reel(["materials", "add", "--isbn", "9791032305690"])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("ISBN 9791032305690 is in neither openBD nor the National Diet Library; add it by hand:\n"
                                        + "  reel materials add --isbn 9791032305690 --title 'TITLE'"), "\(unknown.stderr)")
        let port = try Loopback.freePort()
        let down = try home.reel(["materials", "add", "--isbn", "9784101010014"],
                                 bases: ("http://127.0.0.1:\(port)/openbd", "http://127.0.0.1:\(port)/ndl"))
        #expect(down.status == 1)
        #expect(down.stderr.contains("openBD (http://127.0.0.1:\(port)/openbd/get?isbn=9784101010014): connection refused by 127.0.0.1:\(port)"),
                "\(down.stderr)")
        #expect(down.stderr.contains("--title 'TITLE'"))
        Self.noLeak(down)
        #expect(try home.materials().isEmpty)
        await home.server.stop()
    }

    @Test("a book already in the library: add and scan say so and exit 1 without asking any service")
    func alreadyThere() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        try home.server.setCover("9784780802047.jpg", bytes: Data([1, 2, 3]))
        try home.server.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版",
            cover: "http://127.0.0.1:\(home.server.port)/covers/9784780802047.jpg"))
        let png = try home.barcodePNG("9784780802047")
        #expect(try home.reel(["materials", "scan", png]).status == 0)
        let asked = home.server.requests
        #expect(asked.count == 2, "\(asked)")
        try FileManager.default.removeItem(atPath: home.dir.path("cache"))  // no cached answer either
        let scanned = try home.reel(["materials", "scan", png])
        #expect(scanned.status == 1)
        #expect(scanned.stdout == "read ISBN 9784780802047\n")
        #expect(scanned.stderr.contains("ISBN 9784780802047 is already in the library as 'すごい本'; nothing was added"), "\(scanned.stderr)")
        let added = try home.reel(["materials", "add", "--isbn", "978-4-7808-0204-7"])
        #expect(added.status == 1 && added.stderr.contains("already in the library as 'すごい本'"), "\(added.stderr)")
        #expect(home.server.requests == asked, "nothing asked after the first scan")
        #expect(try home.materials().count == 1)
        await home.server.stop()
    }

    @Test("a service that is not what --openbd says, a cover that cannot be fetched or saved: the reason in words")
    func failuresInWords() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let closed = try Loopback.freePort()
        try home.server.setOpenBD("9784101010014", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784101010014", title: "こころ", author: "夏目漱石／著", publisher: "新潮社",
            cover: "http://127.0.0.1:\(closed)/cover.jpg"))
        // https:// to the plain-HTTP fixture: TLS fails.
        let tls = try home.reel(["materials", "add", "--isbn", "9784101010014"],
                                bases: ("https://127.0.0.1:\(home.server.port)/openbd", "https://127.0.0.1:\(home.server.port)/ndl"))
        #expect(tls.status == 1)
        #expect(tls.stderr.contains("the TLS connection to 127.0.0.1:\(home.server.port) failed"), "\(tls.stderr)")
        Self.noLeak(tls)
        let noCover = try home.reel(["materials", "add", "--isbn", "9784101010014"])
        #expect(noCover.status == 0, "\(noCover.stderr)")
        #expect(noCover.stderr.contains("the cover http://127.0.0.1:\(closed)/cover.jpg could not be fetched (connection refused by 127.0.0.1:\(closed)); added without it"),
                "\(noCover.stderr)")
        Self.noLeak(noCover)
        // A file where the covers folder should be.
        try home.server.setCover("9784780802047.jpg", bytes: Data([1, 2, 3]))
        try home.server.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版",
            cover: "http://127.0.0.1:\(home.server.port)/covers/9784780802047.jpg"))
        try Data("x".utf8).write(to: URL(fileURLWithPath: home.dir.path("lib/covers")))
        let unsaved = try home.reel(["materials", "add", "--isbn", "9784780802047"])
        #expect(unsaved.status == 0, "\(unsaved.stderr)")
        #expect(unsaved.stderr.contains("the cover could not be saved as \(home.dir.path("lib/covers/9784780802047.jpg")) "
                                        + "(something with that name already exists); added without it"), "\(unsaved.stderr)")
        Self.noLeak(unsaved)
        #expect(try home.materials().count == 2)
        await home.server.stop()
    }
}
