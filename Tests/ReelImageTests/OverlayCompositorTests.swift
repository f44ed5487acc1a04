import Foundation
import ReelCore
import ReelImage
import Testing

@Suite("OverlayCompositor")
struct OverlayCompositorTests {
    /// A camera picture of one sRGB colour.
    func camera(_ width: Int, _ height: Int, _ rgb: (UInt16, UInt16, UInt16)) -> RGBPicture {
        RGBPicture(width: width, height: height, samples: (0..<width * height).flatMap { _ in [rgb.0, rgb.1, rgb.2] }, space: .sRGB)
    }

    /// Opaque (or `alpha`) artwork of one linear colour (premultiplied).
    func art(_ width: Int, _ height: Int, linear: (Double, Double, Double), alpha: Double = 1) -> Artwork {
        let px = [linear.0, linear.1, linear.2].map { UInt16(($0 * alpha * 65535).rounded()) } + [UInt16((alpha * 65535).rounded())]
        return Artwork(width: width, height: height, samples: (0..<width * height).flatMap { _ in px })
    }

    @Test("half-transparent white over black is blended in linear light: sRGB 188, not 128")
    func linearBlend() {
        let photo = OverlayCompositor.composite(camera: camera(8, 8, (0, 0, 0)), art: art(8, 8, linear: (1, 1, 1), alpha: 0.5),
                                                transform: .identity)
        #expect(photo.space == .linearDisplayP3)
        let encoded = photo.converted(to: .sRGB).samples8()
        // 0.5 linear is 0.7354 in the sRGB curve: 187.5 → 188.
        #expect(Set(encoded) == [188], "\(Set(encoded))")
    }

    @Test("without artwork the camera's colours come through (sRGB → linear P3 → sRGB)")
    func noArt() {
        let photo = OverlayCompositor.composite(camera: camera(4, 4, (50000, 20000, 9000)), art: nil, transform: .identity)
        let back = photo.converted(to: .sRGB).samples
        // Within a quarter of an 8-bit step: the working space is 16-bit linear, coarser in the shadows.
        for (got, want) in zip(back.prefix(3), [50000, 20000, 9000]) { #expect(abs(Int(got) - want) <= 64, "\(back.prefix(3))") }
    }

    @Test("the burn-in follows the placement's transform exactly, for anchors, scales and turns",
          arguments: [OverlayPlacement(anchor: .topLeft, scale: 0.3),
                      OverlayPlacement(anchor: .bottomRight, offsetX: -0.05, scale: 0.5, rotationDegrees: 30),
                      OverlayPlacement(anchor: .center, scale: 0.7, rotationDegrees: -90),
                      OverlayPlacement(anchor: .top, offsetY: 0.2, scale: 1.4, rotationDegrees: 200)])
    func followsTransform(placement: OverlayPlacement) throws {
        let width = 180, height = 320
        let artwork = art(60, 20, linear: (1, 0, 0))
        let transform = placement.transform(art: artwork.size, preview: VideoDimensions(width: width, height: height))
        let photo = OverlayCompositor.composite(camera: camera(width, height, (0, 0, 65535)), art: artwork, transform: transform)
        let plain = OverlayCompositor.composite(camera: camera(1, 1, (0, 0, 65535)), art: nil, transform: .identity).samples
        let inverse = try #require(transform.inverted)
        var checked = (inside: 0, outside: 0)
        for y in stride(from: 0, to: height, by: 3) {
            for x in stride(from: 0, to: width, by: 3) {
                let a = inverse.apply(x: (Double(x) + 0.5) / Double(width), y: (Double(y) + 0.5) / Double(height))
                let u = a.x * 60, v = a.y * 20  // artwork pixels
                let i = (y * width + x) * 3
                let pixel = Array(photo.samples[i..<i + 3])
                if u > 1, u < 59, v > 1, v < 19 {
                    #expect(pixel == [65535, 0, 0], "(\(x), \(y)) is inside the artwork")
                    checked.inside += 1
                } else if u < -1 || u > 61 || v < -1 || v > 21 {
                    #expect(pixel == plain, "(\(x), \(y)) is outside the artwork")
                    checked.outside += 1
                }
            }
        }
        #expect(checked.inside > 50 && checked.outside > 50)
    }

    @Test("artwork placed wholly outside the picture leaves it as it was")
    func outside() {
        let transform = OverlayPlacement(anchor: .left, offsetX: -2).transform(art: VideoDimensions(width: 10, height: 10),
                                                                             preview: VideoDimensions(width: 20, height: 20))
        let plain = OverlayCompositor.composite(camera: camera(20, 20, (30000, 30000, 30000)), art: nil, transform: .identity)
        let covered = OverlayCompositor.composite(camera: camera(20, 20, (30000, 30000, 30000)), art: art(10, 10, linear: (1, 1, 1)),
                                                  transform: transform)
        #expect(plain.samples == covered.samples)
    }
}
