import Foundation
import ReelCore
import Testing

@Suite("OverlayPlacement and AffineTransform")
struct OverlayPlacementTests {
    let portrait = VideoDimensions(width: 1080, height: 1920)

    func close(_ p: (x: Double, y: Double), _ x: Double, _ y: Double, _ tolerance: Double = 1e-9) -> Bool {
        abs(p.x - x) <= tolerance && abs(p.y - y) <= tolerance
    }

    @Test("concatenating applies the first transform, then the next; the inverse undoes it")
    func transformAlgebra() throws {
        let move = AffineTransform.translation(x: 3, y: -2)
        let turn = AffineTransform.rotation(radians: .pi / 2)
        let both = move.concatenating(turn)
        // (1, 0) → (4, -2) → turned a quarter clockwise (y down): (2, 4).
        #expect(close(both.apply(x: 1, y: 0), 2, 4))
        let inverse = try #require(both.inverted)
        #expect(close(inverse.apply(x: 2, y: 4), 1, 0))
        #expect(AffineTransform.scale(x: 0, y: 1).inverted == nil)
        #expect(AffineTransform.identity.concatenating(move) == move)
    }

    @Test("a square artwork fitted and centred over a portrait preview spans its width, centred vertically")
    func fittedCentred() {
        let t = OverlayPlacement.default.transform(art: VideoDimensions(width: 500, height: 500), preview: portrait)
        let h = 1080.0 / 1920.0  // the square's height in preview fractions
        #expect(close(t.apply(x: 0, y: 0), 0, 0.5 - h / 2))
        #expect(close(t.apply(x: 1, y: 1), 1, 0.5 + h / 2))
    }

    @Test("each of the nine anchors puts the scaled artwork's box against its edges",
          arguments: OverlayAnchor.allCases)
    func anchors(anchor: OverlayAnchor) {
        let placement = OverlayPlacement(anchor: anchor, scale: 0.5)
        let t = placement.transform(art: VideoDimensions(width: 400, height: 200), preview: portrait)
        let topLeft = t.apply(x: 0, y: 0), bottomRight = t.apply(x: 1, y: 1)
        let width = bottomRight.x - topLeft.x, height = bottomRight.y - topLeft.y
        #expect(abs(width - 0.5) < 1e-9, "fitted across the width, then halved")
        // Aspect kept in pixels: 0.5 × 1080 wide, half that tall.
        #expect(abs(height * 1920 - width * 1080 / 2) < 1e-6)
        let (fx, fy) = anchor.fraction
        #expect(abs(topLeft.x - fx * (1 - width)) < 1e-9)
        #expect(abs(topLeft.y - fy * (1 - height)) < 1e-9)
    }

    @Test("a turn is about the artwork's centre and keeps right angles in pixels (no shear)")
    func rotationKeepsShape() {
        let placement = OverlayPlacement(scale: 0.5, rotationDegrees: 30)
        let t = placement.transform(art: VideoDimensions(width: 300, height: 200), preview: portrait)
        #expect(close(t.apply(x: 0.5, y: 0.5), 0.5, 0.5))
        func px(_ p: (x: Double, y: Double)) -> (Double, Double) { (p.x * 1080, p.y * 1920) }
        let o = px(t.apply(x: 0, y: 0)), right = px(t.apply(x: 1, y: 0)), down = px(t.apply(x: 0, y: 1))
        let u = (right.0 - o.0, right.1 - o.1), v = (down.0 - o.0, down.1 - o.1)
        #expect(abs(u.0 * v.0 + u.1 * v.1) < 1e-6, "the artwork's edges stay perpendicular on screen")
        #expect(abs((u.0 * u.0 + u.1 * u.1).squareRoot() / (v.0 * v.0 + v.1 * v.1).squareRoot() - 1.5) < 1e-9)
        // Clockwise on screen: the top edge now points down to the right.
        #expect(abs(atan2(u.1, u.0) * 180 / .pi - 30) < 1e-9)
    }

    @Test("the offset moves by fractions of the preview, and a wide artwork fits by its width")
    func offsetAndWideFit() {
        let t = OverlayPlacement(anchor: .topLeft, offsetX: 0.1, offsetY: -0.25)
            .transform(art: VideoDimensions(width: 1000, height: 100), preview: portrait)
        #expect(close(t.apply(x: 0, y: 0), 0.1, -0.25))
        #expect(close(t.apply(x: 1, y: 0), 1.1, -0.25))
    }

    @Test("placements out of range are refused with the range named")
    func validation() {
        #expect(throws: OverlayPlacement.Error.scale(0)) { try OverlayPlacement(scale: 0).validate() }
        #expect(throws: OverlayPlacement.Error.scale(25)) { try OverlayPlacement(scale: 25).validate() }
        #expect(throws: OverlayPlacement.Error.notFinite("rotation")) { try OverlayPlacement(rotationDegrees: .nan).validate() }
        #expect(throws: OverlayPlacement.Error.notFinite("offset")) { try OverlayPlacement(offsetX: .infinity).validate() }
        #expect(OverlayPlacement.Error.scale(25).description.contains("0.05…20"))
        #expect(throws: Never.self) { try OverlayPlacement(anchor: .bottomRight, scale: 20, rotationDegrees: -725).validate() }
    }

    @Test("the transform prints as CSS's matrix() in the same order")
    func cssOrder() {
        let t = AffineTransform(a: 1, b: 2, c: 3, d: 4, tx: 5, ty: 6)
        #expect(t.description == "matrix(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)")
        #expect(close(t.apply(x: 1, y: 1), 1 + 3 + 5, 2 + 4 + 6))
    }
}

@Suite("PhotoCropSpec, DeviceOrientation, CaptureRotation")
struct PhotoCropAndOrientationTests {
    @Test("the EXIF orientation follows the behaviour reference's table: 0° → 1, +90° → 8, −90° → 6, 180° → 3")
    func exifTable() {
        #expect(DeviceOrientation.allCases.map { [$0.rawValue, $0.exifOrientation] }
                == [[0, 1], [90, 8], [-90, 6], [180, 3]])
        #expect(DeviceOrientation(degrees: 270) == .right)
        #expect(DeviceOrientation(degrees: 45) == nil)
    }

    @Test("a landscape picture is turned to portrait; a portrait one is kept")
    func captureRotation() {
        #expect(CaptureRotation.forPicture(VideoDimensions(width: 1280, height: 720)) == .clockwise)
        #expect(CaptureRotation.forPicture(VideoDimensions(width: 720, height: 1280)) == .none)
        #expect(CaptureRotation.forPicture(VideoDimensions(width: 640, height: 640)) == .none)
        #expect(CaptureRotation.clockwise.apply(to: VideoDimensions(width: 1280, height: 720)) == VideoDimensions(width: 720, height: 1280))
    }

    @Test("the crop is the centred region a preview frame of the given aspect shows, zoom included")
    func crop() throws {
        let picture = VideoDimensions(width: 1080, height: 1920)
        #expect(PhotoCropSpec.whole.pixels(of: picture) == PixelRect(x: 0, y: 0, width: 1080, height: 1920))
        // A 3:4 preview of a 9:16 picture shows its full width and the middle 1440 rows.
        let threeFour = PhotoCropSpec(aspectWidth: 3, aspectHeight: 4)
        #expect(threeFour.pixels(of: picture) == PixelRect(x: 0, y: 240, width: 1080, height: 1440))
        // Zoom 2 halves both sides about the centre.
        let zoomed = PhotoCropSpec(aspectWidth: 3, aspectHeight: 4, zoom: 2)
        #expect(zoomed.pixels(of: picture) == PixelRect(x: 270, y: 600, width: 540, height: 720))
        let region = zoomed.region(of: picture)
        #expect(abs(region.x - 0.25) < 1e-12 && abs(region.height - 0.375) < 1e-12)
        // A wider-than-the-picture frame keeps full height.
        #expect(PhotoCropSpec(aspectWidth: 1, aspectHeight: 1).pixels(of: picture) == PixelRect(x: 0, y: 420, width: 1080, height: 1080))
    }

    @Test("bad crops are refused")
    func badCrops() {
        #expect(throws: PhotoCropSpec.Error.aspect(width: 0, height: 4)) { try PhotoCropSpec(aspectWidth: 0, aspectHeight: 4).validate() }
        #expect(throws: PhotoCropSpec.Error.aspect(width: 3, height: 0)) { try PhotoCropSpec(aspectWidth: 3).validate() }
        #expect(throws: PhotoCropSpec.Error.zoom(0.5)) { try PhotoCropSpec(zoom: 0.5).validate() }
        #expect(throws: Never.self) { try PhotoCropSpec(aspectWidth: 9, aspectHeight: 16, zoom: 8).validate() }
    }
}
