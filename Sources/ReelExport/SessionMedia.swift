import Foundation
import ReelCore
import ReelRuntime

/// A study session's files as the export and the review use them: the video, its face track
/// (`NAME.faces.json`, written by the recorder) and the review's edits (`NAME.privacy.json`,
/// written by `reel review`; the track itself is never changed).
public struct SessionMedia: Sendable {
    /// The session.
    public let session: StudySession

    /// The session's media.
    public init(_ session: StudySession) {
        self.session = session
    }

    /// `NAME.privacy.json` beside the video (``PrivacyEdits/path(forVideo:)``).
    public var editsPath: String { PrivacyEdits.path(forVideo: session.filePath) }

    /// The stored face track, or nil when the session has none (the file is named in the
    /// library but missing counts as none; a damaged one is an error).
    public func faceTrack() throws -> FaceTrack? {
        guard let path = session.faceTrackPath, FileManager.default.fileExists(atPath: path) else { return nil }
        do {
            return try FaceTrack.decode(json: Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw PrivacyExporter.Error("the face track \(path) cannot be read: \(error)")
        }
    }

    /// Why the session has no face positions to use, when ``faceTrack()`` gave `track` (nil or
    /// without samples): what really happened, for the export's, review's and vlog's refusals.
    public func missingFacesReason(_ track: FaceTrack?) -> String {
        guard let path = session.faceTrackPath else {
            return "no face track was saved with it (face tracking was unavailable when it was recorded or recovered; "
                + "'reel record' or 'reel recover' said why)"
        }
        guard let track else { return "its face track \(path) is missing (moved or deleted)" }
        guard track.samples.isEmpty else { return "its face track \(path) has face positions" }
        return "its face track \(path) holds no face positions (recorded with --no-faces or without a face detector, "
            + "or recovered by an older Reel after a crash in its first 30 s)"
    }

    /// The review's edits (none yet: empty).
    public func edits() throws -> PrivacyEdits {
        guard FileManager.default.fileExists(atPath: editsPath) else { return PrivacyEdits() }
        do {
            return try PrivacyEdits.decode(json: Data(contentsOf: URL(fileURLWithPath: editsPath)))
        } catch {
            throw PrivacyExporter.Error("the review edits \(editsPath) cannot be read: \(error); fix or remove the file (the face track is untouched)")
        }
    }

    /// Stores `edits` atomically (``DurableFile``: a temporary file, synced, renamed over the old
    /// one, the folder synced).
    public func save(_ edits: PrivacyEdits) throws {
        do {
            try DurableFile.write(try edits.jsonData(), to: editsPath, ifExists: .replace)
        } catch let error as DurableFile.Error {
            throw PrivacyExporter.Error("cannot store the review edits: \(error)")
        }
    }
}
