import Foundation
import ReelTestSupport
import Testing

/// `reel studio --open` in chromium: the private page xdg-open is handed signs the browser in
/// (a navigation from a file is cross-site, so the studio answers with a page that loads `/`
/// itself: the Strict cookie goes along), and the page is gone once used.
@Suite("Studio sign-in in chromium", .serialized)
struct StudioSignInBrowserTests {
    @Test("the private page of --open signs chromium in and loads the live page; the file is removed once used")
    func privatePageSignsIn() async throws {
        let scratch = try TemporaryDirectory()
        defer { scratch.cleanup() }
        let bin = try StudioSignInPageTests.fakeOpener(in: scratch)
        let runtime = scratch.path("run")
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try await withRunningStudio(["--open"], environment: ["PATH": "\(bin):/usr/bin:/bin", "XDG_RUNTIME_DIR": runtime]) { studio in
            _ = try await eventually("xdg-open ran", within: 20) { FileManager.default.fileExists(atPath: scratch.path("page-1")) ? true : nil }
            let page = try String(contentsOfFile: scratch.path("arguments"), encoding: .utf8).trimmingCharacters(in: .newlines)
            try await withWebDriver { browser in
                try await browser.navigate(to: URL(fileURLWithPath: page))
                try await browser.waitUntil("the studio's page", timeout: .seconds(10)) {
                    (try? await browser.currentURL) == studio.base + "/"
                }
                try await browser.waitUntil(script: "return document.getElementById('connection')?.dataset.state === 'live'")
                let cookie = try #require(try await browser.cookie(named: "reel_studio_\(studio.port)"))
                #expect(cookie.httpOnly && cookie.sameSite == "Strict")
            }
            _ = try await eventually("removed once used", within: 10) { FileManager.default.fileExists(atPath: page) ? nil : true }
        }
    }
}
