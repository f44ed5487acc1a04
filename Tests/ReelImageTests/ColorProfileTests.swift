import Foundation
import ReelCore
import ReelImage
import Testing

@Suite("ColorProfile and RGBPicture conversions")
struct ColorProfileTests {
    func picture(_ rgb: [Double], _ space: RGBColorSpace) -> RGBPicture {
        RGBPicture(width: 1, height: 1, samples: rgb.map { UInt16(($0 * 65535).rounded()) }, space: space)
    }

    func values(_ p: RGBPicture) -> [Double] { p.samples.map { Double($0) / 65535 } }

    @Test("the Display P3 profile made in code is named, small, and reads back")
    func madeInCode() throws {
        let profile = ColorProfile.shared(.displayP3)
        #expect(profile.name == "Display P3")
        let bytes = profile.iccData
        #expect(bytes.count > 300 && bytes.count < 1200)
        #expect(String(decoding: bytes[36..<40], as: UTF8.self) == "acsp", "an ICC profile's signature")
        let again = try ColorProfile(icc: bytes, source: "test")
        #expect(again.name == "Display P3")
        #expect(ColorProfile.shared(.sRGB).name == "sRGB")
    }

    @Test("sRGB's pure red is (0.9175, 0.2003, 0.1386) in Display P3 (the published value)")
    func redInP3() {
        let p3 = values(picture([1, 0, 0], .sRGB).converted(to: .displayP3))
        for (got, want) in zip(p3, [0.9175, 0.2003, 0.1386]) { #expect(abs(got - want) < 0.0015, "\(p3)") }
    }

    @Test("linear ↔ encoded round trips every 8-bit level exactly, in both spaces")
    func roundTrip() {
        for space in [RGBColorSpace.sRGB, .displayP3] {
            let levels = (0...255).map { UInt16($0) * 257 }
            let samples = levels.flatMap { [$0, $0, $0] }
            let original = RGBPicture(width: 256, height: 1, samples: samples, space: space)
            let back = original.converted(to: space.linear).converted(to: space).samples8()
            #expect(back == (0...255).flatMap { [UInt8($0), UInt8($0), UInt8($0)] }, "\(space)")
        }
    }

    @Test("a colour outside sRGB is clipped channel by channel into it")
    func gamutClip() {
        let srgb = values(picture([0, 1, 0], .displayP3).converted(to: .sRGB))
        #expect(srgb[0] < 0.001 && srgb[1] > 0.999 && srgb[2] < 0.01, "\(srgb)")
    }

    @Test("bytes that are not a profile are refused with what to do")
    func broken() {
        #expect(throws: ColorProfile.Error.broken(source: "art.png")) { try ColorProfile(icc: Array("not a profile".utf8), source: "art.png") }
        var bytes = ColorProfile.shared(.displayP3).iccData
        bytes.replaceSubrange(128..<140, with: [UInt8](repeating: 0xFF, count: 12))  // the tag table's count and first entry
        #expect(throws: ColorProfile.Error.broken(source: "art.png")) { try ColorProfile(icc: bytes, source: "art.png") }
        #expect(ColorProfile.Error.broken(source: "art.png").description.contains("save the image again"))
    }
}
