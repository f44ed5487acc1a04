import Foundation
import ReelTestSupport
import Testing

/// `reel overlay` never writes over what it reads, never writes a file its name belies, and
/// creates nothing when its input is missing.
@Suite("reel overlay: inputs, outputs and names (the binary)")
struct OverlayOwnInputTests {
    func make(_ arguments: [String]) throws {
        let result = try Subprocess.run("convert", arguments)
        try #require(result.status == 0, "convert \(arguments): \(result.stderr)")
    }

    func bytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }

    @Test("--force never replaces the command's own input: cutout's photo, snap's artwork, also through a symbolic link")
    func forceKeepsInput() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try make(["-size", "600x400", "xc:#d8d8d0", "-fill", "#c03020", "-draw", "circle 300,200 300,90", folder.path("o.png")])
        let photo = bytes(folder.path("o.png"))
        let cutout = try ReelBinary.run(["overlay", "cutout", folder.path("o.png"), "--at", "0.5,0.5", "--method", "object",
                                         "-o", folder.path("o.png"), "--force"])
        #expect(cutout.status != 0 && cutout.stderr.contains("is the photo"), "\(cutout.stdout) \(cutout.stderr)")
        #expect(bytes(folder.path("o.png")) == photo, "the photo is untouched")

        try StillsTool.run(["png", folder.path("a.png"), "64", "32", "65535,32768,0,49152"])
        let art = bytes(folder.path("a.png"))
        let snap = try ReelBinary.run(["overlay", "snap", "--art", folder.path("a.png"), "--format", "tiff", "-o", folder.path("a.png"), "--force"])
        #expect(snap.status != 0 && snap.stderr.contains("is the artwork"), "\(snap.stdout) \(snap.stderr)")
        #expect(bytes(folder.path("a.png")) == art, "the artwork is untouched")

        try FileManager.default.createSymbolicLink(atPath: folder.path("link.png"), withDestinationPath: folder.path("o.png"))
        let linked = try ReelBinary.run(["overlay", "cutout", folder.path("o.png"), "--at", "0.5,0.5", "--method", "object",
                                         "-o", folder.path("link.png"), "--force"])
        #expect(linked.status != 0 && linked.stderr.contains("is the photo"), "\(linked.stdout) \(linked.stderr)")
        #expect(bytes(folder.path("o.png")) == photo)
        try FileManager.default.createSymbolicLink(atPath: folder.path("art-link.png"), withDestinationPath: folder.path("a.png"))
        let linkedArt = try ReelBinary.run(["overlay", "snap", "--art", folder.path("art-link.png"), "--format", "tiff",
                                            "-o", folder.path("./a.png"), "--force"])
        #expect(linkedArt.status != 0 && linkedArt.stderr.contains("is the artwork"), "\(linkedArt.stdout) \(linkedArt.stderr)")
        #expect(bytes(folder.path("a.png")) == art)
    }

    @Test("an unknown asset's hint names the command that lists them")
    func hintNamesRealCommand() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = ["--library", folder.path("library.sqlite")]
        try StillsTool.run(["png", folder.path("a.png"), "64", "32", "65535,32768,0,49152"])
        #expect(try ReelBinary.run(["overlay", "import", folder.path("a.png")] + library).status == 0)
        let unknown = try ReelBinary.run(["overlay", "snap", "--asset", "nothing-like-it", "-o", folder.path("p.jpg")] + library)
        #expect(unknown.status != 0 && unknown.stderr.contains("(reel overlay assets lists them)"), "\(unknown.stderr)")
        #expect(!unknown.stderr.contains("assets ls"), "\(unknown.stderr)")
        let listed = try ReelBinary.run(["overlay", "assets"] + library)
        #expect(listed.status == 0 && listed.stdout.contains("a"), "the named command exists: \(listed.stderr)")
    }

    @Test("importing a missing file into a new library creates nothing")
    func missingImportCreatesNothing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let run = try ReelBinary.run(["overlay", "import", folder.path("missing.png"), "--library", folder.path("new.sqlite")])
        #expect(run.status != 0 && run.stderr.contains("No such file"), "\(run.stderr)")
        let left = try FileManager.default.contentsOfDirectory(atPath: folder.url.path)
        #expect(left.isEmpty, "nothing created: \(left)")
    }

    @Test("an output whose extension names another format is refused; the extension alone still picks the format; cutout -o is a PNG")
    func extensionAgrees() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let mismatch = try ReelBinary.run(["overlay", "snap", "-f", "tiff", "-o", folder.path("x.jpg")])
        #expect(mismatch.status == 64 && mismatch.stderr.contains("x.jpg names a JPEG file but --format is tiff"), "\(mismatch.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jpg")))
        let agrees = try ReelBinary.run(["overlay", "snap", "-f", "jpeg", "-o", folder.path("y.JPEG")])
        #expect(agrees.status == 0, "\(agrees.stderr)")
        let byExtension = try ReelBinary.run(["overlay", "snap", "-o", folder.path("z.tif")])
        #expect(byExtension.status == 0 && byExtension.stdout.contains("TIFF"), "\(byExtension.stdout) \(byExtension.stderr)")
        let unknownExtension = try ReelBinary.run(["overlay", "snap", "-f", "heic", "-o", folder.path("photo.img")])
        #expect(unknownExtension.status == 0, "an extension that names no format leaves -f to decide: \(unknownExtension.stderr)")

        try make(["-size", "600x400", "xc:#d8d8d0", "-fill", "#c03020", "-draw", "circle 300,200 300,90", folder.path("mug.png")])
        let cutout = try ReelBinary.run(["overlay", "cutout", folder.path("mug.png"), "--at", "0.5,0.5", "--method", "object",
                                         "-o", folder.path("cut.jpg")])
        #expect(cutout.status != 0 && cutout.stderr.contains(".png"), "\(cutout.stdout) \(cutout.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("cut.jpg")))
    }

    @Test("reel cinematic -o x.avi is refused before anything runs: the cinematic camera writes MP4")
    func cinematicNeedsMP4() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let run = try ReelBinary.run(["cinematic", "--source", "test:320x240@10", "--duration", "1", "-o", folder.path("x.avi")], input: "")
        #expect(run.status == 64 && run.stderr.contains(".mp4"), "\(run.stdout) \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.avi")))
    }

    @Test("a 48 MP photo (8000x6000) is cut out; errors speak of the photo, not artwork; above 50 MP is refused")
    func largePhoto() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try make(["-size", "8000x6000", "xc:#d8d8d0", "-fill", "#c03020", "-draw", "circle 4000,3000 4000,1800", "-quality", "90",
                  folder.path("big.jpg")])
        let run = try ReelBinary.run(["overlay", "cutout", folder.path("big.jpg"), "--at", "0.5,0.5", "--method", "object",
                                      "-o", folder.path("cut.png")])
        #expect(run.status == 0 && run.stdout.contains("cut out an object"), "\(run.stdout) \(run.stderr)")
        try StillsTool.run(["oversized", folder.path("huge.png"), "9000", "6000"])
        let huge = try ReelBinary.run(["overlay", "cutout", folder.path("huge.png"), "--at", "0.5,0.5", "-o", folder.path("h.png")])
        #expect(huge.status != 0 && huge.stderr.contains("9000x6000") && huge.stderr.contains("photo")
                    && huge.stderr.contains("50 million") && !huge.stderr.contains("artwork"), "\(huge.stderr)")
        try "text".write(toFile: folder.path("notes.png"), atomically: true, encoding: .utf8)
        let text = try ReelBinary.run(["overlay", "cutout", folder.path("notes.png"), "--at", "0.5,0.5", "-o", folder.path("n.png")])
        #expect(text.status != 0 && text.stderr.contains("photo") && !text.stderr.contains("artwork"), "\(text.stderr)")
        let missing = try ReelBinary.run(["overlay", "cutout", folder.path("gone.jpg"), "--at", "0.5,0.5", "-o", folder.path("g.png")])
        #expect(missing.status != 0 && missing.stderr.contains("photo") && !missing.stderr.contains("artwork"), "\(missing.stderr)")
    }

    @Test("one file imported twice: the second asset gets a name of its own, and --asset finds each")
    func duplicateNames() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = ["--library", folder.path("library.sqlite")]
        try StillsTool.run(["png", folder.path("frame.png"), "64", "32", "65535,32768,0,49152"])
        let first = try ReelBinary.run(["overlay", "import", folder.path("frame.png")] + library)
        let second = try ReelBinary.run(["overlay", "import", folder.path("frame.png")] + library)
        #expect(first.status == 0 && first.stdout.contains("imported 'frame'"), "\(first.stdout) \(first.stderr)")
        #expect(second.status == 0 && second.stdout.contains("imported 'frame 2'"), "\(second.stdout) \(second.stderr)")
        for name in ["frame", "frame 2"] {
            let snap = try ReelBinary.run(["overlay", "snap", "--asset", name, "-o", folder.path("\(name).jpg")] + library)
            #expect(snap.status == 0, "--asset '\(name)': \(snap.stderr)")
        }
    }
}
