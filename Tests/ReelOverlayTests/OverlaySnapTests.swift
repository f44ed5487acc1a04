import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay
import ReelTestSupport
import Testing

@Suite("OverlaySnap: photos read back by independent tools")
struct OverlaySnapTests {
    static let date = Date(timeIntervalSince1970: 1_780_000_000)

    /// A photo in the portrait frame (a phone's, as these tests were written for) unless told.
    func snap(_ folder: TemporaryDirectory, _ name: String, source: SourceSpec = .test(width: 1280, height: 720, framesPerSecond: 30),
              frame: OverlayFrameShape = .portrait, art: String? = nil, placement: OverlayPlacement = .default, crop: PhotoCropSpec = .whole,
              orientation: DeviceOrientation = .upright, format: StillFormat? = nil) throws -> (String, OverlaySnap.Report) {
        let path = folder.path(name)
        let settings = OverlaySnapSettings(source: source, frame: frame, artPath: art, placement: placement, crop: crop, orientation: orientation,
                                           format: format ?? StillFormat(fileExtension: (name as NSString).pathExtension)!,
                                           outputPath: path, software: "reel test")
        return (path, try OverlaySnap.run(settings, now: { Self.date }))
    }

    @Test("a colour chart (sRGB patches, a P3-only green, a 16-bit ramp) through each format: ΔE2000 ≤ 1, the right profile, 16 bits kept in TIFF",
          arguments: StillFormat.allCases)
    func colourChart(format: StillFormat) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.writeP3Profile(to: folder.path("p3.icc"))
        let layout = try StillsTool.run(["chart", folder.path("chart.png"), folder.path("p3.icc"), "720", "1280"])
        try layout.write(toFile: folder.path("layout.json"), atomically: true, encoding: .utf8)
        // The chart is opaque and the picture's size: the photo is the chart, through Reel's path.
        let (photo, report) = try snap(folder, "chart.\(format.fileExtension)", art: folder.path("chart.png"))
        #expect(report.size == VideoDimensions(width: 720, height: 1280))
        let measured = try StillsTool.measure(photo, layout: folder.path("layout.json"))
        #expect(measured.profile == (format == .jpeg ? "sRGB" : "Display P3"))
        #expect(measured.width == 720 && measured.height == 1280)
        for patch in measured.patches {
            if patch.inGamut {
                #expect(patch.deltaE <= 1, "\(format) \(patch.name): ΔE2000 \(patch.deltaE), read \(patch.rgb)")
            } else {
                // JPEG is sRGB: the P3-only green is clipped into it, as relative colorimetric does.
                #expect(format == .jpeg && patch.name == "p3-green")
                #expect(patch.deltaE > 3, "the P3 green really lies outside sRGB")
                #expect(patch.deltaEClipped <= 1, "\(patch.name): ΔE2000 to the clipped colour \(patch.deltaEClipped)")
            }
        }
        #expect(measured.patches.contains { $0.name == "p3-green" && ($0.inGamut == (format != .jpeg)) })
        if format == .tiff {
            #expect(measured.depth == 16)
            // 0.25…0.35 across 720 pixels is 6,554 16-bit steps: every pixel differs (8 bits would give 26 levels).
            #expect(measured.gradient.distinct >= 700, "TIFF ramp: \(measured.gradient.distinct) levels")
            let info = try Subprocess.run("tiffinfo", [photo])
            #expect(info.stdout.contains("Bits/Sample: 16") && info.stdout.contains("ICC Profile"), "\(info.stdout)")
        } else {
            #expect(measured.gradient.distinct <= 30, "8-bit output")
        }
    }

    @Test("the EXIF orientation follows the table in every format; the pixels stay portrait",
          arguments: StillFormat.allCases)
    func orientation(format: StillFormat) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        for held in DeviceOrientation.allCases {
            let (photo, report) = try snap(folder, "o\(held.rawValue).\(format.fileExtension)",
                                           source: .test(width: 320, height: 180, framesPerSecond: 30), orientation: held)
            #expect(report.size == VideoDimensions(width: 180, height: 320), "stored portrait")
            let tags = try StillsTool.exif(photo)
            #expect(tags["EXIF:Orientation"] as? Int == held.exifOrientation, "\(format) held \(held.rawValue)°: \(tags["EXIF:Orientation"] ?? "none")")
            #expect(tags["EXIF:Model"] as? String == "test pattern 320x180@30")
            #expect(tags["EXIF:Software"] as? String == "reel test")
            #expect(tags["EXIF:ModifyDate"] as? String == StillMetadata(date: Self.date, camera: "", software: "").exifDate)
            #expect(tags["ICC_Profile:ProfileDescription"] as? String == (format == .jpeg ? "sRGB" : "Display P3"))
            if format == .heic {
                // HEIF viewers turn by the irot/imir boxes: libheif hands back the picture as EXIF says to show it.
                let info = try Subprocess.run("heif-info", [photo])
                let shown = [DeviceOrientation.upright, .upsideDown].contains(held) ? "180x320" : "320x180"
                #expect(info.stdout.contains("image: \(shown)"), "\(info.stdout)")
            }
        }
    }

    @Test("a landscape camera's picture is turned clockwise to portrait before anything else sees it")
    func landscapeTurned() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["halves", folder.path("halves.y4m"), "320", "180"])
        let (photo, report) = try snap(folder, "turned.tiff", source: .file(path: folder.path("halves.y4m")))
        #expect(report.size == VideoDimensions(width: 180, height: 320))
        // Left (red) becomes the top; right (blue) the bottom.
        let top = try rgb8(photo, x: 90, y: 40), bottom = try rgb8(photo, x: 90, y: 280)
        #expect(top.0 > 200 && top.2 < 40, "top \(top)")
        #expect(bottom.2 > 200 && bottom.0 < 40, "bottom \(bottom)")
    }

    @Test("the photo keeps what the preview shows: --aspect and --zoom crop about the centre")
    func cropped() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let (_, square) = try snap(folder, "square.jpg", crop: PhotoCropSpec(aspectWidth: 1, aspectHeight: 1))
        #expect(square.size == VideoDimensions(width: 720, height: 720))
        let (_, zoomed) = try snap(folder, "zoomed.jpg", crop: PhotoCropSpec(aspectWidth: 3, aspectHeight: 4, zoom: 2))
        #expect(zoomed.size == VideoDimensions(width: 360, height: 480))
    }

    /// A stored pixel of a photo as 8-bit code values (no colour conversion), read by ImageMagick.
    func rgb8(_ path: String, x: Int, y: Int) throws -> (Int, Int, Int) {
        let channel = { (c: String) in "%[fx:int(255*p{\(x),\(y)}.\(c)+0.5)]" }
        let out = try Subprocess.run("convert", [path, "-format", [channel("r"), channel("g"), channel("b")].joined(separator: ","), "info:"])
        let values = out.stdout.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        guard out.status == 0, values.count == 3 else { throw StillsTool.Failure(description: "convert: \(out.stdout) \(out.stderr)") }
        return (values[0], values[1], values[2])
    }
}
