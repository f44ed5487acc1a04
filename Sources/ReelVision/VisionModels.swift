import Foundation
import ReelCore

/// Where the detectors' files are: the CenterFace model in Reel's data folder
/// (`$XDG_DATA_HOME/reel/models/centerface.onnx`, default `~/.local/share/reel/models/`,
/// put there by scripts/fetch-model.sh) and OpenCV's cascades (Debian package opencv-data).
///
/// `REEL_MODELS_DIR` overrides the model folder (as it does for scripts/fetch-model.sh), and
/// every path can be set directly.
public struct VisionModels: Sendable, Equatable {
    /// The CenterFace model's file name.
    public static let centerFaceFileName = "centerface.onnx"
    /// The person-segmentation model's file name (scripts/fetch-segmentation-model.sh).
    public static let segmentationFileName = "selfie_segmentation.onnx"
    /// Where Debian's opencv-data puts the Haar cascades.
    public static let defaultCascadeFolder = "/usr/share/opencv4/haarcascades"
    /// OpenCV's frontal-face cascade: "alt2", which on the test photo finds the face without
    /// the large false box the "default" cascade adds over the body.
    public static let frontalFaceCascadeName = "haarcascade_frontalface_alt2.xml"
    /// OpenCV's upper-body cascade.
    public static let upperBodyCascadeName = "haarcascade_upperbody.xml"
    /// OpenCV's cat-face cascade (the "extended" one, trained with more poses).
    public static let catFaceCascadeName = "haarcascade_frontalcatface_extended.xml"
    /// The environment variable that overrides the model folder.
    public static let folderVariable = "REEL_MODELS_DIR"

    /// The folder holding `centerface.onnx`.
    public var modelFolder: String
    /// The CenterFace model (default: `centerface.onnx` in ``modelFolder``).
    public var centerFaceModel: String
    /// The frontal-face Haar cascade.
    public var frontalFaceCascade: String
    /// The upper-body Haar cascade.
    public var upperBodyCascade: String
    /// The cat-face Haar cascade.
    public var catFaceCascade: String
    /// The person-segmentation model (default: `selfie_segmentation.onnx` in ``modelFolder``).
    public var segmentationModel: String

    /// Paths inside `modelFolder` and `cascadeFolder`.
    public init(modelFolder: String, cascadeFolder: String = VisionModels.defaultCascadeFolder) {
        self.modelFolder = modelFolder
        centerFaceModel = modelFolder + "/" + Self.centerFaceFileName
        segmentationModel = modelFolder + "/" + Self.segmentationFileName
        frontalFaceCascade = cascadeFolder + "/" + Self.frontalFaceCascadeName
        upperBodyCascade = cascadeFolder + "/" + Self.upperBodyCascadeName
        catFaceCascade = cascadeFolder + "/" + Self.catFaceCascadeName
    }

    /// The folders for `environment` and the account's home (used when `$HOME` is unset):
    /// `REEL_MODELS_DIR` when set to an absolute path, else `reel/models` in the XDG data folder.
    public init(environment: [String: String], home: String) {
        if let folder = environment[Self.folderVariable], folder.hasPrefix("/") {
            self.init(modelFolder: folder)
        } else {
            let data = XDGDirectories(environment: environment, accountHome: home).data
            self.init(modelFolder: data + "/reel/models")
        }
    }

    /// The folders for this process (its environment and home folder).
    public static func current() -> VisionModels {
        VisionModels(environment: ProcessInfo.processInfo.environment, home: NSHomeDirectory())
    }

    /// Whether the CenterFace model file exists.
    public var hasCenterFaceModel: Bool {
        FileManager.default.fileExists(atPath: centerFaceModel)
    }
}
