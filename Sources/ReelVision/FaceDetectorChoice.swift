import ReelCore

/// The face detector Reel uses, chosen from what is installed: CenterFace when its model is
/// there, otherwise OpenCV's Haar cascade with a ``warning`` to show the user.
public struct FaceDetectorChoice: Sendable {
    /// The detector.
    public let detector: any FaceDetector
    /// Set when the fallback was taken: what is missing, what it costs and how to fix it.
    public let warning: String?

    /// A chosen detector (tests and callers that pick their own).
    public init(detector: any FaceDetector, warning: String?) {
        self.detector = detector
        self.warning = warning
    }

    /// CenterFace from `models.centerFaceModel`; when that file does not exist, the Haar
    /// cascade and a warning. A model file that exists but cannot be loaded is an error (a
    /// damaged download should be fixed, not silently replaced by a weaker detector), as is a
    /// missing cascade when the fallback is needed.
    public static func make(models: VisionModels,
                            centerFace: CenterFaceDetector.Settings = .default,
                            haar: HaarFaceDetector.Settings = .default) throws -> FaceDetectorChoice {
        do {
            return FaceDetectorChoice(detector: try CenterFaceDetector(modelPath: models.centerFaceModel, settings: centerFace), warning: nil)
        } catch let error {
            guard case .modelMissing = error else { throw error }
            let fallback = try HaarFaceDetector(cascadePath: models.frontalFaceCascade, settings: haar)
            let warning = "warning: CenterFace model not found at \(models.centerFaceModel); using OpenCV's Haar cascade, "
                + "which misses turned, tilted and dim faces. Run `make setup` (scripts/fetch-model.sh) to fetch the model."
            return FaceDetectorChoice(detector: fallback, warning: warning)
        }
    }
}
