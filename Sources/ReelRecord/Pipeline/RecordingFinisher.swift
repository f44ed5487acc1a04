import Foundation
import ReelCore
import ReelMedia
import ReelRuntime
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
    /// The finished MP4 (at first the claimed path; ``placeVideo(moved:)`` points it where the
    /// video went), and what goes beside it.
    var outputPath: String
    var thumbnailPath: String { Self.thumbnailPath(for: outputPath) }
    var faceTrackPath: String { Self.faceTrackPath(for: outputPath) }

    /// `NAME.jpg` beside `NAME.mp4`.
    static func thumbnailPath(for output: String) -> String { ((output as NSString).deletingPathExtension) + ".jpg" }
    /// `NAME.faces.json` beside `NAME.mp4`.
    static func faceTrackPath(for output: String) -> String { ((output as NSString).deletingPathExtension) + ".faces.json" }

    /// The temporary name of the MP4 being made beside `path` (hidden, tied to the id).
    func temporaryPath(for path: String) -> String {
        FileIO.folder(of: path) + "/." + (path as NSString).lastPathComponent + ".finishing-"
            + id.uuidString.prefix(8).lowercased() + ".mp4"
    }

    /// Where the video went.
    struct Placed {
        /// The finished MP4 (``outputPath`` unless another file held that name).
        var path: String
        /// What it holds.
        var summary: MP4Remuxer.Summary
        /// It was already there (placed before a crash), not placed now.
        var wasThere: Bool
    }

    /// The video in progress is gone and no finished one of this recording was found.
    struct NothingToPlace: Error, CustomStringConvertible {
        var videoPath: String, outputPath: String
        var description: String {
            "\(videoPath) is missing and \(outputPath) is not this recording's video (it is another file, or absent)"
        }
    }

    /// Puts the video where it belongs and points ``outputPath`` there (``RecordingOutput``'s
    /// rules): over this recording's own placeholder; or nowhere when its finished MP4 is
    /// already there; or, when another file holds the name, under the first free numbered
    /// name (`NAME-2.mp4` …), claimed first. `moved` is called with a new name before anything
    /// is placed there (the caller records it in the checkpoint, so a crash afterwards
    /// continues with that name).
    ///
    /// The MP4 is made by copying the fragmented file's streams, moov first, into a temporary
    /// file, which ``DurableFile/place(_:at:ifExists:)`` syncs and renames over the placeholder
    /// (checked again just before), then syncs the folder. Another file is never replaced.
    mutating func placeVideo(moved: (String) throws -> Void) throws -> Placed {
        for attempt in 1...3 {
            switch RecordingOutput.placement(for: outputPath, occupant: { OutputClaim.occupant(of: $0, id: id) }) {
            case .alreadyPlaced(let path):
                if path != outputPath { try moved(path) }
                outputPath = path
                return Placed(path: path, summary: try MP4Remuxer.summary(of: path), wasThere: true)
            case .noFreeName:
                throw FileError("placing the recording beside", outputPath, code: EEXIST)
            case .place(let path, let claimFirst):
                guard FileManager.default.fileExists(atPath: videoPath) else {
                    throw NothingToPlace(videoPath: videoPath, outputPath: outputPath)
                }
                if claimFirst {
                    do {
                        _ = try FileIO.makeFolders(FileIO.folder(of: path))  // moved or removed since
                        try OutputClaim.claim(path, id: id)
                    } catch is OutputClaim.Taken where attempt < 3 {
                        continue  // taken between the look and the claim: decide again
                    }
                }
                if path != outputPath { try moved(path) }
                outputPath = path
                return Placed(path: path, summary: try replacePlaceholder(at: path), wasThere: false)
            }
        }
        throw FileError("placing the recording at", outputPath, code: EEXIST)
    }

    /// Makes the MP4 and renames it over this recording's placeholder at `path`.
    private func replacePlaceholder(at path: String) throws -> MP4Remuxer.Summary {
        let temporary = temporaryPath(for: path)
        unlink(temporary)  // a previous attempt's leftover
        do {
            let summary = try MP4Remuxer.faststart(from: videoPath, to: temporary)
            guard OutputClaim.isPlaceholder(path, id: id) else {
                throw FileError("placing the recording at", path, code: EEXIST)  // replaced under us: never overwritten
            }
            // Over this recording's own placeholder: the one replace the recorder asks for.
            do { try DurableFile.place(temporary, at: path, ifExists: .replace) } catch { throw FileError(error) }
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

    /// The recorder's finish: every step, reported. `moved` as for ``placeVideo(moved:)``.
    mutating func finish(faceTrack: FaceTrack, session: StudySession, libraryPath: String?, into report: inout RecordReport,
                         moved: (String) throws -> Void) {
        let claimed = outputPath
        do {
            let placed = try placeVideo(moved: moved)
            report.outputPath = outputPath
            report.videoSeconds = placed.summary.duration.seconds
            if outputPath != claimed {
                report.warnings.append("\(claimed) is no longer this recording's placeholder (removed or replaced while recording), "
                                       + "so the recording was finished as \(outputPath)")
            }
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
            session.filePath = outputPath
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
