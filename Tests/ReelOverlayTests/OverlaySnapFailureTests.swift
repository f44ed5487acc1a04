import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay
import ReelTestSupport
import Testing

/// A source that fails as a camera does when it is unplugged: after opening, before a picture.
final class VanishingSource: CaptureSource, @unchecked Sendable {
    let format = CaptureFormat(width: 640, height: 480, framesPerSecond: 30, audio: nil)
    let name = "v4l2:/dev/video9 (unplugged)"
    func run(_ deliver: (CaptureSample) throws -> Void) throws {
        throw DeviceGone(text: "source v4l2:/dev/video9: the device went away (No such device); plug the camera in again")
    }
    func stop() {}
}

/// A camera's failure, in the words CaptureError uses.
struct DeviceGone: Error, CustomStringConvertible {
    var text: String
    var description: String { text }
}

/// A source that ends at once (an empty file).
final class EmptySource: CaptureSource, @unchecked Sendable {
    let format = CaptureFormat(width: 640, height: 480, framesPerSecond: 30, audio: nil)
    let name = "file:empty.mp4"
    func run(_ deliver: (CaptureSample) throws -> Void) throws {}
    func stop() {}
}

@Suite("OverlaySnap: bad input gets a clear error and leaves nothing behind")
struct OverlaySnapFailureTests {
    func settings(_ folder: TemporaryDirectory, art: String? = nil, output: String? = nil, format: StillFormat = .jpeg,
                  open: (@Sendable (SourceSpec) throws -> any CaptureSource)? = nil) -> OverlaySnapSettings {
        var settings = OverlaySnapSettings(source: .test(width: 1280, height: 720, framesPerSecond: 30), artPath: art, format: format,
                                           outputPath: output ?? folder.path("photo.\(format.fileExtension)"))
        if let open { settings.openSource = open }
        return settings
    }

    func failure(_ settings: OverlaySnapSettings) -> String {
        do {
            _ = try OverlaySnap.run(settings)
            return "no error"
        } catch {
            return String(describing: error)
        }
    }

    @Test("artwork that is not an image, is too large, or carries a broken ICC profile is refused before the camera opens")
    func badArtwork() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try "just text".write(toFile: folder.path("notes.png"), atomically: true, encoding: .utf8)
        try StillsTool.run(["oversized", folder.path("huge.png"), "30000", "20000"])
        try StillsTool.run(["png", folder.path("broken.png"), "16", "16", "65535,0,0,65535", "broken"])
        let opened = Counter()
        let open: @Sendable (SourceSpec) throws -> any CaptureSource = { opened.add(); return try CaptureSources.open($0) }
        let notImage = failure(settings(folder, art: folder.path("notes.png"), open: open))
        #expect(notImage.contains("is not an image Reel can read") && notImage.contains("PNG (with alpha), JPEG, HEIC or TIFF"), "\(notImage)")
        let huge = failure(settings(folder, art: folder.path("huge.png"), open: open))
        #expect(huge.contains("30000x20000") && huge.contains("scale it down"), "\(huge)")
        let broken = failure(settings(folder, art: folder.path("broken.png"), open: open))
        #expect(broken.contains("ICC colour profile in broken.png is broken"), "\(broken)")
        let missing = failure(settings(folder, art: folder.path("nowhere.png"), open: open))
        #expect(missing.contains("cannot open artwork") && missing.contains("No such file"), "\(missing)")
        #expect(opened.value == 0, "no camera was opened for artwork that cannot be used")
        #expect(!FileManager.default.fileExists(atPath: folder.path("photo.jpg")))
    }

    @Test("a PNG with a good profile of its own, and one without, are both accepted")
    func goodArtwork() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try StillsTool.writeP3Profile(to: folder.path("p3.icc"))
        try StillsTool.run(["png", folder.path("tagged.png"), "16", "16", "0,65535,0,32768", folder.path("p3.icc")])
        try StillsTool.run(["png", folder.path("plain.png"), "16", "16", "0,65535,0,32768"])
        let tagged = try Artwork(imageAt: folder.path("tagged.png"))
        let plain = try Artwork(imageAt: folder.path("plain.png"))
        #expect(tagged.sourceProfile == "Display P3" && plain.sourceProfile == "sRGB")
        // The same code values mean a more saturated green in P3: linear red goes negative → 0 in P3,
        // while sRGB's green seen in P3 keeps some red.
        #expect(tagged.samples[0] == 0 && plain.samples[0] > 1000, "\(tagged.samples.prefix(4)) \(plain.samples.prefix(4))")
        #expect(tagged.samples[3] == 32768, "alpha kept")
    }

    @Test("a camera that vanishes between preview and shutter: the error says so, and no file appears")
    func cameraVanishes() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let vanished = failure(settings(folder, open: { _ in VanishingSource() }))
        #expect(vanished.contains("the photo was not taken") && vanished.contains("device went away"), "\(vanished)")
        let empty = failure(settings(folder, open: { _ in EmptySource() }))
        #expect(empty.contains("gave no picture"), "\(empty)")
        let unopened = failure(settings(folder, open: { _ in throw DeviceGone(text: "source v4l2:/dev/video7: no such device") }))
        #expect(unopened.contains("no such device"), "\(unopened)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path).isEmpty)
    }

    @Test("a full disk: the error names it, and neither the photo nor a partial file is left")
    func fullDisk() throws {
        let disk = try PrivateDisk(bytes: 64 * 1024)
        defer { disk.stop() }
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let full = failure(settings(folder, output: disk.path + "/photo.tiff", format: .tiff))
        #expect(full.contains("the photo was not saved") && full.contains("no space left on the device"), "\(full)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: disk.path).isEmpty)
    }

    @Test("an existing file is never replaced unless asked")
    func existing() throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        try "keep me".write(toFile: folder.path("photo.jpg"), atomically: true, encoding: .utf8)
        let refused = failure(settings(folder))
        #expect(refused.contains("already exists"), "\(refused)")
        #expect(try String(contentsOfFile: folder.path("photo.jpg"), encoding: .utf8) == "keep me")
        var replacing = settings(folder)
        replacing.replace = true
        _ = try OverlaySnap.run(replacing)
        #expect(try Data(contentsOf: folder.url.appendingPathComponent("photo.jpg")).prefix(2) == Data([0xFF, 0xD8]))
    }

    @Test("camera YUV is read with its own matrix and range: BT.601, BT.709 and full-range clips give the same colour",
          arguments: [("bt601", "tv", "smpte170m"), ("bt709", "tv", "bt709"), ("bt601", "pc", "smpte170m")])
    func matrixAndRange(matrix: String, range: String, tag: String) throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let clip = folder.path("clip.mkv")
        let made = try Subprocess.run("ffmpeg", ["-v", "error", "-f", "lavfi", "-i", "color=c=0x3366CC:s=320x180:d=0.2,format=rgb24",
                                                  "-vf", "scale=out_color_matrix=\(matrix):out_range=\(range),format=yuv420p",
                                                  "-colorspace", tag, "-color_range", range, "-c:v", "ffv1", clip])
        try #require(made.status == 0, "\(made.stderr)")
        var settings = settings(folder, format: .jpeg)
        settings.source = .file(path: clip)
        _ = try OverlaySnap.run(settings)
        // The JPEG is sRGB, as the clip's colour was given: its stored values are the colour.
        let read = try Subprocess.run("convert", [folder.path("photo.jpg"), "-format",
                                                  "%[fx:int(255*p{90,160}.r+0.5)],%[fx:int(255*p{90,160}.g+0.5)],%[fx:int(255*p{90,160}.b+0.5)]", "info:"])
        let rgb = read.stdout.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        try #require(rgb.count == 3, "\(read.stdout) \(read.stderr)")
        for (got, want) in zip(rgb, [0x33, 0x66, 0xCC]) { #expect(abs(got - want) <= 2, "\(matrix) \(range): \(rgb)") }
    }
}

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
