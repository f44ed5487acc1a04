import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy
import ReelRuntime

/// The review's pictures: for each segment of a face track, the video's picture at the
/// segment's representative time, as a PNG with the segment's box drawn (after the edits, so
/// a shifted or scaled box shows where the mosaic will go).
public enum SegmentFrames {
    /// Writes `segment-N.png` (`segment-N-face-S.png` for subjects other than 0) into `folder`
    /// (created) for every summary; returns the paths by segment.
    public static func write(video: String, summaries: [SegmentSummary], track: FaceTrack, edits: PrivacyEdits,
                             into folder: String) throws -> [FaceSegmentID: String] {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let reader = try VideoFileReader(path: video)
        let converter = PictureConverter(width: reader.info.width - reader.info.width % 2, height: reader.info.height - reader.info.height % 2)
        let timeline = FaceTrackTimeline(track)
        var paths: [FaceSegmentID: String] = [:]
        for summary in summaries {
            let picture = try converter.convert(try reader.frame(at: summary.representativeTime))
            let box = timeline.boxes(at: summary.representativeTime).first { $0.segmentID == summary.id }?.box ?? summary.meanBox
            try picture.withYUVPicture { outline(box, edit: edits.edit(for: summary.id), on: $0) }
            let name = "segment-\(summary.id.segment)" + (summary.id.subject == 0 ? "" : "-face-\(summary.id.subject)") + ".png"
            let path = folder + "/" + name
            try DurableFile.write(try StillImage.png(of: picture), to: path, ifExists: .replace)
            paths[summary.id] = path
        }
        return paths
    }

    /// Draws `box` after `edit` on `picture`: grey-blue when the segment has no mosaic, else
    /// yellow (the review's pictures and the studio's frames).
    static func outline(_ box: NormalizedRect, edit: PrivacyEdits.SegmentEdit, on picture: YUVPicture) {
        BoxOutline.draw(on: picture, box: edit.apply(to: box), thickness: max(2, picture.height / 270),
                        colour: edit.disabled ? (120, 180, 110) : (210, 16, 146))
    }
}
