import Foundation
import ReelTestSupport
import Testing

@Suite("reel overlay snap (the binary)")
struct OverlayCommandTests {
    @Test("a photo with artwork, its format from the extension; the summary names size, space and orientation")
    func snaps() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["png", folder.path("sticker.png"), "64", "32", "65535,32768,0,49152"])
        let run = try ReelBinary.run(["overlay", "snap", "--source", "test:1280x720", "--art", folder.path("sticker.png"),
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

    @Test("help lists every option of snap")
    func help() throws {
        let help = try ReelBinary.run(["overlay", "snap", "--help"])
        #expect(help.status == 0)
        for option in ["--source", "--art", "--anchor", "--offset", "--scale", "--rotate", "--aspect", "--zoom", "--orientation",
                       "--format", "--quality", "--output", "--force"] {
            #expect(help.stdout.contains(option), "\(option) in help")
        }
    }
}
