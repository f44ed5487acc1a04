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
            // At 320 wide: a cascade's cost goes with the pixels it scans, and bodies and cats'
            // heads near enough to focus on are large (at 640 the two took a fifth of the CPU).
            bodies = try UpperBodyDetector(cascadePath: models.upperBodyCascade, inputWidth: 320, methods: .cascade)
            cats = try HaarFaceDetector(cascadePath: models.catFaceCascade,
                                        settings: .init(inputWidth: 320, minNeighbors: 4, minSizeFraction: 0.1))
        } catch {
            throw .setup("\(error)")
        }
    }

    /// The subjects in `picture`, each with its kind, box and score; with `cascades` false, the
    /// faces only (each cascade costs about as much as the face detector).
    public func observe(_ picture: DetectorPicture, cascades: Bool = true) throws -> [SubjectObservation] {
        let faceBoxes = try faces.detect(picture)
        var found = faceBoxes.map { SubjectObservation(kind: .face, bounds: $0.box, score: $0.score) }
        guard cascades else { return found }
        // A body that reaches into a face's zone (where that face's body hangs) is that person.
        let faceZones = found.map { LayerZones.zone(of: CinematicSubject(id: 0, kind: .face, bounds: $0.bounds, prominence: 0)) }
        for body in try bodies.detect(picture) where !faceZones.contains(where: { $0.intersects(body.box) }) {
            found.append(SubjectObservation(kind: .upperBody, bounds: body.box, score: body.score))
        }
        for cat in try cats.detect(picture) where !faceBoxes.contains(where: { cat.box.contains(x: $0.box.midX, y: $0.box.midY) }) {
            found.append(SubjectObservation(kind: .catFace, bounds: cat.box, score: cat.score))
        }
        return found
    }

    /// The people's matte of `picture` at `width` × `height` (a ``LayerMap``'s size).
    public func matte(_ picture: DetectorPicture, width: Int, height: Int) throws -> [UInt8] {
        try segmenter.matte(picture, width: width, height: height)
    }
}
