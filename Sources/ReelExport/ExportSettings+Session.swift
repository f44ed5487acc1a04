import Foundation
import ReelCore

extension ExportSettings {
    /// The settings for exporting `session` to `outputPath`: its stored face track and review
    /// edits, and with a caption `label`, the caption's clock (a timelapse's study time runs
    /// faster than its video). What `reel export SESSION` and the studio's export both use.
    public static func session(_ session: StudySession, outputPath: String, captionLabel label: String?) throws -> ExportSettings {
        let media = SessionMedia(session)
        var settings = ExportSettings(input: .session(session), outputPath: outputPath)
        settings.faceTrack = try media.faceTrack()
        settings.edits = try media.edits()
        if let label {
            let clock: ExportCaption.Clock = session.mode == .timelapse
                ? .timelapse(interval: session.intervalSeconds ?? 5, framesPerSecond: Double(TimelapseSchedule.outputFramesPerSecond))
                : .videoTime
            settings.caption = ExportCaption(label: label, date: ExportCaption.dateText(session.startedAt), clock: clock)
        }
        return settings
    }

    /// The name the library notes for `privacy`.
    public var privacyName: String {
        switch privacy {
        case .mosaic: "mosaic"
        case .mask: "mask"
        case .none: "none"
        case .stamp: "stamp"
        }
    }
}
