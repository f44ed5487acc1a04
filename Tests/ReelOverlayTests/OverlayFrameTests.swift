import Foundation
import ReelTestSupport
import Testing

/// `reel overlay snap --frame`: the photo's shape, and that the picture is turned only when
/// the chosen shape differs from the source's.
@Suite("reel overlay snap --frame: portrait, landscape or the source's own shape")
struct OverlayFrameTests {
    /// The size and the colour at the middle of each quarter that a viewer shows.
    static func shown(_ path: String) throws -> OverlayShownTests.Shown {
        try JSONDecoder().decode(OverlayShownTests.Shown.self, from: Data(try StillsTool.run(["shown", path]).utf8))
    }

    @Test("a landscape source gives a landscape photo by default and with auto, not turned: the marked corner stays top-left")
    func landscapeSourceKeepsItsShape() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        // Red top-left quarter, blue top-right, grey bottom half.
        try StillsTool.run(["marked", folder.path("wide.y4m"), "320", "180"])
        let asCamera = OverlayShownTests.Shown(width: 320, height: 180, quarters: ["red", "blue", "grey", "grey"])
        for (name, frame) in [("default.jpg", [String]()), ("auto.tiff", ["--frame", "auto"]), ("auto.heic", ["--frame", "auto"])] {
            let photo = folder.path(name)
            let run = try ReelBinary.run(["overlay", "snap", "--source", "file:" + folder.path("wide.y4m")] + frame + ["-o", photo])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains(" 320x180,"), "\(name): \(run.stdout)")
            let got = try Self.shown(photo)
            #expect(got == asCamera, "\(name): shown \(got), want \(asCamera)")
        }
        // The test pattern too.
        let test = try ReelBinary.run(["overlay", "snap", "--source", "test:1280x720", "-o", folder.path("test.jpg")])
        #expect(test.status == 0 && test.stdout.contains("JPEG 1280x720,"), "\(test.stdout) \(test.stderr)")
    }

    @Test("--frame portrait turns a landscape source a quarter clockwise; --frame landscape turns a portrait source a quarter anticlockwise")
    func chosenShapeTurns() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.run(["marked", folder.path("wide.y4m"), "320", "180"])
        try StillsTool.run(["marked", folder.path("tall.y4m"), "180", "320"])
        let cases: [(source: String, frame: String, want: OverlayShownTests.Shown)] = [
            // The top edge on the right.
            ("wide.y4m", "portrait", OverlayShownTests.Shown(width: 180, height: 320, quarters: ["grey", "red", "grey", "blue"])),
            ("wide.y4m", "landscape", OverlayShownTests.Shown(width: 320, height: 180, quarters: ["red", "blue", "grey", "grey"])),
            // The top edge on the left.
            ("tall.y4m", "landscape", OverlayShownTests.Shown(width: 320, height: 180, quarters: ["blue", "grey", "red", "grey"])),
            ("tall.y4m", "portrait", OverlayShownTests.Shown(width: 180, height: 320, quarters: ["red", "blue", "grey", "grey"])),
            ("tall.y4m", "auto", OverlayShownTests.Shown(width: 180, height: 320, quarters: ["red", "blue", "grey", "grey"])),
        ]
        for (source, frame, want) in cases {
            for format in ["jpg", "heic"] {
                let photo = folder.path("\(source)-\(frame).\(format)")
                let run = try ReelBinary.run(["overlay", "snap", "--source", "file:" + folder.path(source), "--frame", frame, "-o", photo])
                #expect(run.status == 0, "\(source) --frame \(frame): \(run.stderr)")
                let got = try Self.shown(photo)
                #expect(got == want, "\(source) --frame \(frame), \(format): shown \(got), want \(want)")
            }
        }
    }

    @Test("an unknown --frame is a usage error that lists the shapes")
    func unknownFrame() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let run = try ReelBinary.run(["overlay", "snap", "--frame", "square", "-o", folder.path("x.jpg")])
        #expect(run.status == 64 && run.stderr.contains("portrait") && run.stderr.contains("landscape"), "\(run.stdout) \(run.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("x.jpg")))
    }
}
