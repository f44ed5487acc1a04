import ReelStudio
import Testing

/// Stamp names (``StampName``) and the PNG header an upload is judged by (``PNGHeader``).
@Suite("Studio stamp names")
struct StampNameTests {
    @Test("stamp names: made from any file name, safe, numbered when taken, always valid")
    func stampNames() {
        #expect(StampName.from(original: "My Smiley (2).PNG") == "my-smiley-2.png")
        #expect(StampName.from(original: "../../etc/passwd") == "passwd.png")
        #expect(StampName.from(original: "笑顔.png") == "stamp.png")
        #expect(StampName.from(original: "") == "stamp.png")
        #expect(StampName.from(original: "--a--b--.png") == "a-b.png")
        let long = StampName.from(original: String(repeating: "x", count: 100) + ".png")
        #expect(long.count == StampName.maxStem + 4 && StampName.isValid(long))
        #expect(StampName.numbered("smiley.png", 1) == "smiley.png" && StampName.numbered("smiley.png", 12) == "smiley-12.png")
        #expect(StampName.isValid(StampName.numbered(long, 999)))
        for name in ["a.png", "0-x.png", "smiley-2.png"] { #expect(StampName.isValid(name), "\(name)") }
        for name in [".png", "-a.png", "A.png", "a.PNG", "a b.png", "a/b.png", "a.png.png", "é.png", "a_b.png"] {
            #expect(!StampName.isValid(name), "\(name)")
        }
    }

    @Test("a PNG's header is judged before decoding: not a PNG, no size, too large")
    func pngHeader() {
        func header(width: UInt32, height: UInt32) -> [UInt8] {
            var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            for value in [width, height] { bytes += [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) } }
            return bytes + [8, 6, 0, 0, 0, 0, 0, 0, 0]
        }
        #expect(PNGHeader.size(header(width: 300, height: 2)) ?? (0, 0) == (300, 2))
        #expect(PNGHeader.stampProblem(header(width: 2048, height: 2048)) == nil)
        #expect(PNGHeader.stampProblem(header(width: 2049, height: 10))?.contains("2049x10") == true)
        #expect(PNGHeader.stampProblem(header(width: 0, height: 10))?.contains("no size") == true)
        #expect(PNGHeader.stampProblem(Array("GIF89a".utf8) + [UInt8](repeating: 0, count: 40))?.contains("not a PNG") == true)
        #expect(PNGHeader.stampProblem(Array(header(width: 5, height: 5).prefix(20)))?.contains("not a PNG") == true)
    }
}
