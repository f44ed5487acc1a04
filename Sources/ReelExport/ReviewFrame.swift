import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy

/// One picture of a session for the review, as a JPEG: the recording as it is, with the face
/// boxes outlined after the edits (as ``SegmentFrames`` draws them), or rendered as the export
/// will show it: the edited regions covered by the export's own ``FaceCovers`` and
/// ``FrameCompositor`` (mosaic, or the segment's stamp).
public enum ReviewFrame {
    /// What the picture shows.
    public enum View: String, Sendable, CaseIterable {
        case plain, boxes, mosaic
    }

    /// The JPEG of the first picture at or after `time` of `video` (the last when past its
    /// end), at most `maxWidth` wide (never enlarged), with `track`'s boxes at that picture's
    /// time after `edits` drawn or covered as `view` says.
    public static func jpeg(video: String, at time: MediaTime, view: View, track: FaceTrack?, edits: PrivacyEdits,
                            maxWidth: Int) throws -> Data {
        let reader = try VideoFileReader(path: video)
        if let format = reader.info.stillImageFormat {
            throw PrivacyExporter.Error("\(video) is a still image (\(format)), not a video")
        }
        let decoded = try reader.frame(at: time)
        let scale = min(1, Double(maxWidth) / Double(decoded.width))
        let width = max(2, Int(Double(decoded.width) * scale / 2) * 2), height = max(2, Int(Double(decoded.height) * scale / 2) * 2)
        let picture = try PictureConverter(width: width, height: height).convert(decoded)
        let boxes = track.map { FaceTrackTimeline($0).boxes(at: decoded.captureTime) } ?? []
        switch view {
        case .plain:
            break
        case .boxes:
            try picture.withYUVPicture { yuv in
                for box in boxes { SegmentFrames.outline(box.box, edit: edits.edit(for: box.segmentID), on: yuv) }
            }
        case .mosaic:
            let covers = try FaceCovers().covers(for: edits.regions(for: boxes))
            try picture.withYUVPicture { try FrameCompositor().composite($0, covers: covers, caption: nil) }
        }
        return Data(try JPEGEncoder(width: width, height: height, quality: 3).encode(picture))
    }
}
