import Foundation
import ReelCore
import ReelMedia
import ReelStore

/// Turns a fragmented recording into what the user keeps: a normal MP4 (moov first) at the
/// output path, a JPEG of its middle frame and the face track beside it, the session in the
/// library; then removes the recording in progress. The recorder runs every step on finish;
/// ``RecordingRecovery`` runs the ones a crash left undone.
///
/// Order matters for crash safety: the fragmented file and its checkpoint stay until the new
/// MP4 is complete, synced and renamed into place (and the folder synced), and until the
/// session is in the library; a crash at any point leaves the recording in progress
/// (recoverable), or the finished file and the work folder (recovery registers and cleans up),
/// or only the finished, registered session.
struct RecordingFinisher {
    /// The session id.
    let id: UUID
    /// The fragmented MP4 in progress, and its folder (with the checkpoint).
    let videoPath: String
    let folder: String
    /// The folder of all recordings in progress.
    let stateFolder: String
    /// The finished MP4, and what goes beside it.
    let outputPath: String
    var thumbnailPath: String { Self.thumbnailPath(for: outputPath) }
    var faceTrackPath: String { Self.faceTrackPath(for: outputPath) }

    /// `NAME.jpg` beside `NAME.mp4`.
    static func thumbnailPath(for output: String) -> String { ((output as NSString).deletingPathExtension) + ".jpg" }
    /// `NAME.faces.json` beside `NAME.mp4`.
    static func faceTrackPath(for output: String) -> String { ((output as NSString).deletingPathExtension) + ".faces.json" }

    /// The temporary name of the MP4 being made, beside the output (hidden, tied to the id).
    var temporaryPath: String {
        FileIO.folder(of: outputPath) + "/." + (outputPath as NSString).lastPathComponent + ".finishing-"
            + id.uuidString.prefix(8).lowercased() + ".mp4"
    }

    /// Copies the fragmented file's streams into the output, moov first: into a temporary
    /// file, synced, renamed to the output (never over an existing file), folder synced.
    func placeVideo() throws -> MP4Remuxer.Summary {
        let temporary = temporaryPath
        unlink(temporary)  // a previous attempt's leftover
        do {
            let summary = try MP4Remuxer.faststart(from: videoPath, to: temporary)
            try FileIO.sync(path: temporary)
            guard !FileManager.default.fileExists(atPath: outputPath) else {
                throw FileError("placing the recording at", outputPath, code: EEXIST)
            }
            guard rename(temporary, outputPath) == 0 else { throw FileError("placing the recording at", outputPath) }
            try FileIO.syncFolder(FileIO.folder(of: outputPath))
            return summary
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Writes the thumbnail (the middle frame) unless it exists.
    func writeThumbnail(videoSeconds: Double) throws {
        guard !FileManager.default.fileExists(atPath: thumbnailPath) else { return }
        let jpeg = try Thumbnail.jpeg(ofVideoAt: outputPath, at: MediaTime(seconds: videoSeconds / 2))
        try FileIO.writeAtomically(jpeg, to: thumbnailPath)
    }

    /// Writes the face track unless it exists.
    func writeFaceTrack(_ track: FaceTrack) throws {
        guard !FileManager.default.fileExists(atPath: faceTrackPath) else { return }
        try FileIO.writeAtomically(track.jsonData(), to: faceTrackPath)
    }

    /// Adds `session` to the library at `libraryPath` (nothing when it is already there).
    static func register(_ session: StudySession, libraryPath: String) throws {
        let library = try StudyLibrary(path: libraryPath)
        try library.add(session)
    }

    /// Removes the work folder and syncs the state folder.
    func removeFolder() throws {
        try FileManager.default.removeItem(atPath: folder)
        try FileIO.syncFolder(stateFolder)
    }

    /// The recorder's finish: every step, reported.
    func finish(faceTrack: FaceTrack, session: StudySession, libraryPath: String?, into report: inout RecordReport) {
        do {
            let summary = try placeVideo()
            report.outputPath = outputPath
            report.videoSeconds = summary.duration.seconds
            report.fileBytes = ((try? FileManager.default.attributesOfItem(atPath: outputPath)[.size]) as? NSNumber)?.int64Value ?? 0
        } catch {
            report.finishError = "making the final MP4 failed: \(error)"
            report.keptForRecovery = folder
            return
        }
        do {
            try writeThumbnail(videoSeconds: report.videoSeconds)
            report.thumbnailPath = thumbnailPath
        } catch {
            report.warnings.append("no thumbnail: \(error)")
        }
        do {
            try writeFaceTrack(faceTrack)
            report.faceTrackPath = faceTrackPath
        } catch {
            report.warnings.append("the face track could not be written beside the video: \(error)")
        }
        if let libraryPath {
            var session = session
            session.videoSeconds = report.videoSeconds
            session.thumbnailPath = report.thumbnailPath
            session.faceTrackPath = report.faceTrackPath
            do {
                try Self.register(session, libraryPath: libraryPath)
                report.sessionRegistered = true
            } catch {
                // The video is safe; the checkpoint stays so `reel recover` can register it later.
                unlink(videoPath)
                report.warnings.append("the session is not in the library (\(error)); the video is safe, run 'reel recover' to register it (its checkpoint is kept in \(folder))")
                return
            }
        }
        do {
            try removeFolder()
        } catch {
            report.warnings.append("the finished recording's work folder \(folder) could not be removed: \(error)")
        }
    }
}
