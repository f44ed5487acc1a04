import CVision

/// A detector built on an OpenCV cascade file from opencv-data (``HaarFaceDetector``,
/// ``UpperBodyDetector``): the words its errors start with.
public protocol CascadeDetector {
    /// The file, in errors about it: "Haar cascade", "upper-body cascade".
    static var cascadeLabel: String { get }
    /// The detector, in errors about its input or a run: "Haar cascade", "upper-body detector".
    static var detectorLabel: String { get }
}

/// What went wrong in a cascade detector, with what to do about it. One type for both cascade
/// detectors (each names it `Error`); `Detector` only picks the words.
public enum CascadeError<Detector: CascadeDetector>: Swift.Error, CustomStringConvertible, Equatable, Sendable {
    /// The cascade file does not exist or cannot be read.
    case cascadeMissing(path: String, reason: String)
    /// The file exists but is not an OpenCV cascade.
    case cascadeUnusable(path: String, reason: String)
    /// A setting or the picture is out of range.
    case invalidInput(String)
    /// OpenCV failed while detecting.
    case detectionFailed(String)

    public var description: String {
        switch self {
        case let .cascadeMissing(_, reason):
            return "\(Detector.cascadeLabel) missing: \(reason). Install the Debian package opencv-data (apt-get install opencv-data, or make setup)."
        case let .cascadeUnusable(path, reason):
            return "\(Detector.cascadeLabel) \(path) cannot be used: \(reason). Reinstall opencv-data (apt-get install --reinstall opencv-data)."
        case let .invalidInput(reason): return "\(Detector.detectorLabel): \(reason)"
        case let .detectionFailed(reason): return "\(Detector.detectorLabel): detection failed: \(reason)"
        }
    }

    /// Opens a cascade through the shim's `open` call, mapping its failure; the handle, or
    /// ``cascadeUnusable(path:reason:)`` when the loader returned none.
    static func opening(_ path: String, _ open: (inout OpaquePointer?, UnsafeMutablePointer<CChar>, Int) -> cvision_status) throws(CascadeError) -> OpaquePointer {
        var opened: OpaquePointer?
        do {
            try cvisionCall { open(&opened, $0, $1) }
        } catch {
            switch error {
            case let .notFound(message): throw .cascadeMissing(path: path, reason: message)
            case let .invalidModel(message), let .internalFailure(message): throw .cascadeUnusable(path: path, reason: message)
            case let .argument(message): throw .invalidInput(message)
            }
        }
        guard let opened else { throw .cascadeUnusable(path: path, reason: "the loader returned no cascade") }
        return opened
    }
}
