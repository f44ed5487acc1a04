import Foundation
import ReelCore
import ReelMedia

/// Everything `reel export` needs, decided before anything is read.
public struct ExportSettings: Sendable {
    /// What is exported.
    public enum Input: Sendable {
        /// A study session: its video, with its stored face track (single subject) and edits.
        case session(StudySession)
        /// Any video file: faces are found while exporting (every face, every 0.2 s).
        case file(String)
    }

    /// How faces are hidden.
    public enum Privacy: Sendable, Equatable {
        /// The mosaic of docs/behaviour.md §1, Export compositor (default).
        case mosaic
        /// A solid neutral fill in the mosaic's ellipse over every face.
        case mask
        /// A stamp image over every face (review edits may still choose per segment).
        case stamp(path: String)
        /// Nothing is hidden (caption and watermark only).
        case none
    }

    /// The exported picture's size.
    public enum Size: String, Sendable, CaseIterable {
        /// Short side 1080 (never enlarged).
        case p1080 = "1080p"
        /// Short side 720.
        case p720 = "720p"
        /// The source's size.
        case source

        /// The short side, nil for the source's.
        public var shortSide: Int? {
            switch self {
            case .p1080: 1080
            case .p720: 720
            case .source: nil
            }
        }
    }

    /// The input and where the MP4 goes.
    public var input: Input
    public var outputPath: String
    /// Mosaic, stamp or nothing.
    public var privacy: Privacy = .mosaic
    /// Find and hide every face in the video now, instead of a session's stored track.
    public var allFaces = false
    /// The caption, or nil.
    public var caption: ExportCaption?
    /// A PNG drawn in a corner.
    public var watermarkPath: String?
    /// The picture size.
    public var size: Size = .p1080
    /// Replace an existing output.
    public var overwrite = false
    /// Copy the source's audio (as it is).
    public var copyAudio = true
    /// The face track of a session (nil: none stored) and its review edits.
    public var faceTrack: FaceTrack?
    public var edits = PrivacyEdits()
    /// Where to write the face positions found while exporting (the `NAME.faces.json`
    /// format; nil: not written).
    public var trackOutputPath: String?
    /// Which detector finds faces while exporting.
    public enum Detector: String, Sendable, CaseIterable {
        /// CenterFace (the model from `scripts/fetch-model.sh`); without it the export stops.
        case centerface
        /// OpenCV's Haar cascade, only when asked for: it misses turned, tilted and dim faces,
        /// and a face it misses is a face shown.
        case haar
    }
    /// The detector (CenterFace unless the user chose Haar).
    public var detector = Detector.centerface
    /// CenterFace's input width when faces are found while exporting (a multiple of 32).
    public var detectorWidth = 320
    /// x264: speed preset and constant quality.
    public var preset = EncoderPreset.veryfast
    public var quality = 20

    /// Settings for `input` → `outputPath` with the defaults.
    public init(input: Input, outputPath: String) {
        self.input = input
        self.outputPath = outputPath
    }

    /// The video file read.
    public var videoPath: String {
        switch input {
        case .session(let session): session.filePath
        case .file(let path): path
        }
    }

    /// Whether faces are found while exporting (a file, or a session with `--all-faces`).
    public var detectsFaces: Bool {
        guard privacy != .none else { return false }
        if case .file = input { return true }
        return allFaces
    }
}
