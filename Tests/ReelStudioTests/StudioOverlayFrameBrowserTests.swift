import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

extension StudioOverlayBrowserTests {
    /// The width and height of the overlay view's photo the shutter (Space) saves now.
    static func shotSize(_ studio: TestStudio, _ browser: WebDriver) async throws -> (width: Int, height: Int) {
        let photo = try Picture8(path: try await shoot(studio, browser))
        return (photo.width, photo.height)
    }

    @Test("a landscape webcam gives a landscape photo by default, not turned; choosing portrait on the page gives a portrait one")
    func frameShape() async throws {
        try await withStudio(configure: { $0.source = "test:1280x720" }) { studio in
            try await withWebDriver(windowSize: (1280, 1100)) { browser in
                let cookie = try studio.signIn()
                let jpeg = try studio.post("/api/overlay", json: #"{"format":"jpeg"}"#, cookie: cookie)
                try #require(jpeg.status == 200, "\(jpeg.text)")
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#overlay")
                try await browser.waitUntil(script: """
                    const camera = document.getElementById('overlay-camera-unfiltered');
                    return camera.complete && camera.naturalWidth > 0
                    """, timeout: .seconds(20))
                // The source's own shape: the preview and the photo are landscape (1280x720 cropped
                // 4:3 is 960x720; turned, it would be taller than wide).
                try await browser.waitUntil(script: """
                    const camera = document.getElementById('overlay-camera-unfiltered');
                    return camera.naturalWidth > camera.naturalHeight
                    """, timeout: .seconds(20))
                let auto = try await Self.shotSize(studio, browser)
                #expect(auto.width == 960 && auto.height == 720, "the photo is \(auto.width)x\(auto.height)")
                // Portrait, chosen on the page: the picture is turned, the preview and photo are portrait.
                _ = try await browser.executeScript("""
                    const select = document.getElementById('overlay-frame');
                    select.value = 'portrait';
                    select.dispatchEvent(new Event('change'));
                    """)
                try await browser.waitUntil(script: """
                    const camera = document.getElementById('overlay-camera-unfiltered');
                    return camera.complete && camera.naturalWidth > 0 && camera.naturalWidth < camera.naturalHeight
                    """, timeout: .seconds(20))
                let portrait = try await Self.shotSize(studio, browser)
                #expect(portrait.width == 720 && portrait.height == 960, "the photo is \(portrait.width)x\(portrait.height)")
            }
        }
    }
}
