import Foundation
import ReelTestSupport
import Testing

/// `reel materials scan` through the real binary: barcode pictures the test draws (turned and
/// noisy, converted to PNG by ffmpeg), lookups answered by the fixture server on loopback.
@Suite("reel materials scan")
struct MaterialsScanCommandTests {
    struct Home {
        let dir: TemporaryDirectory
        let server: BookAPIFixtureServer
        var library: String { dir.path("lib/library.sqlite") }
        var environment: [String: String] {
            ["XDG_DATA_HOME": dir.path("data"), "XDG_STATE_HOME": dir.path("state"), "XDG_CACHE_HOME": dir.path("cache"),
             "HOME": dir.path("home"), "TZ": "Asia/Tokyo", "REEL_OPENBD_URL": "", "REEL_NDL_URL": ""]
        }
        init() async throws {
            dir = try TemporaryDirectory()
            server = try await BookAPIFixtureServer(folder: dir.path("server"))
        }

        /// `reel ARGS --library L --openbd … --ndl …` (the fixture server unless `bases` says otherwise).
        func reel(_ arguments: [String], bases: (String, String)? = nil) throws -> Subprocess {
            let (openBD, ndl) = bases ?? (server.openBDBase, server.ndlBase)
            return try ReelBinary.run(arguments + ["--library", library, "--openbd", openBD, "--ndl", ndl], environment: environment)
        }

        /// `digits` drawn, turned `degrees`, with noise, written as NAME.png by ffmpeg.
        func barcodePNG(_ digits: String, degrees: Double = 3, name: String = "code") throws -> String {
            let pgm = dir.path("\(name).pgm"), png = dir.path("\(name).png")
            try EAN13Drawing(digits: digits, module: 3).rotated(degrees: degrees).noisy(amplitude: 30, seed: 5).writePGM(to: pgm)
            let run = try Subprocess.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", pgm, png])
            #expect(run.status == 0, "\(run.stderr)")
            return png
        }

        /// What `materials ls --json` lists; none while the library does not exist (`ls` never
        /// creates it, and a `--library` that does not exist is an error).
        func materials() throws -> [[String: Any]] {
            guard FileManager.default.fileExists(atPath: library) else { return [] }
            let listed = try ReelBinary.run(["materials", "ls", "--json", "--library", library], environment: environment)
            return (try JSONSerialization.jsonObject(with: Data(listed.stdout.utf8)) as? [[String: Any]]) ?? []
        }
    }

    @Test("found in openBD: added with title, author, publisher and the downloaded cover; shown by materials ls")
    func openBD() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let cover = Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3])
        try home.server.setCover("9784780802047.jpg", bytes: cover)
        try home.server.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版",
            cover: "http://127.0.0.1:\(home.server.port)/covers/9784780802047.jpg"))
        let scanned = try home.reel(["materials", "scan", try home.barcodePNG("9784780802047")])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(scanned.stdout.hasPrefix("read ISBN 9784780802047\nadded 'すごい本' by 山田太郎／著 (ISBN 9784780802047, from openBD), id "))
        let listed = try home.materials()
        #expect(listed.count == 1)
        #expect(listed.first?["title"] as? String == "すごい本" && listed.first?["publisher"] as? String == "テスト出版")
        let coverPath = try #require(listed.first?["coverPath"] as? String)
        #expect(coverPath == home.dir.path("lib/covers/9784780802047.jpg"))
        #expect(FileManager.default.contents(atPath: coverPath) == cover)
        #expect(try ReelBinary.run(["materials", "ls", "--library", home.library], environment: home.environment).stdout.contains("すごい本"))
        // Scanning the same book again is refused by the library, naming the one there.
        let again = try home.reel(["materials", "scan", try home.barcodePNG("9784780802047", degrees: -3, name: "again")])
        #expect(again.status == 1 && again.stderr.contains("ISBN 9784780802047 is already in the library as 'すごい本'"), "\(again.stderr)")
        await home.server.stop()
    }

    @Test("openBD [null] → the National Diet Library's record is added")
    func ndl() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        try home.server.setNDL("9780306406157", rss: BookAPIFixtureServer.ndlRSS(items: [
            (title: "有機化学入門", creators: ["佐藤, 健"], publisher: "例文社", isbn: "9780306406157")]))
        let scanned = try home.reel(["materials", "scan", try home.barcodePNG("9780306406157")])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        #expect(scanned.stdout.contains("added '有機化学入門' by 佐藤, 健 (ISBN 9780306406157, from the National Diet Library)"))
        #expect(home.server.requests == ["/openbd/get?isbn=9780306406157", "/ndl/api/opensearch?isbn=9780306406157"])
        let listed = try home.materials()
        #expect(listed.count == 1 && listed.first?["publisher"] as? String == "例文社" && listed.first?["coverPath"] is NSNull)
        await home.server.stop()
    }

    @Test("neither knows it, or nothing answers: exit 1, the reason and the manual add line; nothing added")
    func notFoundAndOffline() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let png = try home.barcodePNG("9791032305690")
        let unknown = try home.reel(["materials", "scan", png])
        #expect(unknown.status == 1)
        #expect(unknown.stderr.contains("ISBN 9791032305690 is in neither openBD nor the National Diet Library; add it by hand:"))
        #expect(unknown.stderr.contains("reel materials add --isbn 9791032305690 --title 'TITLE'"))
        let port = try Loopback.freePort()
        let offline = try home.reel(["materials", "scan", try home.barcodePNG("9784101010014", name: "other")],
                                    bases: ("http://127.0.0.1:\(port)/openbd", "http://127.0.0.1:\(port)/ndl"))
        #expect(offline.status == 1)
        #expect(offline.stderr.contains("the book services could not be asked (offline?): openBD (http://127.0.0.1:\(port)/openbd/get?isbn=9784101010014)"))
        #expect(offline.stderr.contains("National Diet Library (http://127.0.0.1:\(port)/ndl/api/opensearch?isbn=9784101010014)"))
        #expect(offline.stderr.contains("reel materials add --isbn 9784101010014 --title 'TITLE'"))
        // The reason in words, never Foundation's error dump.
        #expect(offline.stderr.contains("openBD (http://127.0.0.1:\(port)/openbd/get?isbn=9784101010014): connection refused by 127.0.0.1:\(port)"),
                "\(offline.stderr)")
        for leak in ["NSURLErrorDomain", "UserInfo", "Error Domain", "could not be completed"] {
            #expect(!offline.stderr.contains(leak), "\(offline.stderr)")
        }
        #expect(try home.materials().isEmpty)
        await home.server.stop()
    }

    @Test("cache hit: the second scan is answered from $XDG_CACHE_HOME with the server stopped, and says the date")
    func cacheHit() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        try home.server.setOpenBD("9784101010014", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784101010014", title: "こころ", author: "夏目漱石／著", publisher: "新潮社", cover: ""))
        let png = try home.barcodePNG("9784101010014")
        #expect(try home.reel(["materials", "scan", png]).status == 0)
        #expect(FileManager.default.fileExists(atPath: home.dir.path("cache/reel/books/9784101010014.json")))
        await home.server.stop()
        #expect(try home.reel(["materials", "rm", "9784101010014"]).status == 0)
        let cached = try home.reel(["materials", "scan", png])
        #expect(cached.status == 0, "\(cached.stderr)")
        #expect(cached.stdout.contains("added 'こころ' by 夏目漱石／著 (ISBN 9784101010014, from openBD, cached 20"))
        #expect(try home.materials().count == 1)
    }

    @Test("a wrong check digit and a grocery code are refused with the reason; a missing picture is a usage error")
    func refused() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        let wrong = try home.reel(["materials", "scan", try home.barcodePNG("9784780802048")])
        #expect(wrong.status == 1 && wrong.stderr.contains("no book barcode (EAN-13 starting 978 or 979) found in"), "\(wrong.stderr)")
        #expect(wrong.stderr.contains("reel materials add --isbn ISBN --title TEXT"))
        let grocery = try home.reel(["materials", "scan", try home.barcodePNG("4901234567894", name: "grocery")])
        #expect(grocery.status == 1 && grocery.stderr.contains("saw '4901234567894' is an EAN-13 but not a book's"), "\(grocery.stderr)")
        #expect(try home.reel(["materials", "scan", home.dir.path("missing.png")]).status == 64)
        #expect(home.server.requests.isEmpty)
        #expect(try home.materials().isEmpty)
        await home.server.stop()
    }

    @Test("--source file:CLIP finds the code in a video; --source test gives up after --timeout with the manual line")
    func source() async throws {
        let home = try await Home()
        defer { home.dir.cleanup() }
        try home.server.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版", cover: ""))
        let png = try home.barcodePNG("9784780802047")
        let clip = home.dir.path("clip.mp4")
        let made = try Subprocess.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=white:s=480x360:r=10:d=1",
                                                          "-loop", "1", "-t", "2", "-r", "10", "-i", png, "-filter_complex",
                                                          "[1:v]pad=480:360:(ow-iw)/2:(oh-ih)/2:white[c];[0:v][c]concat=n=2:v=1[v]",
                                                          "-map", "[v]", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", clip])
        #expect(made.status == 0, "\(made.stderr)")
        let started = ContinuousClock.now
        let scanned = try home.reel(["materials", "scan", "--source", "file:" + clip, "--timeout", "20s"])
        #expect(scanned.status == 0 && scanned.stdout.contains("added 'すごい本'"), "\(scanned.stderr)")
        #expect(ContinuousClock.now - started < .seconds(10))
        let started2 = ContinuousClock.now
        let none = try home.reel(["materials", "scan", "--source", "test", "--timeout", "1s"])
        #expect(none.status == 1 && none.stderr.contains("no book barcode seen from test in 1 s"), "\(none.stderr)")
        #expect(ContinuousClock.now - started2 < .seconds(8))
        await home.server.stop()
    }
}
