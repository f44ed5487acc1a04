import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay

/// `reel overlay snap`: a photo with artwork burned in, colour-managed (spec §4).
enum OverlayCommand {
    static let source = Option.value("source", short: "s", placeholder: "SRC", default: "test",
                                     help: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN; its next picture is the photo.")
    static let art = Option.value("art", placeholder: "FILE.png",
                                  help: "Artwork to lay over the picture: a PNG, with alpha and its own ICC profile (sRGB when it has none).")
    static let anchor = Option.value("anchor", default: "center", choices: OverlayAnchor.allCases.map(\.rawValue),
                                     help: "Where the fitted artwork is aligned in the picture.")
    static let offset = Option.value("offset", placeholder: "X,Y", default: "0,0",
                                     help: "Move the artwork by fractions of the picture's width and height (0.1,-0.05).")
    static let scale = Option.value("scale", as: Double.self, default: "1",
                                    help: "Artwork size: 1 fits it whole inside the picture (0.05…20).")
    static let rotate = Option.value("rotate", as: Double.self, placeholder: "DEGREES", default: "0",
                                     help: "Turn the artwork clockwise about its centre.")
    static let aspect = Option.value("aspect", placeholder: "W:H",
                                     help: "The preview's shape (3:4, 9:16, 1:1): the photo keeps what such a preview shows, centred. Default: the whole picture.")
    static let zoom = Option.value("zoom", as: Double.self, default: "1", help: "Magnify about the centre (1…8); the photo keeps what is shown.")
    static let orientation = Option.value("orientation", placeholder: "DEGREES", default: "0", choices: ["0", "90", "-90", "180"],
                                          help: "How the device is held: sets the EXIF orientation (0 → 1, 90 → 8, -90 → 6, 180 → 3); pixels stay portrait.")
    static let format = Option.value("format", short: "f", choices: StillFormat.allCases.map(\.rawValue),
                                     help: "heic (8-bit Display P3), jpeg (8-bit sRGB) or tiff (16-bit Display P3). Default: from the output's extension.")
    static let quality = Option.value("quality", short: "q", as: Int.self, default: "\(StillEncoder.defaultQuality)",
                                      help: "HEIC and JPEG quality, 1…100.")
    static let output = Option.value("output", short: "o", placeholder: "FILE", required: true, help: "The photo's path.")
    static let force = Option.flag("force", help: "Replace a file already at the output path.")

    static let spec = CommandSpec(
        name: "overlay",
        summary: "Take photos with artwork laid over the camera picture, colour-managed.",
        discussion: """
            `snap` takes the source's next picture (one frame, no multi-frame fusion), turns a \
            landscape picture portrait, keeps the region the preview shows (--aspect, --zoom), lays \
            the artwork over it by one affine transform (aspect-fit, --anchor, --offset, --scale, \
            --rotate) in linear Display P3, and saves it as HEIC (8-bit Display P3), JPEG (8-bit \
            sRGB) or TIFF (16-bit Display P3), each with its ICC profile and EXIF: orientation, \
            time, camera and software. An existing file is never replaced without --force.
            """,
        subcommands: [
            CommandSpec(name: "snap", summary: "Take one photo with the artwork burned in.",
                        options: [source, art, anchor, offset, scale, rotate, aspect, zoom, orientation, format, quality, output, force],
                        examples: ["reel overlay snap --source v4l2:/dev/video0 --art frame.png -o photo.heic",
                                   "reel overlay snap --art sticker.png --anchor bottom-right --scale 0.4 --rotate -12 --orientation 90 -o photo.jpg",
                                   "reel overlay snap --source file:clip.mp4 --aspect 3:4 --format tiff -o photo.tiff"]),
        ],
        examples: ["reel overlay snap --source v4l2:/dev/video0 --art frame.png -o photo.heic"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let settings = try snapSettings(arguments)
        let report: OverlaySnap.Report
        do {
            report = try OverlaySnap.run(settings)
        } catch let error as OverlaySnap.Error {
            if case .settings(let reason) = error { throw arguments.refused(reason) }
            throw error
        }
        print("saved \(TerminalText.safe(report.path)): \(settings.format.rawValue.uppercased()) \(report.size), "
              + "\(report.bytes / 1024) KiB, \(settings.format.space) (EXIF orientation \(settings.orientation.exifOrientation))")
        print(String(format: "  capture %.0f ms, composite %.0f ms, encode %.0f ms, write %.0f ms",
                     report.captureSeconds * 1000, report.compositeSeconds * 1000, report.encodeSeconds * 1000, report.writeSeconds * 1000))
        return 0
    }

    static func snapSettings(_ arguments: ParsedArguments) throws -> OverlaySnapSettings {
        let sourceSpec: SourceSpec
        do { sourceSpec = try SourceSpec(parsing: try arguments.require(source)) } catch let error as SourceSpec.Error {
            throw arguments.invalid(source, expected: error.expected)
        }
        let path = LibraryCommandText.absolute(try arguments.require(output))
        let chosen: StillFormat
        if let name = arguments.string(format) {
            chosen = StillFormat(rawValue: name)!
        } else if let byExtension = StillFormat(fileExtension: (path as NSString).pathExtension) {
            chosen = byExtension
        } else {
            throw arguments.invalid(output, expected: "a name ending in .heic, .jpg or .tiff (or give --format)")
        }
        let artPath = arguments.string(art).map(LibraryCommandText.absolute)
        let offsets = try arguments.require(offset).split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard offsets.count == 2, let dx = offsets[0], let dy = offsets[1] else {
            throw arguments.invalid(offset, expected: "two numbers X,Y (fractions of the picture, e.g. 0.1,-0.05)")
        }
        var crop = PhotoCropSpec(zoom: try arguments.double(zoom) ?? 1)
        if let text = arguments.string(aspect) {
            let parts = text.split(separator: ":").map { Int($0) }
            guard parts.count == 2, let w = parts[0], let h = parts[1], w > 0, h > 0 else {
                throw arguments.invalid(aspect, expected: "W:H with two positive whole numbers, like 3:4")
            }
            crop.aspectWidth = w
            crop.aspectHeight = h
        }
        let placement = OverlayPlacement(anchor: OverlayAnchor(rawValue: try arguments.require(anchor))!, offsetX: dx, offsetY: dy,
                                         scale: try arguments.double(scale) ?? 1, rotationDegrees: try arguments.double(rotate) ?? 0)
        return OverlaySnapSettings(source: sourceSpec, artPath: artPath, placement: placement, crop: crop,
                                   orientation: DeviceOrientation(degrees: Int(try arguments.require(orientation))!)!,
                                   format: chosen, quality: try arguments.int(quality) ?? StillEncoder.defaultQuality,
                                   outputPath: path, replace: arguments.flag(force), software: "reel \(ReelVersion.number)")
    }
}
