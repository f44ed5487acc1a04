import Foundation
import ReelBooks
import ReelCore
import ReelStore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The materials API and view, with the book services played by the fixture server on
/// loopback (openBD's and the National Diet Library's documented answers).
@Suite("Studio materials", .serialized)
struct StudioMaterialsTests {
    /// A studio whose lookups go to `books`.
    static func withBooks<T>(_ body: (TestStudio, BookAPIFixtureServer) async throws -> T) async throws -> T {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let books = try await BookAPIFixtureServer(folder: folder.path("books"))
        do {
            let result = try await withStudio(configure: { settings in
                settings.bookLookup = BookLookup.Settings(openBD: URL(string: books.openBDBase)!, ndl: URL(string: books.ndlBase)!, timeout: 5)
            }) { studio in try await body(studio, books) }
            await books.stop()
            return result
        } catch {
            await books.stop()
            throw error
        }
    }

    static func kokoro(_ books: BookAPIFixtureServer) throws {
        try books.setCover("9784101010014.jpg", bytes: Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
        try books.setOpenBD("9784101010014", json: BookAPIFixtureServer.openBDJSON(
            isbn: "9784101010014", title: "こころ", author: "夏目漱石／著", publisher: "新潮社",
            cover: "http://127.0.0.1:\(books.port)/covers/9784101010014.jpg"))
    }

    @Test("add by ISBN (looked up, with its cover), by hand (nothing looked up), list as reel materials ls --json, remove; refusals change nothing")
    func api() async throws {
        try await Self.withBooks { studio, books in
            let cookie = try studio.signIn()
            try Self.kokoro(books)
            #expect(try studio.api([studio.base + "/api/materials"]).text == "[]")
            let looked = try studio.post("/api/materials", json: #"{"isbn":"4-10-101001-3"}"#, cookie: cookie)
            #expect(looked.status == 201 && looked.text.contains(#""source":"openBD""#) && looked.text.contains(#""title":"こころ""#), "\(looked.text)")
            #expect(books.requests == ["/openbd/get?isbn=9784101010014", "/covers/9784101010014.jpg"])
            let typed = try studio.post("/api/materials", json: #"{"title":"Signals","isbn":"0-306-40615-2","author":"K. Sato"}"#, cookie: cookie)
            #expect(typed.status == 201 && typed.text.contains(#""source":null"#), "\(typed.text)")
            #expect(books.requests.count == 2, "a title given: nothing looked up")

            let list = try studio.api([studio.base + "/api/materials"])
            let cli = try Subprocess.run(try ReelBinary.path(), ["materials", "ls", "--json", "--library", studio.server.settings.libraryPath])
            #expect(StudioStatsTests.object(list.text) == StudioStatsTests.object(cli.stdout) && !list.text.isEmpty, "\(list.text) vs \(cli.stdout)")
            let materials = try StudyLibrary(path: studio.server.settings.libraryPath).materials()
            let kokoro = try #require(materials.first { $0.isbn == "9784101010014" })
            let cover = try studio.api([studio.base + "/api/materials/\(kokoro.id.uuidString.lowercased())/cover"])
            #expect(cover.status == 200 && cover.headers["content-type"] == "image/jpeg" && cover.body == Data([0xFF, 0xD8, 0xFF, 0xE0, 1, 2, 3]))
            let signals = try #require(materials.first { $0.isbn == "9780306406157" })
            #expect(try studio.api([studio.base + "/api/materials/\(signals.id.uuidString.lowercased())/cover"]).status == 404)

            for (body, status, words) in [(#"{"isbn":"9784101010014"}"#, 409, "already in the library"),
                                          (#"{"isbn":"0-306-40615-X","title":"Wrong"}"#, 400, "check digit"),
                                          (#"{"title":"two\nlines"}"#, 400, "title"), ("{}", 400, "give a title"),
                                          (#"{"isbn":"9791032305690"}"#, 502, "neither openBD nor the National Diet Library")] {
                let refused = try studio.post("/api/materials", json: body, cookie: cookie)
                #expect(refused.status == status && refused.text.contains(words), "\(body): \(refused.status) \(refused.text)")
            }
            // A number that is no ISBN is said to be so once, with what an ISBN needs.
            let short = try studio.post("/api/materials", json: #"{"isbn":"12345"}"#, cookie: cookie)
            #expect(short.status == 400 && short.text.components(separatedBy: "is not an ISBN").count == 2 && short.text.contains("13 digits"),
                    "\(short.status) \(short.text)")
            #expect(books.requests.count == 4, "the book already there was not looked up again (the unknown one asked openBD and the NDL)")

            // The services gone: the page is told to type the title.
            await books.stop()
            let offline = try studio.post("/api/materials", json: #"{"isbn":"9780804429573"}"#, cookie: cookie)
            #expect(offline.status == 502 && offline.text.contains("could not be asked") && offline.text.contains("type its title"), "\(offline.text)")

            let removed = try studio.post("/api/materials/\(signals.id.uuidString.lowercased())/remove", cookie: cookie)
            #expect(removed.status == 200 && removed.text.contains("Signals"))
            #expect(try studio.post("/api/materials/\(signals.id.uuidString.lowercased())/remove", cookie: cookie).status == 404)
            #expect(try StudyLibrary(path: studio.server.settings.libraryPath).materials().map(\.title) == ["こころ"])
            for path in ["/api/materials/../../etc/passwd", "/api/materials/\(kokoro.id.uuidString)/cover", "/api/materials/\(kokoro.id.uuidString.lowercased())/cover/.."] {
                #expect(try studio.api(["--path-as-is", studio.base + path]).status == 404, "\(path)")
            }
        }
    }

    @Test("the materials view: add by ISBN shows the looked-up book with its cover; add by hand; remove")
    func view() async throws {
        try await Self.withBooks { studio, books in
            try Self.kokoro(books)
            // A real JPEG for the cover, so the page can draw it.
            let picture = studio.folder.path("cover.jpg")
            let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "testsrc2=size=96x136", "-frames:v", "1", picture])
            #expect(made.status == 0)
            try books.setCover("9784101010014.jpg", bytes: try Data(contentsOf: URL(fileURLWithPath: picture)))
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#materials")
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '0'")
                try await browser.findElement(css: "#material-isbn").sendKeys("978-4-10-101001-4" + WebDriver.Key.enter)
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '1'")
                #expect(try await browser.findElement(css: "#materials-message").text == "Added “こころ” (from openBD).")
                #expect(try await browser.findElement(css: ".material .card-facts").text == "夏目漱石／著 · 新潮社 · ISBN 9784101010014")
                try await browser.waitUntil(script: "const i = document.querySelector('.material img'); return i && i.complete && i.naturalWidth === 96")

                try await browser.findElement(css: "#material-title").sendKeys("Signals")
                try await browser.findElement(css: "#material-author").sendKeys("K. Sato")
                try await browser.findElement(css: "#material-add").click()
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '2'")
                try await StudioBrowserTests.screenshot(browser, "studio-materials")
                #expect(try await browser.executeScript("return document.getElementById('material-title').value").string == "", "the form is cleared")

                try await browser.findElement(css: "#material-isbn").sendKeys("9784101010014" + WebDriver.Key.enter)
                try await browser.waitUntil(script: "return document.getElementById('materials-message').dataset.tone === 'bad'")
                #expect(try await browser.findElement(css: "#materials-message").text.contains("already in the library"))

                try await browser.findElement(css: "button[aria-label='Remove Signals']").click()
                // Removing asks first (StudioPageRepairBrowserTests): the second press removes.
                try await browser.findElement(css: "button[aria-label^='Really remove Signals']").click()
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '1'")
                #expect(try StudyLibrary(path: studio.server.settings.libraryPath).materials().map(\.title) == ["こころ"])
            }
        }
    }

    /// A 3-second clip: a white second, then a book's EAN-13 barcode (slightly turned, noisy).
    static func barcodeClip(_ folder: String, digits: String) throws -> String {
        let pgm = folder + "/code.pgm", png = folder + "/code.png", clip = folder + "/barcode.mp4"
        try EAN13Drawing(digits: digits, module: 3).rotated(degrees: 3).noisy(amplitude: 30, seed: 5).writePGM(to: pgm)
        #expect(try Subprocess.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-i", pgm, png]).status == 0)
        let made = try Subprocess.run("/usr/bin/ffmpeg", ["-v", "error", "-y", "-f", "lavfi", "-i", "color=white:s=480x360:r=10:d=1",
                                                          "-loop", "1", "-t", "2", "-r", "10", "-i", png, "-filter_complex",
                                                          "[1:v]pad=480:360:(ow-iw)/2:(oh-ih)/2:white[c];[0:v][c]concat=n=2:v=1[v]",
                                                          "-map", "[v]", "-c:v", "libx264", "-crf", "18", "-pix_fmt", "yuv420p", clip])
        #expect(made.status == 0, "\(made.stderr)")
        return clip
    }

    @Test("scan: the book's barcode read from the chosen source's picture; nothing seen in time says so; refused with no source or while recording")
    func scan() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let clip = try Self.barcodeClip(folder.url.path, digits: "9784780802047")
        try await withStudio(configure: { $0.statusInterval = 0.2 }) { studio in
            let cookie = try studio.signIn()
            let none = try studio.post("/api/materials/scan", json: #"{"timeout":1}"#, cookie: cookie)
            #expect(none.status == 409 && none.text.contains("no source chosen"))
            #expect(try studio.post("/api/source", json: #"{"source":"file:\#(clip)"}"#, cookie: cookie).status == 200)
            let found = try studio.post("/api/materials/scan", json: #"{"timeout":20}"#, cookie: cookie)
            #expect(found.status == 200 && found.text.contains(#""isbn":"9784780802047""#) && found.text.contains(#""message":null"#), "\(found.text)")
            #expect(try studio.post("/api/materials/scan", json: "{oops", cookie: cookie).status == 400)

            #expect(try studio.post("/api/source", json: #"{"source":"test:320x180@10"}"#, cookie: cookie).status == 200)
            let nothing = try studio.post("/api/materials/scan", json: #"{"timeout":1}"#, cookie: cookie)
            #expect(nothing.status == 200 && nothing.text.contains(#""isbn":null"#) && nothing.text.contains("no book barcode seen in 1 s"), "\(nothing.text)")

            let started = try studio.post("/api/recording/start", json: #"{"mode":"timelapse","interval":1}"#, cookie: cookie)
            #expect(started.status == 202, "\(started.text)")
            let busy = try studio.post("/api/materials/scan", json: #"{"timeout":1}"#, cookie: cookie)
            #expect(busy.status == 409 && busy.text.contains("recording is running"))
            #expect(try studio.post("/api/recording/stop", cookie: cookie).status == 200)
        }
    }

    @Test("the materials view: Scan shows the picture, reads the barcode and adds the book it names")
    func scanView() async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let clip = try Self.barcodeClip(folder.url.path, digits: "9784780802047")
        try await Self.withBooks { studio, books in
            try books.setOpenBD("9784780802047", json: BookAPIFixtureServer.openBDJSON(
                isbn: "9784780802047", title: "すごい本", author: "山田太郎／著", publisher: "テスト出版", cover: ""))
            #expect(try studio.post("/api/source", json: #"{"source":"file:\#(clip)"}"#, cookie: try studio.signIn()).status == 200)
            try await withWebDriver(windowSize: (1280, 900)) { browser in
                try await browser.navigate(to: studio.server.signInURL)
                try await browser.navigate(to: studio.base + "/#materials")
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '0'")
                try await browser.findElement(css: "#material-scan").click()
                try await browser.waitUntil(script: "return document.body.dataset.materialsCount === '1'", timeout: .seconds(30))
                #expect(try await browser.findElement(css: ".material .card-title").text == "すごい本")
                #expect(try await browser.executeScript("return document.getElementById('scan-preview').hidden").bool == true)
            }
        }
    }
}
