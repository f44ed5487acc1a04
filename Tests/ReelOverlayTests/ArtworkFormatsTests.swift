import Foundation
import ReelCore
import ReelImage
import ReelTestSupport
import Testing

@Suite("Artwork: PNG, JPEG, HEIC and TIFF made by other tools")
struct ArtworkFormatsTests {
    func make(_ folder: TemporaryDirectory, _ tool: String, _ arguments: [String]) throws {
        let result = try Subprocess.run(tool, arguments)
        try #require(result.status == 0, "\(tool) \(arguments): \(result.stderr)")
    }

    /// The artwork's pixel as 8-bit sRGB (for checking where colours landed).
    func srgb(_ art: Artwork, x: Int, y: Int) -> [UInt8] {
        let i = (y * art.width + x) * 4
        let a = Double(art.samples[i + 3])
        let straight = (0..<3).map { a > 0 ? UInt16(min(65535, (Double(art.samples[i + $0]) * 65535 / a).rounded())) : 0 }
        return RGBPicture(width: 1, height: 1, samples: straight, space: .linearDisplayP3).converted(to: .sRGB).samples8()
    }

    @Test("a JPEG is turned upright by its EXIF orientation; its ICC profile is honoured")
    func jpegUpright() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        // Stored 40x20, left half blue: orientation 6 means "turn a quarter clockwise to show".
        try make(folder, "convert", ["-size", "40x20", "xc:red", "-fill", "blue", "-draw", "rectangle 0,0 19,19",
                                     "-quality", "95", folder.path("turned.jpg")])
        try make(folder, "exiftool", ["-q", "-overwrite_original", "-n", "-Orientation=6", folder.path("turned.jpg")])
        let art = try Artwork(imageAt: folder.path("turned.jpg"))
        #expect(art.width == 20 && art.height == 40 && art.fileFormat == "JPEG" && !art.hasAlpha)
        let top = srgb(art, x: 10, y: 5), bottom = srgb(art, x: 10, y: 35)
        #expect(top[2] > 200 && top[0] < 50, "blue on top: \(top)")
        #expect(bottom[0] > 200 && bottom[2] < 50, "red below: \(bottom)")
    }

    @Test("a HEIC with alpha (heif-enc), and Reel's own HEIC and 16-bit TIFF photos, read back as artwork")
    func heicAndTiff() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try make(folder, "convert", ["-size", "64x32", "xc:none", "-fill", "rgba(0,128,255,1)", "-draw", "rectangle 0,0 31,31",
                                     "PNG32:" + folder.path("half.png")])
        try make(folder, "heif-enc", ["-q", "90", folder.path("half.png"), "-o", folder.path("half.heic")])
        let heic = try Artwork(imageAt: folder.path("half.heic"))
        #expect(heic.fileFormat == "HEIC" && heic.hasAlpha && heic.width == 64 && heic.height == 32)
        #expect(heic.samples[3] > 64000 && heic.samples[(16 * 64 + 60) * 4 + 3] < 1500, "opaque left, clear right")
        for (name, profile) in [("photo.heic", "Display P3"), ("photo.tiff", "Display P3"), ("photo.jpg", "sRGB")] {
            let path = folder.path(name)
            let made = try ReelBinary.run(["overlay", "snap", "--source", "test:320x180", "--frame", "portrait", "-o", path])
            try #require(made.status == 0, "\(made.stderr)")
            let art = try Artwork(imageAt: path)
            #expect(art.sourceProfile == profile && art.width == 180 && art.height == 320 && !art.hasAlpha, "\(name)")
        }
    }

    @Test("what is not an image Reel reads gets a clear error: GIF, CMYK JPEG, cut-short JPEG and PNG, empty file")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try make(folder, "convert", ["-size", "8x8", "xc:red", folder.path("a.gif")])
        try make(folder, "convert", ["-size", "8x8", "xc:red", "-colorspace", "CMYK", folder.path("cmyk.jpg")])
        try make(folder, "convert", ["-size", "300x300", "plasma:", "-quality", "90", folder.path("whole.jpg")])
        try make(folder, "convert", ["-size", "300x300", "plasma:", folder.path("whole.png")])
        for (name, cut) in [("whole.jpg", "cut.jpg"), ("whole.png", "cut.png")] {
            let bytes = try Data(contentsOf: folder.url.appendingPathComponent(name))
            try bytes.prefix(bytes.count / 2).write(to: folder.url.appendingPathComponent(cut))
        }
        try Data().write(to: folder.url.appendingPathComponent("empty.png"))
        let expectations = [("a.gif", "not a PNG, JPEG, HEIC or TIFF file"), ("cmyk.jpg", "CMYK JPEG"),
                            ("cut.jpg", "Premature end of JPEG file"), ("cut.png", "ends before its picture does"),
                            ("empty.png", "the file is empty")]
        for (name, words) in expectations {
            do {
                _ = try Artwork(imageAt: folder.path(name))
                Issue.record("\(name) was accepted")
            } catch {
                #expect(error.description.contains(words) && error.description.contains("artwork must be"), "\(name): \(error)")
            }
        }
    }
}
