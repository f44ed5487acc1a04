import Foundation
import ReelImage
import ReelTestSupport
import Testing

@Suite("reel overlay snap (the binary)")
struct OverlayCommandTests {
    @Test("a photo with artwork, its format from the extension; the summary names size, space and orientation")
    func snaps() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["png", folder.path("sticker.png"), "64", "32", "65535,32768,0,49152"])
        let run = try ReelBinary.run(["overlay", "snap", "--source", "test:1280x720", "--frame", "portrait", "--art", folder.path("sticker.png"),
                                      "--anchor", "bottom-right", "--offset", "-0.05,-0.05", "--scale", "0.4", "--rotate", "-12",
                                      "--orientation", "-90", "--aspect", "3:4", "-o", folder.path("photo.heic")])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("HEIC 720x960") && run.stdout.contains("Display P3") && run.stdout.contains("EXIF orientation 6"),
                "\(run.stdout)")
        let tags = try StillsTool.exif(folder.path("photo.heic"))
        #expect(tags["EXIF:Orientation"] as? Int == 6)
        #expect((tags["EXIF:Software"] as? String)?.hasPrefix("reel ") == true)
    }

    @Test("usage errors: a bad offset, an output with no known extension, an existing file; exit 64 or 1 with what to do")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let offset = try ReelBinary.run(["overlay", "snap", "--offset", "left", "-o", folder.path("a.jpg")])
        #expect(offset.status == 64 && offset.stderr.contains("--offset") && offset.stderr.contains("two numbers X,Y"), "\(offset.stderr)")
        let noExtension = try ReelBinary.run(["overlay", "snap", "-o", folder.path("photo")])
        #expect(noExtension.status == 64 && noExtension.stderr.contains(".heic, .jpg or .tiff"), "\(noExtension.stderr)")
        let scale = try ReelBinary.run(["overlay", "snap", "--scale", "50", "-o", folder.path("b.jpg")])
        #expect(scale.status == 64 && scale.stderr.contains("0.05…20"), "\(scale.stderr)")
        let orientation = try ReelBinary.run(["overlay", "snap", "--orientation", "45", "-o", folder.path("c.jpg")])
        #expect(orientation.status == 64 && orientation.stderr.contains("--orientation"), "\(orientation.stderr)")
        try "keep".write(toFile: folder.path("kept.jpg"), atomically: true, encoding: .utf8)
        let existing = try ReelBinary.run(["overlay", "snap", "-o", folder.path("kept.jpg")])
        #expect(existing.status == 1 && existing.stderr.contains("already exists"), "\(existing.stderr)")
        let forced = try ReelBinary.run(["overlay", "snap", "--force", "--format", "jpeg", "-o", folder.path("kept.jpg")])
        #expect(forced.status == 0, "\(forced.stderr)")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted()
        #expect(leftovers == ["kept.jpg"], "only the forced photo: \(leftovers)")
    }

    @Test("--filter circle: a square photo black outside the inscribed circle; --filter with --aspect is refused")
    func filter() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let run = try ReelBinary.run(["overlay", "snap", "--source", "test:1280x720", "--frame", "portrait", "--filter", "circle", "-o", folder.path("round.tiff")])
        #expect(run.status == 0 && run.stdout.contains("TIFF 720x720"), "\(run.stdout) \(run.stderr)")
        let picture = try DecodedPicture(folder.path("round.tiff"))
        #expect(picture.rgb(2, 2) == [0, 0, 0] && picture.rgb(717, 717) == [0, 0, 0], "the corners are black")
        #expect(picture.rgb(360, 360) != [0, 0, 0] && picture.rgb(360, 5).reduce(0, +) > 0, "inside the circle the picture is kept")
        let both = try ReelBinary.run(["overlay", "snap", "--filter", "square", "--aspect", "3:4", "-o", folder.path("x.jpg")])
        #expect(both.status == 64 && both.stderr.contains("--aspect or --filter"), "\(both.stderr)")
        let unknown = try ReelBinary.run(["overlay", "snap", "--filter", "sepia", "-o", folder.path("y.jpg")])
        #expect(unknown.status == 64 && unknown.stderr.contains("square"), "\(unknown.stderr)")
    }

    @Test("help lists every option of snap")
    func help() throws {
        let help = try ReelBinary.run(["overlay", "snap", "--help"])
        #expect(help.status == 0)
        for option in ["--source", "--frame", "--art", "--anchor", "--offset", "--scale", "--rotate", "--aspect", "--filter", "--zoom", "--orientation",
                       "--format", "--quality", "--output", "--force"] {
            #expect(help.stdout.contains(option), "\(option) in help")
        }
    }
}

/// A photo's stored 8-bit code values (ReelImage's reader, no colour conversion).
struct DecodedPicture {
    let image: DecodedImage

    init(_ path: String) throws { image = try DecodedImage(path: path) }

    func rgb(_ x: Int, _ y: Int) -> [Int] {
        let i = (y * image.width + x) * 4
        return (0..<3).map { Int(image.samples[i + $0]) * 255 / 65535 }
    }
}
