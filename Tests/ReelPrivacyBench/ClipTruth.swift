import Foundation

/// The known face positions of a clip made by `PrivacyClips`, one entry per frame (JSON).
public struct ClipTruth: Codable, Sendable, Equatable {
    /// One frame.
    public struct Frame: Codable, Sendable, Equatable {
        /// The frame's index (0-based, decode order of the clip).
        public var index: Int
        /// The scenario's phase (`moving`, `tilt`, `dimmed`, `partlyOut`, `absent`, `back`, `twoFaces`).
        public var phase: String
        /// Whether the whole picture is at half brightness in this frame.
        public var dimmed: Bool
        /// The faces visible in this frame (none when absent).
        public var faces: [TruthFace]

        /// A frame's truth.
        public init(index: Int, phase: String, dimmed: Bool, faces: [TruthFace]) {
            self.index = index; self.phase = phase; self.dimmed = dimmed; self.faces = faces
        }
    }

    /// The clip's name (`single-1280x720`, …).
    public var name: String
    /// Picture width.
    public var width: Int
    /// Picture height.
    public var height: Int
    /// Frames per second.
    public var fps: Int
    /// Every frame of the clip.
    public var frames: [Frame]

    /// A clip's truth.
    public init(name: String, width: Int, height: Int, fps: Int, frames: [Frame]) {
        self.name = name; self.width = width; self.height = height; self.fps = fps; self.frames = frames
    }

    /// Reads a truth file written by `write(to:)`.
    public static func read(from path: String) throws -> ClipTruth {
        let data: Data
        do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
            throw Error.unreadable(path: path, reason: error.localizedDescription)
        }
        do { return try JSONDecoder().decode(ClipTruth.self, from: data) } catch {
            throw Error.notTruth(path: path, reason: String(describing: error))
        }
    }

    /// Writes the truth as JSON (sorted keys, so equal truths are equal files).
    public func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path), options: .atomic)
    }

    /// A truth file that cannot be used.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// The file could not be read.
        case unreadable(path: String, reason: String)
        /// The file is not a truth file.
        case notTruth(path: String, reason: String)

        /// What went wrong and what to do.
        public var description: String {
            switch self {
            case .unreadable(let path, let reason):
                return "cannot read the truth file \(path) (\(reason)): make it with 'reel-privacy-bench make-clips DIR'"
            case .notTruth(let path, let reason):
                return "\(path) is not a truth file written by 'reel-privacy-bench make-clips' (\(reason))"
            }
        }
    }
}
