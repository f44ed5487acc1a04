import ReelBooks
import ReelCore
import ReelTestSupport
import Testing

/// ZBar on EAN-13 codes the test draws from known digits.
@Suite("EAN13Reader")
struct EAN13ReaderTests {
    func read(_ drawing: EAN13Drawing) throws -> [String] {
        try drawing.pixels.withUnsafeBytes { bytes in
            try EAN13Reader().read(BarcodePicture(base: bytes.baseAddress!, width: drawing.width, height: drawing.height, stride: drawing.width))
        }
    }

    @Test("known digits decode: straight, turned 4–5° either way, with ±40 grey levels of noise, at two module sizes",
          arguments: ["9784780802047", "9780306406157", "9791032305690", "9784101010014"])
    func decodes(digits: String) throws {
        #expect(try read(EAN13Drawing(digits: digits)) == [digits])
        #expect(try read(EAN13Drawing(digits: digits, module: 2).rotated(degrees: 4).noisy(amplitude: 40, seed: 7)) == [digits])
        #expect(try read(EAN13Drawing(digits: digits, module: 4).rotated(degrees: -5).noisy(amplitude: 40, seed: 11)) == [digits])
    }

    @Test("a code drawn with a wrong check digit does not decode; the same code with the right one does")
    func wrongCheckDigit() throws {
        #expect(try read(EAN13Drawing(digits: "9784780802048")) == [])
        #expect(try read(EAN13Drawing(digits: "9784780802047")) == ["9784780802047"])
        // And the digits themselves, typed, are refused by the ISBN rule with the expected digit.
        #expect(throws: ISBN.Error.wrongCheckDigit("9784780802048", expected: 7)) { try ISBN.validate("9784780802048") }
    }

    @Test("a grocery EAN-13 decodes (it is a valid EAN-13) and the ISBN rule refuses it as not a book")
    func notABook() throws {
        #expect(try read(EAN13Drawing(digits: "4901234567894")) == ["4901234567894"])
        #expect(throws: ISBN.Error.notABook("4901234567894")) { try ISBN.validate("4901234567894") }
    }

    @Test("a blank picture, and one with padded rows (stride > width), are handled; a bad stride is an error")
    func edges() throws {
        let blank = [UInt8](repeating: 255, count: 200 * 100)
        let none = try blank.withUnsafeBytes { try EAN13Reader().read(BarcodePicture(base: $0.baseAddress!, width: 200, height: 100, stride: 200)) }
        #expect(none == [])
        let drawing = EAN13Drawing(digits: "9780306406157")
        let stride = drawing.width + 37
        var padded = [UInt8](repeating: 0, count: stride * drawing.height)
        for y in 0..<drawing.height {
            for x in 0..<drawing.width { padded[y * stride + x] = drawing.pixels[y * drawing.width + x] }
        }
        let found = try padded.withUnsafeBytes {
            try EAN13Reader().read(BarcodePicture(base: $0.baseAddress!, width: drawing.width, height: drawing.height, stride: stride))
        }
        #expect(found == ["9780306406157"])
        #expect(throws: EAN13Reader.Error.badPicture(width: 200, height: 100, stride: 100)) {
            try blank.withUnsafeBytes { try EAN13Reader().read(BarcodePicture(base: $0.baseAddress!, width: 200, height: 100, stride: 100)) }
        }
    }
}
