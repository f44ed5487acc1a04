import Foundation
import ReelCore
import ReelMedia

/// Turns a finished fragmented recording into what the user keeps: a normal MP4 (moov first)
/// at the output path, a JPEG of its middle frame and the face track beside it; then removes
/// the recording in progress.
///
/// Order matters for crash safety: the fragmented file and its checkpoint stay until the new
/// MP4 is complete, synced and renamed into place (and the folder synced); a crash at any
/// point leaves either the recording in progress (recoverable) or the finished file.
struct RecordingFinisher {
    let settings: RecordSettings
    /// The fragmented MP4 in progress.
    let videoPath: String
    /// Its folder (with the checkpoint).
    let folder: String
    let faceTrack: FaceTrack

    func finish(into report: inout RecordReport) {
        let output = settings.outputPath
        let outputFolder = FileIO.folder(of: output)
        let name = (output as NSString).lastPathComponent
        let temporary = outputFolder + "/." + name + ".finishing-" + settings.id.uuidString.prefix(8).lowercased() + ".mp4"
        do {
            let summary = try MP4Remuxer.faststart(from: videoPath, to: temporary)
            try FileIO.sync(path: temporary)
            guard !FileManager.default.fileExists(atPath: output) else {
                throw FileError("placing the recording at", output, code: EEXIST)
            }
            guard rename(temporary, output) == 0 else { throw FileError("placing the recording at", output) }
            try FileIO.syncFolder(outputFolder)
            report.outputPath = output
            report.videoSeconds = summary.duration.seconds
            report.fileBytes = ((try? FileManager.default.attributesOfItem(atPath: output)[.size]) as? NSNumber)?.int64Value ?? 0
        } catch {
            unlink(temporary)
            report.finishError = "making the final MP4 failed: \(error)"
            report.keptForRecovery = folder
            return
        }
        do {
            let middle = MediaTime(seconds: report.videoSeconds / 2)
            let jpeg = try Thumbnail.jpeg(ofVideoAt: output, at: middle)
            try FileIO.writeAtomically(jpeg, to: settings.thumbnailPath)
            report.thumbnailPath = settings.thumbnailPath
        } catch {
            report.warnings.append("no thumbnail: \(error)")
        }
        do {
            try FileIO.writeAtomically(faceTrack.jsonData(), to: settings.faceTrackPath)
            report.faceTrackPath = settings.faceTrackPath
        } catch {
            report.warnings.append("the face track could not be written beside the video: \(error)")
        }
        do {
            try FileManager.default.removeItem(atPath: folder)
            try FileIO.syncFolder(settings.stateFolder)
        } catch {
            report.warnings.append("the finished recording's work folder \(folder) could not be removed: \(error)")
        }
    }
}
