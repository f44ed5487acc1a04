import Foundation
import ReelTestSupport
import Testing

/// What a viewer shows of each format's photo, decoded by the format's reference reader.
@Suite("reel overlay snap: every format shows the same picture")
struct OverlayShownTests {
    /// The displayed picture: size and the colour at the middle of each quarter.
    struct Shown: Decodable, Equatable, CustomStringConvertible {
        var width: Int
        var height: Int
        var quarters: [String]
        var description: String { "\(width)x\(height) \(quarters)" }
    }

    static func shown(_ path: String) throws -> Shown {
        try JSONDecoder().decode(Shown.self, from: Data(try StillsTool.run(["shown", path]).utf8))
    }

    @Test("HEIC (heif-convert), JPEG (libjpeg + EXIF) and TIFF (libtiff + Orientation) show one picture, the right way up, for each way the device is held; a HEIC's ispe and irot say the same")
    func sameInEveryFormat() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        // Landscape camera: red top-left quarter, blue top-right, grey bottom. Turned portrait
        // (--frame portrait), the top edge is on the right.
        try StillsTool.run(["marked", folder.path("marked.y4m"), "320", "180"])
        let expected: [String: Shown] = [
            "0": Shown(width: 180, height: 320, quarters: ["grey", "red", "grey", "blue"]),
            // Held a quarter anticlockwise (EXIF 8): the landscape picture as the camera saw it.
            "90": Shown(width: 320, height: 180, quarters: ["red", "blue", "grey", "grey"]),
            "-90": Shown(width: 320, height: 180, quarters: ["grey", "grey", "blue", "red"]),
            "180": Shown(width: 180, height: 320, quarters: ["blue", "grey", "red", "grey"]),
        ]
        for (held, want) in expected.sorted(by: { $0.key < $1.key }) {
            for format in ["heic", "jpg", "tiff"] {
                let photo = folder.path("held\(held).\(format)")
                let run = try ReelBinary.run(["overlay", "snap", "--source", "file:" + folder.path("marked.y4m"),
                                              "--frame", "portrait", "--orientation", held, "-o", photo])
                #expect(run.status == 0, "\(run.stderr)")
                let got = try Self.shown(photo)
                #expect(got == want, "held \(held)°, \(format): shown \(got), want \(want)")
                if format == "heic" { try checkDeclaredSize(photo, shown: got, held: held) }
            }
        }
    }

    /// A HEIC's ispe is the coded size and its irot turns it to the shown one: what a reader
    /// that lays the picture out from those boxes (Apple's) shows, read by exiftool; and
    /// libheif's own size of the image (heif-info), which reads ispe and irot in ipma's order.
    func checkDeclaredSize(_ photo: String, shown: Shown, held: String) throws {
        let tags = try StillsTool.exif(photo)
        let extent = (tags["QuickTime:ImageSpatialExtent"] as? String)?.split(separator: " ").compactMap { Int($0) } ?? []
        let rotation = tags["QuickTime:Rotation"] as? Int ?? 0
        try #require(extent.count == 2, "\(tags)")
        let declared = rotation % 180 == 0 ? (extent[0], extent[1]) : (extent[1], extent[0])
        #expect(declared == (shown.width, shown.height), "held \(held)°: ispe \(extent) turned \(rotation)° is \(declared), shown \(shown)")
        let info = try Subprocess.run("heif-info", [photo]).stdout
        #expect(info.contains("image: \(shown.width)x\(shown.height)"), "held \(held)°: \(info)")
    }

    @Test("a HEIC carries both colour boxes: the ICC profile and an nclx box (Display P3, sRGB curve, BT.601 full range)")
    func bothColourBoxes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let photo = folder.path("photo.heic")
        let run = try ReelBinary.run(["overlay", "snap", "--source", "test:320x180", "--orientation", "90", "-o", photo])
        #expect(run.status == 0, "\(run.stderr)")
        let dump = try Subprocess.run("heif-info", ["-d", photo]).stdout
        #expect(dump.contains("colour_type: prof"), "\(dump)")
        #expect(dump.contains("colour_type: nclx"), "\(dump)")
        // Primaries 12 (SMPTE EG 432-1, Display P3), transfer 13 (sRGB), matrix 6 (BT.601), full range.
        #expect(dump.contains("colour_primaries: 12") && dump.contains("transfer_characteristics: 13")
                    && dump.contains("matrix_coefficients: 6") && dump.contains("full_range_flag: 1"), "\(dump)")
    }
}
