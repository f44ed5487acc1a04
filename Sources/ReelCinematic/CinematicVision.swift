import Foundation
import ReelCore
import ReelVision

/// What the cinematic camera sees in a picture: its subjects (faces, upper bodies, cats' faces)
/// and the people's matte. Wraps the detectors and the segmentation network of ReelVision.
///
/// - Faces: CenterFace, or OpenCV's frontal-face cascade when the model is missing (with a
///   warning, ``warning``).
/// - Upper bodies: OpenCV's upper-body cascade, kept only where the box stays out of every
///   face's zone (``LayerZones/zone(of:)``: under a face hangs that face's body).
/// - Cats: OpenCV's cat-face cascade.
/// The cascades look at the picture 320 wide (subjects from a tenth of its height up).
/// - Small, far faces: with CenterFace, a second CenterFace 960 wide looks at the picture at
///   full resolution as ``SmallFaceLook`` plans (``smallFaces(in:plan:)``).
/// - The matte: MediaPipe's selfie segmentation at 256 × 256, refined by the guided filter at
///   the layer map's size. Required: without it nothing separates a person from the background.
public final class CinematicVision: @unchecked Sendable {
    /// Why the vision cannot start.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// A model or cascade is missing or unusable; the text names the setup step.
        case setup(String)

        public var description: String {
            switch self {
            case let .setup(reason): reason
            }
        }
    }

    /// A warning for the user when a fallback is in use (no CenterFace model), else nil.
    public let warning: String?
    private let faces: any FaceDetector
    /// The finer face detectors for small faces, one for the whole picture and one for the crops
    /// (each keeps its network's input size: ``SmallFaceLook/cropSide``), made at the first
    /// search (the camera's peak memory at 1080p grew by about 160 MB with them; a camera whose
    /// search never runs does not pay it). Used by one thread at a time (``smallFaces(in:plan:)``).
    private var fineFaces: (whole: CenterFaceDetector, crops: CenterFaceDetector)?
    /// The CenterFace model, when the face detector is CenterFace (nil: no small-face look).
    private let fineModel: String?
    private let bodies: UpperBodyDetector
    private let cats: HaarFaceDetector
    private let segmenter: PersonSegmenter

    /// Loads every model from `models`.
    public init(models: VisionModels) throws(Error) {
        do {
            segmenter = try PersonSegmenter(modelPath: models.segmentationModel)
        } catch {
            throw .setup("\(error)")
        }
        do {
            let choice = try FaceDetectorChoice.make(models: models)
            faces = choice.detector
            warning = choice.warning
            fineModel = choice.detector is CenterFaceDetector ? models.centerFaceModel : nil
            // At 320 wide: a cascade's cost goes with the pixels it scans, and bodies and cats'
            // heads near enough to focus on are large (at 640 the two took a fifth of the CPU).
            bodies = try UpperBodyDetector(cascadePath: models.upperBodyCascade, inputWidth: 320, methods: .cascade)
            cats = try HaarFaceDetector(cascadePath: models.catFaceCascade,
                                        settings: .init(inputWidth: 320, minNeighbors: 4, minSizeFraction: 0.1))
        } catch {
            throw .setup("\(error)")
        }
    }

    /// The width the finer face detector looks at (the whole picture; a crop at its own size):
    /// 960 finds faces of about 30 px at 1080p (15 px there) and costs about 126 ms of CPU a whole
    /// search at 1080p (CenterFaceDetector's figures): once a second with `--fast`, at most every
    /// 2 s in real time.
    public static let fineWidth = 960

    /// Whether the finer look for small faces is there (CenterFace is).
    public var looksForSmallFaces: Bool { fineModel != nil }

    /// The subjects in `picture`, each with its kind, box and score; with `cascades` false, the
    /// faces only (each cascade costs about as much as the face detector). `smallFaces` (from
    /// ``smallFaces(in:plan:)``) are added to the faces found where they are not one of them.
    public func observe(_ picture: DetectorPicture, cascades: Bool = true, smallFaces: [SubjectObservation] = []) throws -> [SubjectObservation] {
        var found = SmallFaceLook.merge(try faces.detect(picture).map { SubjectObservation(kind: .face, bounds: $0.box, score: $0.score) },
                                        smallFaces)
        guard cascades else { return found }
        let faceBoxes = found.map(\.bounds)
        // A body that reaches into a face's zone (where that face's body hangs) is that person.
        let faceZones = found.map { LayerZones.zone(of: CinematicSubject(id: 0, kind: .face, bounds: $0.bounds, prominence: 0)) }
        for body in try bodies.detect(picture) where !faceZones.contains(where: { $0.intersects(body.box) }) {
            found.append(SubjectObservation(kind: .upperBody, bounds: body.box, score: body.score))
        }
        for cat in try cats.detect(picture) where !faceBoxes.contains(where: { cat.box.contains(x: $0.midX, y: $0.midY) }) {
            found.append(SubjectObservation(kind: .catFace, bounds: cat.box, score: cat.score))
        }
        return found
    }

    /// The finer detectors' faces in `picture` (at full resolution) as `plan` says (none without
    /// CenterFace). May run on another thread than ``observe(_:cascades:smallFaces:)``, one call
    /// at a time.
    public func smallFaces(in picture: DetectorPicture, plan: SmallFaceLook.Plan) throws -> [SubjectObservation] {
        guard let fineModel else { return [] }
        let fineFaces = try self.fineFaces ?? (whole: CenterFaceDetector(modelPath: fineModel, settings: .init(inputWidth: Self.fineWidth)),
                                                crops: CenterFaceDetector(modelPath: fineModel, settings: .init(inputWidth: SmallFaceLook.cropSide)))
        self.fineFaces = fineFaces
        let detections: [Detection]
        switch plan {
        case .none:
            return []
        case .whole:
            detections = try fineFaces.whole.detect(picture)
        case let .crops(crops):
            let w = Double(picture.width), h = Double(picture.height)
            detections = Detection.suppressingOverlaps(try crops.flatMap { crop in
                // Even corners: the yuv420p crop keeps its size (DetectorPicture.clipped).
                try fineFaces.crops.detect(picture, in: .init(x: Int((crop.x * w).rounded()) & ~1, y: Int((crop.y * h).rounded()) & ~1,
                                                              width: Int((crop.width * w).rounded()), height: Int((crop.height * h).rounded())))
            })
        }
        // Larger faces are the usual pass's (a search's box can be a second old).
        return detections.filter { $0.box.height < SmallFaceLook.largestSearched }.map { SubjectObservation(kind: .face, bounds: $0.box, score: $0.score) }
    }

    /// The people's matte of `picture` at `width` × `height` (a ``LayerMap``'s size).
    public func matte(_ picture: DetectorPicture, width: Int, height: Int) throws -> [UInt8] {
        try segmenter.matte(picture, width: width, height: height)
    }
}
