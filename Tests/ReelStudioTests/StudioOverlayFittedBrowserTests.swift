import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

extension StudioOverlayBrowserTests {
    @Test("a new cut-out starts fitted and centred, not at the last artwork's scale, turn and place")
    func newCutoutStartsFitted() async throws {
        try await Self.withOverlay { studio, browser, _ in
            let cookie = try studio.signIn()
            // A plain photo to cut out of; then the sticker, made big, turned and moved.
            let sticker = try #require((try JSONSerialization.jsonObject(with: try studio.api([studio.base + "/api/overlay/assets"]).body)
                as? [[String: Any]])?.first?["id"] as? String)
            let plain = try studio.post("/api/overlay", json: #"{"asset":""}"#, cookie: cookie)
            try #require(plain.status == 200, "\(plain.text)")
            try await browser.waitUntil(script: "return document.getElementById('overlay-art-unfiltered').hidden")
            _ = try await Self.shoot(studio, browser)
            try await browser.waitUntil(script: "return document.body.dataset.overlayPhotos === '1'")
            let placed = #"{"asset":"\#(sticker)","placement":{"anchor":"top-left","offsetX":0.1,"offsetY":0.05,"scale":3,"rotationDegrees":25}}"#
            try await Self.set(placed, studio: studio, cookie: cookie, browser: browser, preview: "unfiltered")
            #expect(try Self.state(studio).placement.scale == 3)
            try await browser.waitUntil(script: "const i = document.querySelector('.overlay-photo img'); return i.complete && i.naturalWidth > 0")
            try await browser.findElement(css: ".overlay-photo button").click()
            try await browser.waitUntil(script: "const i = document.getElementById('overlay-cutout-photo'); return i.complete && i.naturalWidth > 0")
            let point = try await browser.executeScript("""
                const r = document.getElementById('overlay-cutout-photo').getBoundingClientRect();
                return [r.left + r.width * 0.5, r.top + r.height * 0.35];
                """).array?.compactMap(\.number) ?? []
            try #require(point.count == 2)
            try await browser.drag(from: (point[0], point[1]), to: (point[0], point[1]), steps: 1)
            try await browser.waitUntil(script: "return document.body.dataset.overlayAssets === '2'", timeout: .seconds(60))
            try await browser.waitUntil(script: "return document.querySelector('.overlay-asset button.use[aria-pressed=true]')?.textContent.startsWith('cut-out of')")
            // The cut-out is chosen and placed by one change: once the page shows it chosen, the
            // server holds its placement.
            let placement = try Self.state(studio).placement
            #expect(placement == .default, "the cut-out is placed \(placement)")
        }
    }
}
