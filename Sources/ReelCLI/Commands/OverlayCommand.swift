import Foundation
import ReelCore
import ReelImage
import ReelMedia
import ReelOverlay
import ReelStore

/// `reel overlay snap`: a photo with artwork burned in, colour-managed (docs/behaviour.md §4).
enum OverlayCommand {
    static let source = Option.value("source", short: "s", placeholder: "SRC", default: "test",
                                     help: "test[:WxH[@FPS]], file:PATH or v4l2:/dev/videoN; its next picture is the photo.")
    static let frame = Option.value("frame", default: "auto", choices: OverlayFrameShape.allCases.map(\.rawValue),
                                    help: "The photo's shape: auto keeps the source's own (a landscape webcam gives a landscape photo); portrait turns a landscape picture a quarter clockwise; landscape turns a portrait one a quarter anticlockwise.")
    static let art = Option.value("art", placeholder: "FILE",
                                  help: "Artwork to lay over the picture: a PNG with alpha (or a JPEG, HEIC or TIFF), with its own ICC profile (sRGB when it has none).")
    static let asset = Option.value("asset", placeholder: "ASSET",
                                    help: "Artwork from the library instead of --art: its name or at least 4 characters of its id (reel overlay assets).")
    static let image = Positional("IMAGE", help: "A PNG (with alpha), JPEG, HEIC or TIFF file.")
    static let assetReference = Positional("ASSET", help: "The asset's name or at least 4 characters of its id.")
    static let name = Option.value("name", placeholder: "TEXT", help: "The asset's name (default: the file's name without its extension).")
    static let json = Option.flag("json", help: "A JSON array with every field.")
    static let photo = Positional("PHOTO", help: "The photo to cut the subject out of (PNG, JPEG, HEIC or TIFF).")
    static let at = Option.value("at", placeholder: "X,Y", required: true,
                                 help: "The subject's point, as fractions of the photo's width and height (0.5,0.4 = middle, a little high).")
    static let method = Option.value("method", default: "auto", choices: OverlayCutoutSettings.Method.allCases.map(\.rawValue),
                                     help: "auto: a person when the point is on one (segmentation model), any object otherwise (GrabCut); person; object.")
    static let cutoutOutput = Option.value("output", short: "o", placeholder: "FILE.png", help: "Write the transparent PNG here.")
    static let add = Option.flag("add", help: "Add the cut-out to the artwork library (with --name, or named after the photo).")
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
    static let filter = Option.value("filter", choices: OverlayFilter.allCases.map(\.rawValue),
                                     help: "A filter preset of the studio's filtered preview: square, circle (a square seen through a round window, black outside) or tall (9:16). Instead of --aspect.")
    static let zoom = Option.value("zoom", as: Double.self, default: "1", help: "Magnify about the centre (1…8); the photo keeps what is shown.")
    static let orientation = Option.value("orientation", placeholder: "DEGREES", default: "0", choices: ["0", "90", "-90", "180"],
                                          help: "How the device is held: sets the EXIF orientation (0 → 1, 90 → 8, -90 → 6, 180 → 3); the pixels keep the --frame shape.")
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
            `snap` takes the source's next picture (one frame, no multi-frame fusion), in the \
            source's own shape or turned to --frame portrait or landscape, keeps the region the preview shows (--aspect, --zoom), lays \
            the artwork over it by one affine transform (aspect-fit, --anchor, --offset, --scale, \
            --rotate) in linear Display P3, and saves it as HEIC (8-bit Display P3), JPEG (8-bit \
            sRGB) or TIFF (16-bit Display P3), each with its ICC profile and EXIF: orientation, \
            time, camera and software. An existing file is never replaced without --force. \
            `import` copies an image into the artwork library (beside the study library, in \
            overlay-assets/), checked as artwork; `assets` lists it; `rm` removes one; `snap --asset` \
            uses one. A file manager's "Open with Reel overlay" runs `reel overlay import`. \
            `cutout` makes artwork from a photo: the subject at --at (a person by the segmentation \
            model that `make setup` fetches, anything else by GrabCut), with a soft edge, the \
            photo's colours and profile kept, cropped to the subject.
            """,
        subcommands: [
            CommandSpec(name: "snap", summary: "Take one photo with the artwork burned in.",
                        options: [source, frame, art, asset, anchor, offset, scale, rotate, aspect, filter, zoom, orientation, format, quality, output, force,
                                  LibraryOption.option],
                        examples: ["reel overlay snap --source v4l2:/dev/video0 --art frame.png -o photo.heic",
                                   "reel overlay snap --source v4l2:/dev/video0 --frame portrait --art frame.png -o phone.heic",
                                   "reel overlay snap --art sticker.png --anchor bottom-right --scale 0.4 --rotate -12 --orientation 90 -o photo.jpg",
                                   "reel overlay snap --source file:clip.mp4 --aspect 3:4 --format tiff -o photo.tiff",
                                   "reel overlay snap --art frame.png --filter circle -o round.jpg"]),
            CommandSpec(name: "cutout", summary: "Cut the subject at a point out of a photo, as a transparent PNG.",
                        options: [at, method, cutoutOutput, add, name, force, LibraryOption.option], positionals: [photo],
                        examples: ["reel overlay cutout photo.heic --at 0.5,0.45 -o me.png",
                                   "reel overlay cutout desk.jpg --at 0.3,0.6 --method object --add --name mug"]),
            CommandSpec(name: "import", summary: "Add an image to the artwork library (one at a time).",
                        options: [name, LibraryOption.option], positionals: [image],
                        examples: ["reel overlay import ~/Pictures/frame.png", "reel overlay import sticker.heic --name 'cat sticker'"]),
            CommandSpec(name: "assets", summary: "List the artwork library.", options: [json, LibraryOption.option],
                        examples: ["reel overlay assets", "reel overlay assets --json"]),
            CommandSpec(name: "rm", summary: "Remove an asset and its file.", options: [LibraryOption.option], positionals: [assetReference],
                        examples: ["reel overlay rm 'cat sticker'", "reel overlay rm 3f2c"]),
        ],
        examples: ["reel overlay snap --source v4l2:/dev/video0 --art frame.png -o photo.heic"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        switch arguments.command.name {
        case "import":
            let path = LibraryCommandText.absolute(try LibraryCommandText.required(arguments, image))
            let given = arguments.string(name)
            if let given, OverlayAsset.cleanName(given) == nil { throw arguments.invalid(name, expected: "a name with a visible character") }
            // The file first: one that cannot be read creates no library.
            let data = try OverlayAssetShelf.readImage(at: path)
            let added = try OverlayAssetShelf(library: LibraryOption.openOrCreate(arguments)).importImage(data, from: path, name: given)
            print("imported '\(TerminalText.safe(added.name))' (\(String(added.id.uuidString.lowercased().prefix(8)))): "
                  + "\(added.format) \(added.width)x\(added.height)\(added.hasAlpha ? " with alpha" : ""), \(added.profile)")
            return 0
        case "assets":
            let assets = try OverlayAssetShelf(library: LibraryOption.openExisting(arguments)).assets()
            if arguments.flag(json) && assets.isEmpty {
                print("[]")
            } else if arguments.flag(json) {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                encoder.dateEncodingStrategy = .iso8601
                print(String(decoding: try encoder.encode(assets), as: UTF8.self))
            } else if assets.isEmpty {
                print("no artwork yet (reel overlay import IMAGE)")
            } else {
                print(LibraryCommandText.table([["ID", "NAME", "SIZE", "FORMAT", "PROFILE"]] + assets.map {
                    [String($0.id.uuidString.lowercased().prefix(8)), $0.name, "\($0.width)x\($0.height)",
                     $0.format + ($0.hasAlpha ? "+alpha" : ""), $0.profile]
                }, maximumWidths: [nil, 40, nil, nil, 24]), terminator: "")
            }
            return 0
        case "cutout":
            return try cutout(arguments)
        case "rm":
            let reference = try LibraryCommandText.required(arguments, assetReference)
            let removed = try OverlayAssetShelf(library: LibraryOption.openExisting(arguments)).remove(reference)
            print("removed '\(TerminalText.safe(removed.name))'")
            return 0
        default:
            return try await snap(arguments)
        }
    }

    static func cutout(_ arguments: ParsedArguments) throws -> Int32 {
        let path = LibraryCommandText.absolute(try LibraryCommandText.required(arguments, photo))
        let point = try arguments.require(at).split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard point.count == 2, let x = point[0], let y = point[1], (0...1).contains(x), (0...1).contains(y) else {
            throw arguments.invalid(at, expected: "X,Y as fractions of the photo's width and height, each 0…1 (0.5,0.4)")
        }
        let output = arguments.string(cutoutOutput).map(LibraryCommandText.absolute)
        guard output != nil || arguments.flag(add) else { throw arguments.refused("give -o FILE.png, --add, or both") }
        let given = arguments.string(name)
        if let given, OverlayAsset.cleanName(given) == nil { throw arguments.invalid(name, expected: "a name with a visible character") }
        let settings = OverlayCutoutSettings(photoPath: path, x: x, y: y, method: OverlayCutoutSettings.Method(rawValue: try arguments.require(method))!,
                                             outputPath: output, replace: arguments.flag(force))
        let started = DispatchTime.now().uptimeNanoseconds
        let result = try OverlayCutout.run(settings)
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        if let note = result.note { ErrorPrinter.note("reel overlay cutout", note) }
        print(String(format: "cut out a%@ %@: %dx%d at %d,%d, %.0f %% of the photo, %.2f s", result.method == "object" ? "n" : "",
                     result.method, result.width, result.height, result.region.x, result.region.y, result.coverage * 100, seconds))
        if let output { print("saved \(TerminalText.safe(output))") }
        if arguments.flag(add) {
            let asset = try OverlayAssetShelf(library: LibraryOption.openOrCreate(arguments))
                .add(result.png, extension: "png", name: given ?? OverlayAsset.name(fromFile: path), source: path, origin: .cutout)
            print("added '\(TerminalText.safe(asset.name))' (\(String(asset.id.uuidString.lowercased().prefix(8)))) to the artwork library")
        }
        return 0
    }

    static func snap(_ arguments: ParsedArguments) async throws -> Int32 {
        let settings = try snapSettings(arguments)
        let report: OverlaySnap.Report
        do {
            report = try OverlaySnap.run(settings)
        } catch let error as OverlaySnap.Error {
            if case .settings(let reason) = error { throw arguments.refused(reason) }
            throw error
        }
        print("saved \(TerminalText.safe(report.path)): \(settings.recipe.format.rawValue.uppercased()) \(report.size), "
              + "\(report.bytes / 1024) KiB, \(settings.recipe.format.space) (EXIF orientation \(settings.recipe.orientation.exifOrientation))")
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
        let byExtension = StillFormat(fileExtension: (path as NSString).pathExtension)
        if let name = arguments.string(format) {
            chosen = StillFormat(rawValue: name)!
            if let byExtension, byExtension != chosen {
                throw arguments.refused("-o \(path) names a \(byExtension.rawValue.uppercased()) file but --format is \(chosen.rawValue); "
                                        + "end the name in .\(chosen.fileExtension), or leave out --format")
            }
        } else if let byExtension {
            chosen = byExtension
        } else {
            throw arguments.invalid(output, expected: "a name ending in .heic, .jpg or .tiff (or give --format)")
        }
        var artPath = arguments.string(art).map(LibraryCommandText.absolute)
        if let reference = arguments.string(asset) {
            guard artPath == nil else { throw arguments.refused("give --art or --asset, not both") }
            artPath = try OverlayAssetShelf(library: LibraryOption.openExisting(arguments)).find(reference).path
        }
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
        var mask = PhotoMask.none
        if let name = arguments.string(filter) {
            guard arguments.string(aspect) == nil else { throw arguments.refused("give --aspect or --filter, not both (a filter sets the shape)") }
            let preset = OverlayFilter(rawValue: name)!
            (crop.aspectWidth, crop.aspectHeight, mask) = (preset.crop.aspectWidth, preset.crop.aspectHeight, preset.mask)
        }
        let placement = OverlayPlacement(anchor: OverlayAnchor(rawValue: try arguments.require(anchor))!, offsetX: dx, offsetY: dy,
                                         scale: try arguments.double(scale) ?? 1, rotationDegrees: try arguments.double(rotate) ?? 0)
        return OverlaySnapSettings(source: sourceSpec, frame: OverlayFrameShape(rawValue: try arguments.require(frame))!, artPath: artPath, placement: placement, crop: crop, mask: mask,
                                   orientation: DeviceOrientation(degrees: Int(try arguments.require(orientation))!)!,
                                   format: chosen, quality: try arguments.int(quality) ?? StillEncoder.defaultQuality,
                                   outputPath: path, replace: arguments.flag(force), software: "reel \(ReelVersion.number)")
    }
}
