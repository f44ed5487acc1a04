import Foundation
import ReelCore
import ReelImage
import ReelOverlay
import ReelStore
import ReelTestSupport
import ReelVision
import Testing

@Suite("OverlayCutout: the subject at a point, as a transparent PNG")
struct OverlayCutoutTests {
    func make(_ arguments: [String]) throws {
        let result = try Subprocess.run("convert", arguments)
        try #require(result.status == 0, "convert \(arguments): \(result.stderr)")
    }

    /// The cut-out's alpha read back by ImageMagick, placed in the photo's coordinates.
    func alpha(_ result: OverlayCutout.Result, folder: TemporaryDirectory, photoWidth: Int, photoHeight: Int) throws -> [UInt8] {
        let path = folder.path("read-\(UUID().uuidString).png")
        try result.png.write(to: URL(fileURLWithPath: path))
        let raw = folder.path("alpha.gray")
        try make([path, "-alpha", "extract", "-depth", "8", "gray:" + raw])
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        try #require(bytes.count == result.width * result.height)
        var full = [UInt8](repeating: 0, count: photoWidth * photoHeight)
        for y in 0..<result.height {
            for x in 0..<result.width {
                full[(result.region.y + y) * photoWidth + result.region.x + x] = bytes[y * result.width + x]
            }
        }
        return full
    }

    /// Intersection over union of alpha ≥ 128 with the disc.
    func iou(_ alpha: [UInt8], width: Int, centre: (Double, Double), radius: Double) -> Double {
        var both = 0, either = 0
        for (i, a) in alpha.enumerated() {
            let x = Double(i % width) + 0.5, y = Double(i / width) + 0.5
            let inDisc = (x - centre.0) * (x - centre.0) + (y - centre.1) * (y - centre.1) <= radius * radius
            let inCut = a >= 128
            if inDisc && inCut { both += 1 }
            if inDisc || inCut { either += 1 }
        }
        return Double(both) / Double(max(1, either))
    }

    @Test("an object on a plain and on a busy background: the disc and only the disc (IoU ≥ 0.95), a soft edge, cropped",
          arguments: ["xc:#d8d8d0", "plasma:tan-olive"])
    func objects(background: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let photo = folder.path("photo.png")
        // A red disc (centre 400,300, radius 150) and, apart from it, a blue square.
        try make(["-size", "800x600", "-seed", "7", background, "-fill", "#b02020", "-draw", "circle 400,300 400,150",
                  "-fill", "#2050c0", "-draw", "rectangle 40,40 140,140", photo])
        let result = try OverlayCutout.run(OverlayCutoutSettings(photoPath: photo, x: 0.5, y: 0.5, method: .object))
        #expect(result.method == "object")
        let a = try alpha(result, folder: folder, photoWidth: 800, photoHeight: 600)
        let score = iou(a, width: 800, centre: (400, 300), radius: 150)
        #expect(score >= 0.95, "IoU \(score) on \(background)")
        #expect(a[90 * 800 + 90] == 0, "the blue square is not part of it")
        let soft = a.filter { $0 > 0 && $0 < 255 }.count
        #expect(soft > 600, "a soft edge: \(soft) partly transparent pixels around a 942-pixel circumference")
        #expect(abs(result.width - 301) <= 12 && abs(result.height - 301) <= 12, "cropped to the disc: \(result.width)x\(result.height)")
        // Nothing of the background is kept under the transparent pixels.
        try result.png.write(to: URL(fileURLWithPath: folder.path("cut.png")))
        let cut = try DecodedImage(path: folder.path("cut.png"))
        let clear = stride(from: 0, to: cut.samples.count, by: 4).filter { cut.samples[$0 + 3] == 0 }
        #expect(clear.count > 1000 && clear.allSatisfy { cut.samples[$0] == 0 && cut.samples[$0 + 1] == 0 && cut.samples[$0 + 2] == 0 },
                "\(clear.count) transparent pixels, all with colour 0")
    }

    @Test("auto takes the segmentation's mask for a person only with a face in it: a star on noise is an object (needs `make setup`)")
    func autoNeedsAFace() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let photo = folder.path("star.png")
        // The selfie model claims this star as a person at its centre; it has no face.
        try make(["-size", "640x480", "-seed", "3", "xc:gray50", "+noise", "Random", "-fill", "#d4a017", "-draw",
                  "polygon 320,90 355,200 470,200 378,268 412,380 320,312 228,380 262,268 170,200 285,200", photo])
        let settings = OverlayCutoutSettings(photoPath: photo, x: 0.5, y: 0.5)
        try #require(FileManager.default.fileExists(atPath: settings.models.segmentationModel), "the segmentation model (make setup)")
        let forced = try OverlayCutout.run(OverlayCutoutSettings(photoPath: photo, x: 0.5, y: 0.5, method: .person))
        #expect(forced.method == "person", "the model does claim it")
        let result = try OverlayCutout.run(settings)
        #expect(result.method == "object", "no face in the model's mask: GrabCut cut it out")
        #expect(abs(result.width - 301) <= 12 && abs(result.height - 291) <= 12, "the star's box: \(result.width)x\(result.height)")
    }

    @Test("the photo's colours and profile are kept: a 16-bit Display P3 photo gives a 16-bit P3 cut-out")
    func keepsProfile() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.writeP3Profile(to: folder.path("p3.icc"))
        // A 16-bit P3 picture: green background, an opaque magenta square in the middle (stills.py
        // draws one colour; ImageMagick paints the square over it keeping depth and profile).
        try StillsTool.run(["png", folder.path("base.png"), "400", "300", "0,40000,0,65535", folder.path("p3.icc")])
        try make([folder.path("base.png"), "-fill", "rgb(91.5%,0%,91.5%)", "-draw", "rectangle 140,90 260,210", "-depth", "16",
                  folder.path("photo.png")])
        let source = try DecodedImage(path: folder.path("photo.png"))
        let middle = (150 * 400 + 200) * 4
        let painted = Array(source.samples[middle..<middle + 4])
        #expect(painted[0] % 257 != 0 && painted[1] == 0, "a 16-bit value: \(painted)")
        let result = try OverlayCutout.run(OverlayCutoutSettings(photoPath: folder.path("photo.png"), x: 0.5, y: 0.5, method: .object))
        let out = folder.path("cut.png")
        try result.png.write(to: URL(fileURLWithPath: out))
        let tags = try StillsTool.exif(out)
        #expect(tags["ICC_Profile:ProfileDescription"] as? String == "Display P3")
        #expect(tags["PNG:BitDepth"] as? Int == 16)
        let decoded = try DecodedImage(path: out)
        let centre = (decoded.height / 2 * decoded.width + decoded.width / 2) * 4
        #expect(Array(decoded.samples[centre..<centre + 4]) == painted, "code values kept exactly")
    }

    @Test("nothing there, a point outside, an existing file: clear errors and nothing written")
    func refusals() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try make(["-size", "400x300", "xc:#808080", folder.path("plain.png")])
        func failure(_ settings: OverlayCutoutSettings) -> String {
            do { _ = try OverlayCutout.run(settings); return "no error" } catch { return "\(error)" }
        }
        let plain = failure(OverlayCutoutSettings(photoPath: folder.path("plain.png"), x: 0.5, y: 0.5, method: .object,
                                                  outputPath: folder.path("cut.png")))
        #expect(plain.contains("nothing stands out"), "\(plain)")
        let outside = failure(OverlayCutoutSettings(photoPath: folder.path("plain.png"), x: 1.5, y: 0.5))
        #expect(outside.contains("outside the photo"), "\(outside)")
        try "keep".write(toFile: folder.path("kept.png"), atomically: true, encoding: .utf8)
        let existing = failure(OverlayCutoutSettings(photoPath: folder.path("plain.png"), x: 0.5, y: 0.5, outputPath: folder.path("kept.png")))
        #expect(existing.contains("already exists"), "\(existing)")
        let notPhoto = failure(OverlayCutoutSettings(photoPath: folder.path("kept.png"), x: 0.5, y: 0.5))
        #expect(notPhoto.contains("not a photo Reel can read"), "\(notPhoto)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).sorted() == ["kept.png", "plain.png"])
    }

    @Test("a person: the segmentation model cuts out the astronaut (needs `make setup`); --method person refuses the background")
    func person() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let models = VisionModels.current()
        try #require(FileManager.default.fileExists(atPath: models.segmentationModel),
                     "the person-segmentation model is missing: run make setup (scripts/fetch-segmentation-model.sh)")
        let photo = TestPhotos.astronautPath  // the repository's fixture (REEL_TEST_PHOTO overrides)
        let result = try OverlayCutout.run(OverlayCutoutSettings(photoPath: photo, x: 0.5, y: 0.4))
        #expect(result.method == "person" && result.note == nil)
        let a = try alpha(result, folder: folder, photoWidth: 512, photoHeight: 512)
        #expect(a[200 * 512 + 256] == 255, "the face is in")
        #expect(a[5 * 512 + 5] == 0 && a[5 * 512 + 506] == 0, "the top corners are out")
        #expect(result.coverage > 0.2 && result.coverage < 0.9, "coverage \(result.coverage)")
        do {
            _ = try OverlayCutout.run(OverlayCutoutSettings(photoPath: photo, x: 0.03, y: 0.03, method: .person))
            Issue.record("the background was cut out as a person")
        } catch {
            #expect("\(error)".contains("no person at that point"), "\(error)")
        }
    }

    @Test("the CLI: cutout -o and --add put a cut-out in the library, usable by snap --asset; usage errors")
    func commandLine() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let library = ["--library", folder.path("lib/library.sqlite")]
        try make(["-size", "600x400", "xc:#d8d8d0", "-fill", "#c03020", "-draw", "circle 300,200 300,90", folder.path("mug.png")])
        let cut = try ReelBinary.run(["overlay", "cutout", folder.path("mug.png"), "--at", "0.5,0.5", "--method", "object",
                                      "-o", folder.path("mug-cut.png"), "--add", "--name", "red mug"] + library)
        #expect(cut.status == 0 && cut.stdout.contains("cut out an object") && cut.stdout.contains("added 'red mug'"), "\(cut.stdout) \(cut.stderr)")
        #expect(FileManager.default.fileExists(atPath: folder.path("mug-cut.png")))
        let assets = try ReelBinary.run(["overlay", "assets", "--json"] + library)
        #expect(assets.stdout.contains("\"origin\" : \"cutout\"") && assets.stdout.contains("\"hasAlpha\" : true"), "\(assets.stdout)")
        let snap = try ReelBinary.run(["overlay", "snap", "--asset", "red mug", "--scale", "0.3", "-o", folder.path("p.jpg")] + library)
        #expect(snap.status == 0, "\(snap.stderr)")
        let neither = try ReelBinary.run(["overlay", "cutout", folder.path("mug.png"), "--at", "0.5,0.5"] + library)
        #expect(neither.status == 64 && neither.stderr.contains("-o FILE.png, --add"), "\(neither.stderr)")
        let badPoint = try ReelBinary.run(["overlay", "cutout", folder.path("mug.png"), "--at", "50,50", "-o", folder.path("x.png")])
        #expect(badPoint.status == 64 && badPoint.stderr.contains("0…1"), "\(badPoint.stderr)")
    }
}
