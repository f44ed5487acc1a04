import CVision
import Foundation
import ReelCore

/// Heads and shoulders, looked for when the face has been lost (docs/behaviour.md §1, Face
/// tracker: "looks for an upper body and takes its top 50 % and middle 75 % of the width as the
/// head" — that rule is the tracker's, in ReelCore; this type only finds the bodies).
///
/// Two methods run on the picture's grey levels: OpenCV's `haarcascade_upperbody.xml`
/// (opencv-data) and OpenCV's HOG people detector; the one that finds more wins (the cascade
/// on a tie). HOG finds whole standing people, so its box is reported as the top half of the
/// person, the part with head and shoulders. Detections have kind `.upperBody`, largest
/// first, normalized to the picture.
/// `@unchecked Sendable`: the cascade and the HOG detector are used by one thread at a time (the tracker's).
public final class UpperBodyDetector: FaceDetector, CascadeDetector, @unchecked Sendable {
    /// Which method produced a result.
    public enum Method: Sendable, Hashable {
        /// Neither found anything.
        case none
        /// `haarcascade_upperbody.xml`.
        case cascade
        /// OpenCV's HOG people detector (top half of each person).
        case hog
    }

    /// What went wrong, with what to do about it.
    public typealias Error = CascadeError<UpperBodyDetector>

    /// How its errors name the cascade file and the detector.
    public static let cascadeLabel = "upper-body cascade", detectorLabel = "upper-body detector"

    /// Which methods run: both by default (the one that finds more wins).
    public struct Methods: OptionSet, Sendable, Hashable {
        public let rawValue: Int32
        /// A set of methods.
        public init(rawValue: Int32) { self.rawValue = rawValue }
        /// `haarcascade_upperbody.xml`.
        public static let cascade = Methods(rawValue: Int32(CVISION_UPPERBODY_CASCADE.rawValue))
        /// OpenCV's HOG people detector.
        public static let hog = Methods(rawValue: Int32(CVISION_UPPERBODY_HOG.rawValue))
        /// Both, the one that finds more wins.
        public static let both: Methods = [.cascade, .hog]
    }

    /// The cascade file in use.
    public let cascadePath: String
    /// Pictures wider than this are scaled down first.
    public let inputWidth: Int
    /// Which methods run.
    public let methods: Methods
    /// "upper body (cascade + HOG)".
    public var name: String { "upper body (cascade + HOG)" }

    private let handle: OpaquePointer
    private let lock = NSLock()

    /// Loads the upper-body cascade (default: opencv-data's) and prepares the HOG detector.
    public init(cascadePath: String = VisionModels.defaultCascadeFolder + "/" + VisionModels.upperBodyCascadeName,
                inputWidth: Int = 640, methods: Methods = .both) throws(Error) {
        self.cascadePath = cascadePath
        self.inputWidth = inputWidth
        self.methods = methods
        guard inputWidth >= 0 else { throw .invalidInput("input width \(inputWidth) is negative") }
        guard !methods.intersection(.both).isEmpty else { throw .invalidInput("no upper-body method chosen") }
        handle = try Error.opening(cascadePath) { cvision_upperbody_open(cascadePath, Int32(clamping: inputWidth), &$0, $1, $2) }
    }

    deinit { cvision_upperbody_free(handle) }

    /// Upper bodies in `picture`, largest first.
    public func detect(_ picture: DetectorPicture) throws -> [Detection] {
        try detectReportingMethod(picture).detections
    }

    /// Upper bodies in `picture` and the method that found them.
    public func detectReportingMethod(_ picture: DetectorPicture) throws -> (detections: [Detection], method: Method) {
        var source: Int32 = 0
        let detections = try runDetection(picture, kind: .upperBody, lock: lock, invalid: { Error.invalidInput($0) },
                                          failed: { Error.detectionFailed($0) }) {
            cvision_upperbody_detect(handle, $0, methods.rawValue, $1, $2, $3, &source, $4, $5)
        }
        let method: Method = switch UInt32(source) {
        case CVISION_UPPERBODY_CASCADE.rawValue: .cascade
        case CVISION_UPPERBODY_HOG.rawValue: .hog
        default: .none
        }
        return (detections, method)
    }
}
