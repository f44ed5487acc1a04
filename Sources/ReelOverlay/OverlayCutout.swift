import Foundation
import ReelCore
import ReelImage
import ReelRuntime
import ReelStore
import ReelVision

/// What `reel overlay cutout` is asked to do.
public struct OverlayCutoutSettings: Sendable {
    /// How the subject is found.
    public enum Method: String, Sendable, CaseIterable {
        /// A person when the point is on one (the segmentation model), any object otherwise (GrabCut).
        case auto
        /// Only a person.
        case person
        /// GrabCut, whatever is there.
        case object
    }

    /// The photo (PNG, JPEG, HEIC or TIFF).
    public var photoPath: String
    /// The tapped point, as fractions of the upright photo's width and height (0…1).
    public var x: Double
    /// See ``x``.
    public var y: Double
    /// How the subject is found.
    public var method: Method
    /// Where to write the transparent PNG (nil: only into the library).
    public var outputPath: String?
    /// Replace a file at `outputPath`.
    public var replace: Bool
    /// The model files.
    public var models: VisionModels
    /// The long side of the picture the masks are made at (the cut-out keeps the photo's size).
    public var workSide: Int

    /// Settings for a cut-out of the subject at (`x`, `y`) of `photoPath`.
    public init(photoPath: String, x: Double, y: Double, method: Method = .auto, outputPath: String? = nil, replace: Bool = false,
                models: VisionModels = .current(), workSide: Int = 1024) {
        self.photoPath = photoPath
        self.x = x
        self.y = y
        self.method = method
        self.outputPath = outputPath
        self.replace = replace
        self.models = models
        self.workSide = workSide
    }
}

/// A cut-out (docs/behaviour.md §4: "take a photo, tap the subject, cut it out to a transparent
/// PNG"): the subject's mask made on a reduced copy — a person by the segmentation model,
/// anything else by GrabCut seeded at the point — enlarged to the photo, its edge soft (guided
/// filter), and the photo's own code values and profile kept, cropped to the subject.
public enum OverlayCutout {
    /// Why there is no cut-out.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The point is outside the photo.
        case point(x: Double, y: Double)
        /// Nothing was found at the point.
        case nothingThere(String)
        /// The file could not be written.
        case write(String)
        /// The output path cannot be used (it is the photo, or names another format).
        case output(String)
        /// The photo cannot be read, or is too large.
        case photo(String)

        public var description: String {
            switch self {
            case let .point(x, y): "the point \(x),\(y) is outside the photo: give fractions of its width and height, 0…1 (0.5,0.4)"
            case let .nothingThere(reason): reason
            case let .write(reason): "the cut-out was not saved: \(reason)"
            case let .output(reason), let .photo(reason): reason
            }
        }
    }

    /// The widest or tallest photo a cut-out is made from.
    public static let maxPhotoSide = 12_000
    /// The most pixels a photo may have (a 48 MP phone's 8000x6000 is 48 million).
    public static let maxPhotoPixels = 50_000_000

    /// The photo, upright, in its own code values; what cannot be read is said of the photo.
    static func readPhoto(_ path: String) throws(Error) -> DecodedImage {
        do {
            return try DecodedImage(path: path, maxSide: maxPhotoSide, maxPixels: maxPhotoPixels)
        } catch {
            switch error {
            case let .unreadable(path, reason): throw .photo("cannot open the photo \(path): \(reason)")
            case let .notAnImage(path, reason):
                throw .photo("\(path) is not a photo Reel can read (\(reason)); give a PNG, JPEG, HEIC or TIFF")
            case let .tooLarge(path, width, height):
                throw .photo("\(path) is \(width)x\(height) pixels; a photo to cut out of may be at most \(maxPhotoSide) pixels a side "
                             + "and \(maxPhotoPixels / 1_000_000) million pixels in all: scale it down")
            case let .profile(profileError, libpng): throw .photo(profileError.description + (libpng.map { " (libpng: \($0))" } ?? ""))
            }
        }
    }

    /// What was cut out.
    public struct Result: Sendable {
        /// The transparent PNG.
        public var png: Data
        /// Its size (the subject's bounding box in the photo).
        public var width: Int, height: Int
        /// Where in the photo it was.
        public var region: PixelRect
        /// "person" or "object".
        public var method: String
        /// Said to the user (a missing model, the fallback taken).
        public var note: String?
        /// The share of the photo the subject covers.
        public var coverage: Double
    }

    /// Cuts the subject out and writes it to the settings' output (if any); the caller may add
    /// ``Result/png`` to the artwork library.
    public static func run(_ settings: OverlayCutoutSettings) throws -> Result {
        guard (0...1).contains(settings.x), (0...1).contains(settings.y) else { throw Error.point(x: settings.x, y: settings.y) }
        if let output = settings.outputPath {
            guard ["", "png"].contains((output as NSString).pathExtension.lowercased()) else {
                throw Error.output("-o \(output): a cut-out is a PNG; give a name ending in .png")
            }
            if SameFile.refers(output, to: settings.photoPath) {
                throw Error.output("-o \(output) is the photo (\(settings.photoPath)): writing there would replace it; choose another -o")
            }
            if !settings.replace, FileManager.default.fileExists(atPath: output) {
                throw Error.write("\(output) already exists (choose another name, or replace it)")
            }
        }
        let photo = try readPhoto(settings.photoPath)
        let work = WorkPicture(photo, longSide: settings.workSide)
        let (mask, method, note) = try subjectMask(work, settings: settings)
        let result = try cutOut(photo, mask: mask, method: method, note: note)
        if let output = settings.outputPath {
            do {
                try DurableFile.write(result.png, to: output, ifExists: settings.replace ? .replace : .fail)
            } catch {
                throw Error.write(String(describing: error))
            }
        }
        return result
    }

    /// The subject's mask at the work picture's size, the method used and a note.
    static func subjectMask(_ work: WorkPicture, settings: OverlayCutoutSettings) throws -> (SoftMask, String, String?) {
        let px = min(work.width - 1, Int(settings.x * Double(work.width)))
        let py = min(work.height - 1, Int(settings.y * Double(work.height)))
        var note: String?
        if settings.method != .object {
            do {
                if let person = try personMask(work, at: px, py, settings: settings) { return person }
                if settings.method == .person {
                    throw Error.nothingThere("no person at that point (the segmentation finds none there); try --method object")
                }
            } catch let error as CutoutError {
                if settings.method == .person { throw error }
                guard case .modelMissing = error else { throw error }
                note = "the person model is missing (make setup fetches it), so GrabCut cut this out"
            }
        }
        let object = try work.withPicture { try ObjectCutout.mask($0, x: Double(px) + 0.5, y: Double(py) + 0.5) }
        guard let kept = object.keepingPart(at: px, py), ObjectCutout.foundMore(than: kept) else {
            throw Error.nothingThere("nothing stands out at that point; tap the middle of the subject")
        }
        return (kept, "object", note)
    }

    /// The person at the point, refined by ``PersonCutout``, or nil when there is none:
    /// - the network's person, when it holds the point — for auto only with a face inside it
    ///   (the network also claims balls, boxes and mugs at times);
    /// - otherwise, for the body under a face (``CutoutTap``), the network's faint part there
    ///   seeded from the face and a body's shape.
    static func personMask(_ work: WorkPicture, at px: Int, _ py: Int,
                           settings: OverlayCutoutSettings) throws -> (SoftMask, String, String?)? {
        let segmenter = try PersonSegmenter(modelPath: settings.models.segmentationModel)
        let (mask, probability) = try work.withPicture { try segmenter.maskAndProbability($0) }
        func refined(_ face: NormalizedRect?) throws -> SoftMask? {
            do {
                let made = try work.withPicture {
                    try PersonCutout.mask($0, probability: probability, x: Double(px) + 0.5, y: Double(py) + 0.5, face: face)
                }
                return made.keepingPart(at: px, py)
            } catch CutoutError.invalidInput(_) {
                return nil  // the point is not on the network's person (at the probability in force)
            }
        }
        if let person = mask.keepingPart(at: px, py) {
            guard settings.method == .person || hasFace(in: person, faces: faces(in: work, models: settings.models)) else { return nil }
            return (try refined(nil) ?? person, "person", nil)
        }
        let tap = (x: (Double(px) + 0.5) / Double(work.width), y: (Double(py) + 0.5) / Double(work.height))
        guard let found = faces(in: work, models: settings.models), let index = CutoutTap.face(at: tap.x, tap.y, among: found),
              let person = try refined(found[index]), ObjectCutout.foundMore(than: person) else { return nil }
        return (person, "person", "the person model was unsure here, so the face under the point seeded the cut-out")
    }

    /// The faces in the work picture (normalized boxes): CenterFace when its model is
    /// installed, OpenCV's frontal-face cascade otherwise; nil with neither.
    static func faces(in work: WorkPicture, models: VisionModels) -> [NormalizedRect]? {
        let detector: (any FaceDetector)?
        if models.hasCenterFaceModel {
            detector = try? CenterFaceDetector(modelPath: models.centerFaceModel)
        } else {
            detector = try? HaarFaceDetector(cascadePath: models.frontalFaceCascade)
        }
        guard let detector, let found = try? work.withPicture({ try detector.detect($0) }) else { return nil }
        return found.map(\.box)
    }

    /// Whether a face lies in `mask` (its centre on a pixel of at least half). With no face
    /// detector, the segmentation is trusted (true).
    static func hasFace(in mask: SoftMask, faces: [NormalizedRect]?) -> Bool {
        guard let faces else { return true }
        return faces.contains { box in
            let x = min(mask.width - 1, max(0, Int((box.x + box.width / 2) * Double(mask.width))))
            let y = min(mask.height - 1, max(0, Int((box.y + box.height / 2) * Double(mask.height))))
            return mask.values[y * mask.width + x] >= 128
        }
    }

    /// The photo's pixels under the mask (enlarged to the photo), cropped to the subject.
    static func cutOut(_ photo: DecodedImage, mask: SoftMask, method: String, note: String?) throws -> Result {
        // The guided filter leaves a faint tail (1–3 %) several pixels out: cleared, so the
        // background does not haze the edge and the crop hugs the subject.
        var clean = mask
        for i in clean.values.indices where clean.values[i] < faintest { clean.values[i] = 0 }
        let alpha = enlarge(clean, width: photo.width, height: photo.height)
        guard let region = bounds(alpha, width: photo.width, height: photo.height, margin: 2) else {
            throw Error.nothingThere("nothing stands out at that point; tap the middle of the subject")
        }
        // Where the cut-out is wholly transparent its colour is 0, not the photo's: nothing of the
        // background travels hidden in the artwork (a viewer that drops alpha would show it), and
        // runs of zeros cost the PNG encoder almost nothing.
        var covered = 0
        let samples = [UInt16](unsafeUninitializedCapacity: region.width * region.height * 4) { dst, count in
            photo.samples.withUnsafeBufferPointer { src in alpha.withUnsafeBufferPointer { alpha in
                for row in 0..<region.height {
                    let y = region.y + row
                    for column in 0..<region.width {
                        let x = region.x + column
                        let a = alpha[y * photo.width + x]
                        let s = (y * photo.width + x) * 4, d = (row * region.width + column) * 4
                        let opacity = UInt16((UInt32(src[s + 3]) * UInt32(a) * 257 + 32767) / 65535)
                        if opacity == 0 {
                            dst[d] = 0; dst[d + 1] = 0; dst[d + 2] = 0
                        } else {
                            dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                        }
                        dst[d + 3] = opacity
                        if a >= 128 { covered += 1 }
                    }
                }
            } }
            count = region.width * region.height * 4
        }
        let png: Data
        do {
            png = try PNGWriter.encode(width: region.width, height: region.height, samples: samples,
                                       bitDepth: photo.bitDepth > 8 ? 16 : 8, icc: photo.iccForWriting)
        } catch {
            throw Error.write(String(describing: error))
        }
        return Result(png: png, width: region.width, height: region.height, region: region, method: method, note: note,
                      coverage: Double(covered) / Double(photo.width * photo.height))
    }

    /// Mask values below this (of 255) are taken as outside.
    static let faintest: UInt8 = 8

    /// `mask` enlarged bilinearly to `width` × `height` (weights in 1/256ths: a 12 MP photo's
    /// mask in integer arithmetic, the horizontal weights worked out once per column).
    static func enlarge(_ mask: SoftMask, width: Int, height: Int) -> [UInt8] {
        if mask.width == width && mask.height == height { return mask.values }
        var out = [UInt8](repeating: 0, count: width * height)
        let sx = Double(mask.width) / Double(width), sy = Double(mask.height) / Double(height)
        // Per column: the two source columns and the right one's weight (0…256).
        let columns = (0..<width).map { x -> (Int, Int, Int) in
            let fx = max(0, (Double(x) + 0.5) * sx - 0.5)
            let x0 = min(mask.width - 1, Int(fx))
            return (x0, min(mask.width - 1, x0 + 1), Int(((fx - Double(x0)) * 256).rounded()))
        }
        mask.values.withUnsafeBufferPointer { src in
            columns.withUnsafeBufferPointer { cols in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        let fy = max(0, (Double(y) + 0.5) * sy - 0.5)
                        let y0 = min(mask.height - 1, Int(fy)), y1 = min(mask.height - 1, y0 + 1)
                        let wy = Int(((fy - Double(y0)) * 256).rounded())
                        let top = y0 * mask.width, bottom = y1 * mask.width, row = y * width
                        for x in 0..<width {
                            let (x0, x1, wx) = cols[x]
                            let upper = Int(src[top + x0]) * (256 - wx) + Int(src[top + x1]) * wx
                            let lower = Int(src[bottom + x0]) * (256 - wx) + Int(src[bottom + x1]) * wx
                            dst[row + x] = UInt8((upper * (256 - wy) + lower * wy + 32768) >> 16)
                        }
                    }
                }
            }
        }
        return out
    }

    /// The smallest rectangle holding every non-zero value, grown by `margin` inside the picture.
    static func bounds(_ alpha: [UInt8], width: Int, height: Int, margin: Int) -> PixelRect? {
        var left = width, right = -1, top = height, bottom = -1
        alpha.withUnsafeBufferPointer { a in
            for y in 0..<height {
                var rowLeft = -1, rowRight = -1
                for x in 0..<width where a[y * width + x] > 0 {
                    if rowLeft < 0 { rowLeft = x }
                    rowRight = x
                }
                guard rowLeft >= 0 else { continue }
                left = min(left, rowLeft); right = max(right, rowRight)
                top = min(top, y); bottom = y
            }
        }
        guard right >= 0 else { return nil }
        let x0 = max(0, left - margin), y0 = max(0, top - margin)
        let x1 = min(width - 1, right + margin), y1 = min(height - 1, bottom + margin)
        return PixelRect(x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1)
    }
}

/// A reduced 8-bit RGB copy of a photo for the masks (box-averaged code values,
/// ``ReelImage/DecodedImage/boxReduced(maxSide:)``).
struct WorkPicture {
    let width: Int, height: Int
    var rgb: [UInt8]

    init(_ photo: DecodedImage, longSide: Int) {
        let (w, h, rgba) = photo.boxReduced(maxSide: max(64, longSide))
        width = w
        height = h
        rgb = [UInt8](unsafeUninitializedCapacity: w * h * 3) { out, count in
            for i in 0..<(w * h) {
                for c in 0..<3 { out[i * 3 + c] = UInt8((Int(rgba[i * 4 + c]) + 128) / 257) }
            }
            count = w * h * 3
        }
    }

    func withPicture<T>(_ body: (DetectorPicture) throws -> T) rethrows -> T {
        try rgb.withUnsafeBytes { try body(DetectorPicture(format: .rgb24, base: $0.baseAddress!, width: width, height: height, stride: width * 3)) }
    }
}
