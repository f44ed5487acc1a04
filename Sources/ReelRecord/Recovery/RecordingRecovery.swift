import Foundation
import ReelCore
import ReelMedia
import ReelStore

/// `reel recover`: finishes the recordings a crash left in the state folder
/// (`$XDG_STATE_HOME/reel/recordings/{id}/`, a fragmented `recording.mp4` and its
/// `checkpoint.json`), each into the normal MP4 it was going to be, with its thumbnail, face
/// track and session, then removes the work folder.
///
/// Never takes a file it did not write: the video replaces only the
/// recording's own placeholder, an output counts as already finished only when its stamp
/// names this session, and when another file holds the output it is left alone and the
/// recording is finished under the next free numbered name (``RecordingOutput``). The face
/// track comes from the checkpoint and the face log, and where it ends early, from the video
/// (``FaceTrackRebuilder``).
///
/// Idempotent: what is already done is not done again (this recording's output in place is
/// never remade or replaced, a session already in the library is not added twice), so
/// running it again, or after a crash of the recovery itself, only finishes what is left. A folder whose
/// checkpoint cannot be read is reported by name and left exactly as it is; a folder a
/// running recorder holds (``WorkFolderLock``) is skipped.
public struct RecordingRecovery {
    /// The folder of recordings in progress.
    public var stateFolder: String
    /// The library sessions go into.
    public var libraryPath: String

    /// A recovery of `stateFolder` into the library at `libraryPath`.
    public init(stateFolder: String, libraryPath: String) {
        self.stateFolder = stateFolder
        self.libraryPath = libraryPath
    }

    /// What happened to one work folder.
    public struct Outcome: Sendable {
        public enum Kind: Sendable, Equatable {
            /// Made the MP4 from the fragmented file and registered it.
            case recovered
            /// This recording's MP4 was already in place (a crash after it was finished: its stamp
            /// names this session); registered and cleaned up.
            case completed
            /// Nothing had reached the file before the crash; the folder was removed.
            case empty
            /// A running recording: left alone.
            case skipped
            /// Could not be recovered; the folder is untouched (or kept) and ``message`` says why.
            case failed
        }
        public var kind: Kind
        /// The work folder.
        public var folder: String
        /// The finished MP4 (when known).
        public var outputPath: String?
        /// The session id (when the checkpoint was read).
        public var id: UUID?
        /// The video's and the active time's length, in seconds.
        public var videoSeconds = 0.0, activeSeconds = 0.0
        /// Bytes of a torn last fragment that were cut off.
        public var tornBytes: Int64 = 0
        /// Whether the session was added now (false: it was already there).
        public var addedToLibrary = false
        /// Why it failed, or notes.
        public var message: String?
        public var warnings: [String] = []
        /// What recovery did beyond the usual (faces found again in the video).
        public var notes: [String] = []
        /// The output the recording had claimed, when another file held it and the video was
        /// finished under a new name (``outputPath``) instead.
        public var renamedFrom: String?
    }

    /// The work folders now, sorted.
    public func workFolders() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: stateFolder)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { stateFolder + "/" + $0 }.filter { path in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) && isFolder.boolValue
        }
    }

    /// The recordings running now (work folders a live `reel record` holds), as their last
    /// checkpoints say; folders without a readable checkpoint yet are left out.
    public func runningRecordings() -> [RecordingCheckpoint] {
        workFolders().filter(WorkFolderLock.isHeld).compactMap { try? CheckpointFile.read(at: $0 + "/" + CheckpointFile.name) }
    }

    /// The recordings a recorder left unfinished: the work folders no running recorder holds,
    /// each with its checkpoint or why that cannot be read (what ``run()`` finishes, or names).
    public func unfinishedRecordings() -> [(folder: String, checkpoint: Result<RecordingCheckpoint, CheckpointFile.Error>)] {
        workFolders().filter { !WorkFolderLock.isHeld($0) }.map { folder in
            (folder, Result { () throws(CheckpointFile.Error) in try CheckpointFile.read(at: folder + "/" + CheckpointFile.name) })
        }
    }

    /// Recovers every work folder; the library is opened first (an unusable library is
    /// thrown before any folder is touched).
    public func run() throws -> [Outcome] {
        let folders = workFolders()
        guard !folders.isEmpty else { return [] }
        let library = try StudyLibrary(path: libraryPath)
        return folders.map { recover($0, library: library) }
    }

    /// Recovers one work folder.
    func recover(_ folder: String, library: StudyLibrary) -> Outcome {
        var outcome = Outcome(kind: .failed, folder: folder)
        let lock: WorkFolderLock
        do {
            lock = try WorkFolderLock(folder)
        } catch {
            if error.code == EWOULDBLOCK {
                outcome.kind = .skipped
                outcome.message = "a reel record is still writing it"
            } else {
                outcome.message = "\(error)"
            }
            return outcome
        }
        defer { withExtendedLifetime(lock) {} }
        let checkpointPath = folder + "/" + CheckpointFile.name
        let checkpoint: RecordingCheckpoint
        do {
            checkpoint = try CheckpointFile.read(at: checkpointPath)
        } catch {
            outcome.message = "\(error); the folder is left as it is (move it away or remove it once you have what you need from it)"
            return outcome
        }
        outcome.id = checkpoint.id
        outcome.outputPath = checkpoint.outputPath
        let videoPath = folder + "/recording.mp4"
        var finisher = RecordingFinisher(id: checkpoint.id, videoPath: videoPath, folder: folder, stateFolder: stateFolder,
                                         outputPath: checkpoint.outputPath)
        var endedAt = checkpoint.updatedAt
        if let modified = (try? FileManager.default.attributesOfItem(atPath: videoPath)[.modificationDate]) as? Date {
            endedAt = max(endedAt, modified)
        }
        guard let summary = place(&finisher, checkpoint: checkpoint, checkpointPath: checkpointPath, into: &outcome) else {
            return outcome
        }
        outcome.outputPath = finisher.outputPath
        outcome.videoSeconds = summary.duration.seconds
        // Active time: the checkpoint's is up to 30 s old. Full mode stamps frames with active
        // time, so the video's length is the active time it holds; a timelapse holds one frame
        // per interval of active time.
        let active: Double = switch checkpoint.mode {
        case .full: max(checkpoint.activeSeconds, outcome.videoSeconds)
        case .timelapse: max(checkpoint.activeSeconds, Double(max(0, summary.packets - 1)) * (checkpoint.intervalSeconds ?? 0))
        }
        outcome.activeSeconds = active
        var thumbnail: String? = finisher.thumbnailPath
        do { try finisher.writeThumbnail(videoSeconds: outcome.videoSeconds) } catch {
            thumbnail = nil
            outcome.warnings.append("no thumbnail: \(error)")
        }
        let faces = writeFaceTrack(finisher, checkpoint: checkpoint, duration: summary.duration, into: &outcome)
        let session = StudySession(
            id: checkpoint.id, startedAt: checkpoint.startedAt, endedAt: endedAt, activeSeconds: active,
            videoSeconds: outcome.videoSeconds, mode: checkpoint.mode, intervalSeconds: checkpoint.intervalSeconds,
            filePath: finisher.outputPath, thumbnailPath: thumbnail, faceTrackPath: faces, title: checkpoint.title,
            tags: checkpoint.tags, recovered: outcome.kind == .recovered)
        do {
            outcome.addedToLibrary = try library.add(session)
        } catch {
            outcome.kind = .failed
            outcome.message = "the video is at \(finisher.outputPath) but the session could not be registered: \(error); the checkpoint is kept for the next run"
            return outcome
        }
        do {
            try finisher.removeFolder()
        } catch {
            outcome.warnings.append("the work folder could not be removed: \(error)")
        }
        return outcome
    }

    /// Puts the video in place (``RecordingFinisher/placeVideo(moved:)``: only over this
    /// recording's own placeholder, or under a new name when another file holds the output),
    /// or finds it already placed; nil when the outcome is final (empty, failed).
    private func place(_ finisher: inout RecordingFinisher, checkpoint: RecordingCheckpoint, checkpointPath: String,
                       into outcome: inout Outcome) -> MP4Remuxer.Summary? {
        let id = checkpoint.id
        let moved: (String) throws -> Void = { path in
            var updated = checkpoint
            updated.outputPath = path
            try CheckpointFile.write(updated, to: checkpointPath)
        }
        do {
            let decision = RecordingOutput.placement(for: checkpoint.outputPath) { OutputClaim.occupant(of: $0, id: id) }
            if case .place = decision, FileManager.default.fileExists(atPath: finisher.videoPath) {
                outcome.tornBytes = try TornFragment.trim(finisher.videoPath)
                if try MP4Remuxer.summary(of: finisher.videoPath).packets == 0 {
                    OutputClaim.releaseAll(checkpoint.outputPath, id: id)
                    try finisher.removeFolder()
                    outcome.kind = .empty
                    outcome.message = "nothing had reached the disk before the crash (it stopped in its first 2 s); removed"
                    return nil
                }
            }
            let placed = try finisher.placeVideo(moved: moved)
            outcome.kind = placed.wasThere ? .completed : .recovered
            if placed.path != checkpoint.outputPath {
                outcome.renamedFrom = checkpoint.outputPath
            }
            return placed.summary
        } catch {
            outcome.kind = .failed
            outcome.message = "\(error); the folder is kept"
            return nil
        }
    }

    /// The face track beside the video unless it is there: the checkpoint's, completed by the
    /// face log, and where it still ends early, by faces found again in the video. Returns its
    /// path, or nil when there is none (said in a warning).
    private func writeFaceTrack(_ finisher: RecordingFinisher, checkpoint: RecordingCheckpoint, duration: MediaTime,
                                into outcome: inout Outcome) -> String? {
        guard !FileManager.default.fileExists(atPath: finisher.faceTrackPath) else { return finisher.faceTrackPath }
        var track = FaceTrackCompletion.merged(checkpoint: checkpoint.faceTrack, log: faceLog(in: finisher.folder, into: &outcome),
                                               videoDuration: duration)
        if checkpoint.facesRequested != false, let from = FaceTrackCompletion.missingFrom(track, videoDuration: duration) {
            do {
                let found = try FaceTrackRebuilder.installed().samples(in: finisher.outputPath, from: from, mode: checkpoint.mode,
                                                                       intervalSeconds: checkpoint.intervalSeconds)
                track = FaceTrackCompletion.appending(found, to: track)
                outcome.notes.append("face positions from \(from.seconds.formatted3) s to the end were missing; found \(found.count) again in the video")
            } catch {
                let what = track.samples.isEmpty ? "no face position reached the disk"
                    : "the face positions end at \(from.seconds.formatted3) s of \(duration.seconds.formatted3) s"
                outcome.warnings.append("no face track: \(what) and they could not be found again in the video (\(error)); "
                                        + "'reel export --all-faces' finds them at export")
                return nil
            }
        }
        do {
            try finisher.writeFaceTrack(track)
            return finisher.faceTrackPath
        } catch {
            outcome.warnings.append("no face track: \(error)")
            return nil
        }
    }

    /// The face log's samples (none when there is no log: an older Reel wrote none).
    private func faceLog(in folder: String, into outcome: inout Outcome) -> [FaceTrackSample] {
        let path = folder + "/" + RecordingBranch.faceLogName
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        do {
            return try FaceSampleLog.decode(data).samples
        } catch {
            outcome.warnings.append("the face log \(path) cannot be used (\(error)); using the checkpoint's face positions")
            return []
        }
    }
}
