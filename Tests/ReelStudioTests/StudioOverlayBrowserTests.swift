import Foundation
import ReelCore
import ReelImage
import ReelTestSupport
import Testing
@testable import ReelStudio

/// The overlay camera's view in chromium (the acceptance test): what the preview shows (the
/// camera picture with the artwork drawn by the page from the server's transform) and the photo
/// the shutter saves agree, for several placements, both previews and all four orientations;
/// the gestures move, scale and turn the artwork; import, gallery and cut-out work from the page.
@Suite("Studio overlay camera in chromium", .serialized)
struct StudioOverlayBrowserTests {
    /// A still clip (the astronaut, 1280x720, turned portrait: these tests ask for the portrait frame) and a sticker
    /// with hard edges (a magenta card with a yellow band, a transparent margin).
    struct Fixture {
        let clip: String
        let sticker: String

        init(in folder: TemporaryDirectory) throws {
            clip = folder.path("still.mp4")
            // 5 pictures a second, x264 ultrafast: 3 s to make (15 a second at the default preset took 29).
            let made = try Subprocess.run("ffmpeg", ["-v", "error", "-y", "-loop", "1", "-framerate", "5", "-i", TestPhotos.astronautPath,
                                                     "-vf", "scale=1280:720,format=yuv420p", "-t", "180",
                                                     "-c:v", "libx264", "-preset", "ultrafast", "-tune", "stillimage", clip])
            try #require(made.status == 0, "ffmpeg: \(made.stderr)")
            sticker = folder.path("sticker.png")
            let (w, h) = (400, 300)
            var samples = [UInt16](repeating: 0, count: w * h * 4)
            for y in 20..<(h - 20) {
                for x in 20..<(w - 20) {
                    let i = (y * w + x) * 4
                    let band = y < 90
                    (samples[i], samples[i + 1], samples[i + 2], samples[i + 3]) = band ? (65535, 58000, 0, 65535) : (65535, 0, 52000, 65535)
                }
            }
            try PNGWriter.encode(width: w, height: h, samples: samples, bitDepth: 8, icc: []).write(to: URL(fileURLWithPath: sticker))
        }
    }

    /// The overlay view in `frame` (portrait unless told) with the sticker imported.
    static func withOverlay(frame: String = "portrait", _ body: (TestStudio, WebDriver, Fixture) async throws -> Void) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let fixture = try Fixture(in: folder)
        try await withStudio(configure: { $0.source = "file:" + fixture.clip }) { studio in
            let portrait = try studio.post("/api/overlay", json: #"{"frame":"\#(frame)"}"#, cookie: try studio.signIn())
            try #require(portrait.status == 200, "\(portrait.text)")
            try await withWebDriver(windowSize: (1280, 1100)) { browser in
                try await StudioRecordBrowserTests.signIn(studio, browser)
                try await browser.navigate(to: studio.base + "/#overlay")
                try await browser.waitUntil(script: "return Number(document.body.dataset.overlayState || 0) > 0")
                try await browser.findElement(css: "#overlay-import").sendKeys(fixture.sticker)
                try await browser.waitUntil(script: "return document.body.dataset.overlayAssets === '1'")
                try await waitForDrawn(browser, "unfiltered")
                try await body(studio, browser, fixture)
            }
        }
    }

    /// Waits until the page draws the artwork with the server's transform for `preview`, the
    /// artwork's picture has loaded, and the preview shows the camera.
    static func waitForDrawn(_ browser: WebDriver, _ preview: String, timeout: Duration = .seconds(20)) async throws {
        try await browser.waitUntil(script: """
            const art = document.getElementById('overlay-art-' + arguments[0]), camera = document.getElementById('overlay-camera-' + arguments[0]);
            return !art.hidden && art.complete && art.naturalWidth > 0 && camera.complete && camera.naturalWidth > 0
              && document.body.dataset.overlaySettled !== 'false';
            """, args: [.string(preview)], timeout: timeout)
    }

    /// The server's state now.
    static func state(_ studio: TestStudio) throws -> (placement: OverlayPlacement, transforms: [String: [Double]]) {
        struct Answer: Decodable {
            struct State: Decodable { var placement: OverlayPlacement }
            var state: State
            var transforms: [String: [Double]]
        }
        let answer = try JSONDecoder().decode(Answer.self, from: try studio.api([studio.base + "/api/overlay"]).body)
        return (answer.state.placement, answer.transforms)
    }

    /// Sets the state as another tab would (the page follows the `overlay` event) and waits
    /// until the page draws `preview` with the new transform.
    static func set(_ change: String, studio: TestStudio, cookie: String, browser: WebDriver, preview: String) async throws {
        let answer = try studio.post("/api/overlay", json: change, cookie: cookie)
        try #require(answer.status == 200, "\(answer.text)")
        let matrix = try #require(state(studio).transforms[preview])
        try await browser.waitUntil(script: """
            const m = (document.getElementById('overlay-art-' + arguments[0]).dataset.matrix ?? '').split(',').map(Number);
            return m.length === 6 && m.every((v, i) => Math.abs(v - arguments[1][i]) < 1e-12);
            """, args: [.string(preview), .array(matrix.map { .number($0) })])
        try await waitForDrawn(browser, preview)
    }

    /// The preview region of a screenshot, as 8-bit sRGB.
    static func previewShot(_ browser: WebDriver, _ preview: String) async throws -> Picture8 {
        let rect = try await browser.executeScript("""
            const r = document.getElementById('overlay-stage-' + arguments[0]).getBoundingClientRect(), k = window.devicePixelRatio;
            return [r.left * k, r.top * k, r.width * k, r.height * k];
            """, args: [.string(preview)]).array?.compactMap(\.number) ?? []
        try #require(rect.count == 4)
        // The turn handle is a control over the preview, not part of it.
        _ = try await browser.executeScript("for (const h of document.querySelectorAll('.overlay-turn')) h.hidden = true")
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try await browser.screenshot().write(to: URL(fileURLWithPath: folder.path("shot.png")))
        let page = try Picture8(path: folder.path("shot.png"))
        return page.cropped(x: Int(rect[0].rounded()), y: Int(rect[1].rounded()), width: Int(rect[2].rounded()), height: Int(rect[3].rounded()))
    }

    /// Presses Space (the shutter key) and returns the saved photo's path.
    static func shoot(_ studio: TestStudio, _ browser: WebDriver) async throws -> String {
        let before = try await browser.executeScript("return document.body.dataset.overlayShot ?? ''").string ?? ""
        _ = try await browser.executeScript("document.activeElement?.blur()")
        try await browser.pressKeys(" ")
        try await browser.waitUntil(script: "return (document.body.dataset.overlayShot ?? '') !== arguments[0]", args: [.string(before)],
                                    timeout: .seconds(20))
        let name = try #require(try await browser.executeScript("return document.body.dataset.overlayShot").string)
        return studio.server.settings.photosFolder + "/" + name
    }

    @Test("preview and photo agree for several placements, both previews and all four orientations (and differ when they should)")
    func previewMatchesPhoto() async throws {
        try await Self.withOverlay { studio, browser, _ in
            let cookie = try studio.signIn()
            let cases: [(change: String, preview: String, orientation: DeviceOrientation)] = [
                (#"{"placement":{"anchor":"center","offsetX":0,"offsetY":0,"scale":1,"rotationDegrees":0},"orientation":0,"format":"jpeg"}"#,
                 "unfiltered", .upright),
                (#"{"placement":{"anchor":"top-left","offsetX":0.05,"offsetY":0.1,"scale":0.6,"rotationDegrees":25},"orientation":90}"#,
                 "unfiltered", .left),
                (#"{"placement":{"anchor":"bottom-right","offsetX":-0.1,"offsetY":-0.05,"scale":0.8,"rotationDegrees":-70},"orientation":-90,"format":"heic"}"#,
                 "unfiltered", .right),
                (#"{"placement":{"anchor":"right","offsetX":0,"offsetY":0.1,"scale":1.4,"rotationDegrees":180},"orientation":180,"preview":"filtered","filter":"tall","format":"jpeg"}"#,
                 "filtered", .upsideDown),
                (#"{"placement":{"anchor":"top","offsetX":0,"offsetY":0.2,"scale":0.7,"rotationDegrees":10},"orientation":0,"preview":"filtered","filter":"circle"}"#,
                 "filtered", .upright),
            ]
            var previous: (shot: Picture8, photo: Picture8)?
            for (index, item) in cases.enumerated() {
                try await Self.set(item.change, studio: studio, cookie: cookie, browser: browser, preview: item.preview)
                let shot = try await Self.previewShot(browser, item.preview)
                let path = try await Self.shoot(studio, browser)
                let photo = try Picture8(path: path).stored(from: item.orientation)
                #expect(abs(Double(photo.width) / Double(photo.height) - Double(shot.width) / Double(shot.height)) < 0.01,
                        "case \(index): the photo (\(photo.width)x\(photo.height)) has the preview's shape (\(shot.width)x\(shot.height))")
                let circle = item.change.contains("circle")
                let match = Picture8.difference(shot, photo, insideCircle: circle)
                #expect(match.mean < 1.5 && match.worst < 8, "case \(index): preview vs photo ΔE mean \(match.mean), worst cell \(match.worst)")
                print("overlay case \(index): preview vs photo ΔE76 of cell means: mean \(match.mean), worst \(match.worst)")
                if circle {
                    // Outside the circle the photo is black.
                    let corners = [photo.pixel(1, 1), photo.pixel(photo.width - 2, photo.height - 2)]
                    #expect(corners.allSatisfy { $0.allSatisfy { $0 <= 3 } }, "\(corners)")
                }
                // The comparison can tell placements apart: this preview against the last photo.
                if let previous, previous.shot.width == shot.width, previous.shot.height == shot.height {
                    let wrong = Picture8.difference(shot, previous.photo, insideCircle: circle)
                    #expect(wrong.worst > 25, "case \(index): another placement's photo should not match (worst \(wrong.worst))")
                    print("overlay case \(index): the last placement's photo, worst cell ΔE76 \(wrong.worst)")
                }
                previous = (shot, photo)
            }
            try await browser.waitUntil(script: "return document.body.dataset.overlayPhotos === '5'")
            _ = try await browser.executeScript("window.scrollTo(0, 0)")
            try await StudioBrowserTests.screenshot(browser, "studio-overlay")
        }
    }

    @Test("drag moves the artwork, the wheel scales it, the handle turns it, anchors and keys place it; the server holds each")
    func gestures() async throws {
        try await Self.withOverlay { studio, browser, _ in
            let cookie = try studio.signIn()
            try await Self.set(#"{"placement":{"anchor":"center","offsetX":0,"offsetY":0,"scale":0.5,"rotationDegrees":0}}"#,
                               studio: studio, cookie: cookie, browser: browser, preview: "unfiltered")
            let stage = try await browser.executeScript("""
                const r = document.getElementById('overlay-stage-unfiltered').getBoundingClientRect();
                return [r.left, r.top, r.width, r.height];
                """).array?.compactMap(\.number) ?? []
            try #require(stage.count == 4)
            let centre = (stage[0] + stage[2] / 2, stage[1] + stage[3] / 2)

            try await browser.drag(from: centre, to: (centre.0 + stage[2] * 0.2, centre.1 + stage[3] * 0.1))
            try await browser.waitUntil(script: "return document.body.dataset.overlaySettled === 'true'")
            let moved = try Self.state(studio).placement
            #expect(abs(moved.offsetX - 0.2) < 0.02 && abs(moved.offsetY - 0.1) < 0.02, "\(moved)")

            try await browser.scroll(at: (centre.0 + stage[2] * 0.2, centre.1 + stage[3] * 0.1), deltaY: -250)
            try await browser.waitUntil(script: "return document.body.dataset.overlaySettled === 'true'")
            let scaled = try Self.state(studio).placement
            #expect(scaled.scale > 0.5 * 1.5 && scaled.scale < 0.5 * 1.8, "wheel up 250 px: × e^0.5 (\(scaled.scale))")

            // The handle sits at the top of the artwork: dragged to the artwork's right, it turns it 90° clockwise.
            let handle = try await browser.executeScript("""
                const h = document.getElementById('overlay-turn-unfiltered').getBoundingClientRect();
                return [h.left + h.width / 2, h.top + h.height / 2];
                """).array?.compactMap(\.number) ?? []
            try #require(handle.count == 2)
            let t = try #require(Self.state(studio).transforms["unfiltered"])
            let artCentre = (stage[0] + (t[0] * 0.5 + t[2] * 0.5 + t[4]) * stage[2], stage[1] + (t[1] * 0.5 + t[3] * 0.5 + t[5]) * stage[3])
            try await browser.drag(from: (handle[0], handle[1]), to: (artCentre.0 + 80, artCentre.1))
            try await browser.waitUntil(script: "return document.body.dataset.overlaySettled === 'true'")
            let turned = try Self.state(studio).placement
            #expect(abs(turned.rotationDegrees - 90) < 2, "\(turned)")

            try await browser.findElement(css: "#overlay-anchors button[data-anchor=bottom-left]").click()
            try await browser.waitUntil(script: "return document.body.dataset.overlaySettled === 'true'")
            _ = try await browser.executeScript("document.activeElement?.blur()")
            try await browser.pressKeys("\u{E014}")  // →
            try await browser.waitUntil(script: "return document.body.dataset.overlaySettled === 'true'")
            let anchored = try Self.state(studio).placement
            #expect(anchored.anchor == .bottomLeft && abs(anchored.offsetX - 0.01) < 1e-9 && anchored.offsetY == 0, "\(anchored)")
            let pressed = try await browser.executeScript("return document.querySelector('#overlay-anchors [aria-pressed=true]').dataset.anchor")
            #expect(pressed.string == "bottom-left")
        }
    }

    @Test("a photo shows in the gallery with its format badge; clicking the subject in it makes a cut-out asset; removing an asset")
    func galleryCutoutAndRemove() async throws {
        try await Self.withOverlay { studio, browser, _ in
            let cookie = try studio.signIn()
            let plain = try studio.post("/api/overlay", json: #"{"asset":"","format":"tiff","preview":"unfiltered"}"#, cookie: cookie)
            try #require(plain.status == 200, "\(plain.text)")
            try await browser.waitUntil(script: "return document.getElementById('overlay-art-unfiltered').hidden")
            _ = try await Self.shoot(studio, browser)
            try await browser.waitUntil(script: "return document.body.dataset.overlayPhotos === '1'")
            let badge = try await browser.executeScript("return document.querySelector('.overlay-photo .badge').textContent")
            #expect(badge.string == "TIFF")
            try await browser.waitUntil(script: "const i = document.querySelector('.overlay-photo img'); return i.complete && i.naturalWidth > 0")

            try await browser.findElement(css: ".overlay-photo button").click()
            try await browser.waitUntil(script: "const i = document.getElementById('overlay-cutout-photo'); return i.complete && i.naturalWidth > 0")
            // The astronaut's face: a little above the middle of the portrait photo.
            let point = try await browser.executeScript("""
                const r = document.getElementById('overlay-cutout-photo').getBoundingClientRect();
                return [r.left + r.width * 0.5, r.top + r.height * 0.35];
                """).array?.compactMap(\.number) ?? []
            try #require(point.count == 2)
            try await browser.drag(from: (point[0], point[1]), to: (point[0], point[1]), steps: 1)
            try await browser.waitUntil(script: "return document.body.dataset.overlayAssets === '2'", timeout: .seconds(60))
            let assets = try JSONSerialization.jsonObject(with: try studio.api([studio.base + "/api/overlay/assets"]).body) as? [[String: Any]] ?? []
            #expect(assets.map { $0["origin"] as? String } == ["import", "cutout"], "\(assets)")
            let chosen = try await browser.executeScript("return document.querySelector('.overlay-asset button.use[aria-pressed=true]')?.textContent")
            #expect(chosen.string?.hasPrefix("cut-out of photo-") == true, "the new cut-out is chosen: \(chosen)")

            try await browser.findElement(css: ".overlay-asset[data-id] button.quiet").click()
            try await browser.waitUntil(script: "return document.body.dataset.overlayAssets === '1'")
            let left = try JSONSerialization.jsonObject(with: try studio.api([studio.base + "/api/overlay/assets"]).body) as? [[String: Any]] ?? []
            #expect(left.map { $0["origin"] as? String } == ["cutout"])
        }
    }
}

/// An 8-bit sRGB picture for the comparisons.
struct Picture8 {
    let width: Int, height: Int
    /// RGB, rows top to bottom.
    let rgb: [UInt8]

    init(width: Int, height: Int, rgb: [UInt8]) {
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// A PNG, JPEG, HEIC or TIFF read by ReelImage (upright), converted to 8-bit sRGB.
    init(path: String) throws {
        let image = try DecodedImage(path: path)
        let picture = image.reducedSRGB(maxSide: max(image.width, image.height))
        self.init(width: picture.width, height: picture.height, rgb: picture.samples8())
    }

    func pixel(_ x: Int, _ y: Int) -> [UInt8] { Array(rgb[(y * width + x) * 3..<(y * width + x) * 3 + 3]) }

    func cropped(x: Int, y: Int, width w: Int, height h: Int) -> Picture8 {
        var out = [UInt8]()
        out.reserveCapacity(w * h * 3)
        for row in y..<(y + h) { out += rgb[(row * width + x) * 3..<(row * width + x + w) * 3] }
        return Picture8(width: w, height: h, rgb: out)
    }

    /// The picture as stored, from the upright one a viewer shows for a photo taken held `orientation`
    /// (EXIF 8 is shown turned a quarter anticlockwise, 6 clockwise, 3 half a turn).
    func stored(from orientation: DeviceOrientation) -> Picture8 {
        let (w, h) = orientation == .left || orientation == .right ? (height, width) : (width, height)
        var out = [UInt8](repeating: 0, count: w * h * 3)
        for y in 0..<h {
            for x in 0..<w {
                let (ux, uy) = switch orientation {
                case .upright: (x, y)
                case .upsideDown: (width - 1 - x, height - 1 - y)
                case .right: (width - 1 - y, x)
                case .left: (y, height - 1 - x)
                }
                for c in 0..<3 { out[(y * w + x) * 3 + c] = rgb[(uy * width + ux) * 3 + c] }
            }
        }
        return Picture8(width: w, height: h, rgb: out)
    }

    /// Mean CIELAB of each of `columns` x `rows` cells.
    func cells(columns: Int, rows: Int) -> [(Double, Double, Double)] {
        (0..<rows).flatMap { row in
            (0..<columns).map { column in
                let x0 = column * width / columns, x1 = (column + 1) * width / columns
                let y0 = row * height / rows, y1 = (row + 1) * height / rows
                var sum = (0.0, 0.0, 0.0)
                for y in y0..<y1 {
                    for x in x0..<x1 {
                        let i = (y * width + x) * 3
                        sum = (sum.0 + Double(rgb[i]), sum.1 + Double(rgb[i + 1]), sum.2 + Double(rgb[i + 2]))
                    }
                }
                let n = Double((x1 - x0) * (y1 - y0))
                return Self.lab(sum.0 / n, sum.1 / n, sum.2 / n)
            }
        }
    }

    /// sRGB code values (0…255) to CIELAB (D65).
    static func lab(_ r: Double, _ g: Double, _ b: Double) -> (Double, Double, Double) {
        func linear(_ v: Double) -> Double { let c = v / 255; return c <= 0.04045 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4) }
        let (lr, lg, lb) = (linear(r), linear(g), linear(b))
        let x = (0.4124 * lr + 0.3576 * lg + 0.1805 * lb) / 0.95047
        let y = 0.2126 * lr + 0.7152 * lg + 0.0722 * lb
        let z = (0.0193 * lr + 0.1192 * lg + 0.9505 * lb) / 1.08883
        func f(_ t: Double) -> Double { t > 0.008856 ? cbrt(t) : 7.787 * t + 16.0 / 116 }
        return (116 * f(y) - 16, 500 * (f(x) - f(y)), 200 * (f(y) - f(z)))
    }

    /// The colour difference (ΔE76 of 18 x 24 cell means) between a preview and a photo of any
    /// size: the mean and the worst cell; with `insideCircle`, only cells wholly inside the
    /// inscribed circle count (outside it the page shows the page, the photo black).
    static func difference(_ a: Picture8, _ b: Picture8, insideCircle: Bool) -> (mean: Double, worst: Double) {
        let (columns, rows) = (18, 24)
        let ca = a.cells(columns: columns, rows: rows), cb = b.cells(columns: columns, rows: rows)
        var total = 0.0, worst = 0.0, count = 0
        for row in 0..<rows {
            for column in 0..<columns {
                if insideCircle {
                    let (cx, cy) = ((Double(column) + 0.5) / Double(columns) - 0.5, (Double(row) + 0.5) / Double(rows) - 0.5)
                    let aspect = Double(a.width) / Double(a.height)
                    let radius = min(1, aspect) / 2 * 0.85
                    if ((cx * aspect) * (cx * aspect) + cy * cy).squareRoot() > radius { continue }
                }
                let (p, q) = (ca[row * columns + column], cb[row * columns + column])
                let e = ((p.0 - q.0) * (p.0 - q.0) + (p.1 - q.1) * (p.1 - q.1) + (p.2 - q.2) * (p.2 - q.2)).squareRoot()
                total += e
                worst = max(worst, e)
                count += 1
            }
        }
        return (total / Double(max(1, count)), worst)
    }
}
