import CVision
import Foundation
import ReelCore

/// Faces found by one of OpenCV's Haar cascades (Debian package opencv-data): the fallback
/// when the CenterFace model is missing. Finds frontal, upright faces only; cheap.
///
/// The picture's grey levels (the luma plane alone for yuv420p) are scaled to at most
/// ``Settings/inputWidth`` wide before the cascade runs (no histogram equalization: it lost
/// faces in frames dominated by a flat wall). Boxes come
/// back normalized to the picture, largest first, each with score 1 (a cascade gives none).
/// `@unchecked Sendable`: the OpenCV cascade is used by one thread at a time (each owner — a tracker, an exporter — calls it from its own thread).
public final class HaarFaceDetector: FaceDetector, CascadeDetector, @unchecked Sendable {
    /// How the cascade is run.
    public struct Settings: Sendable, Equatable {
        /// Pictures wider than this are scaled down first.
        public var inputWidth: Int
        /// The step between searched sizes (above 1; smaller finds more and costs more).
        public var scaleFactor: Double
        /// How many overlapping hits a face needs (more: fewer false faces).
        public var minNeighbors: Int
        /// The smallest face looked for, as a fraction of the picture's shorter side.
        public var minSizeFraction: Double

        /// A setting.
        public init(inputWidth: Int = 640, scaleFactor: Double = 1.1, minNeighbors: Int = 5, minSizeFraction: Double = 0.06) {
            self.inputWidth = inputWidth
            self.scaleFactor = scaleFactor
            self.minNeighbors = minNeighbors
            self.minSizeFraction = minSizeFraction
        }

        /// 640 wide, scale step 1.1, 5 neighbours, faces from 6 % of the shorter side.
        public static let `default` = Settings()
    }

    /// What went wrong, with what to do about it.
    public typealias Error = CascadeError<HaarFaceDetector>

    /// "Haar cascade", in its errors.
    public static let cascadeLabel = "Haar cascade", detectorLabel = "Haar cascade"

    /// The cascade file in use.
    public let cascadePath: String
    /// How the cascade is run.
    public let settings: Settings
    /// "Haar cascade".
    public var name: String { "Haar cascade" }

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the cascade at `cascadePath` (default: OpenCV's frontal-face cascade).
    public init(cascadePath: String = VisionModels.defaultCascadeFolder + "/" + VisionModels.frontalFaceCascadeName,
                settings: Settings = .default) throws(Error) {
        self.cascadePath = cascadePath
        self.settings = settings
        guard settings.scaleFactor > 1, settings.minNeighbors >= 0, settings.inputWidth >= 0 else {
            throw .invalidInput("scale factor must be above 1, neighbours and input width not negative")
        }
        handle = try Error.opening(cascadePath) { cvision_cascade_open(cascadePath, Int32(clamping: settings.inputWidth), &$0, $1, $2) }
    }

    deinit { cvision_cascade_free(handle) }

    /// Faces in `picture`, largest first, boxes normalized to the picture.
    public func detect(_ picture: DetectorPicture) throws -> [Detection] {
        try runDetection(picture, kind: .face, lock: lock, invalid: { Error.invalidInput($0) }, failed: { Error.detectionFailed($0) }) {
            cvision_cascade_detect(handle, $0, settings.scaleFactor, Int32(clamping: settings.minNeighbors), settings.minSizeFraction,
                                   $1, $2, $3, $4, $5)
        }
    }
}
