import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy

extension WeeklyVlog {
    /// A session that goes in: its video opened, its face track and review edits read.
    struct Clip {
        let session: StudySession
        let reader: VideoFileReader
        let track: FaceTrack
        let edits: PrivacyEdits
        var seconds: Double
    }

    /// What the vlog holds: the days with at least one usable session, and its length.
    struct Plan {
        var days: [(day: VlogWeek.Day, clips: [Clip])]
        /// Cards and clips together (seconds).
        var seconds: Double
    }

    /// Which sessions can go in (each one left out is warned about through `warn`), and how
    /// long everything is; throws when none can.
    func plan(warn: (String) -> Void) throws -> Plan {
        var days: [(day: VlogWeek.Day, clips: [Clip])] = []
        for day in settings.week.days {
            let clips = day.sessions.compactMap { clip(for: $0, warn: warn) }
            if !clips.isEmpty { days.append((day, clips)) }
        }
        guard !days.isEmpty else {
            throw Error("none of the sessions from \(settings.week.monday) to \(settings.week.sunday) could be used (see the warnings); nothing was written")
        }
        let seconds = days.reduce(0.0) { $0 + Double(settings.cardSeconds) + $1.clips.reduce(0) { $0 + $1.seconds } }
        return Plan(days: days, seconds: seconds)
    }

    /// The session as a clip, or nil (warned) when its video is missing, cannot be opened or
    /// is a still image, or its faces cannot be hidden (no face positions).
    private func clip(for session: StudySession, warn: (String) -> Void) -> Clip? {
        let name = "session \(session.id.uuidString.lowercased().prefix(8))" + (session.title.map { " (\($0))" } ?? "")
        guard FileManager.default.fileExists(atPath: session.filePath) else {
            warn("\(name): its video \(session.filePath) is missing; skipped")
            return nil
        }
        let media = SessionMedia(session)
        do {
            let stored = try media.faceTrack()
            guard let track = stored, !track.samples.isEmpty else {
                warn("\(name) has no face positions (\(media.missingFacesReason(stored))), so its faces cannot be hidden; "
                     + "skipped (reel export --all-faces exports it on its own)")
                return nil
            }
            let reader = try VideoFileReader(path: session.filePath)
            if let format = reader.info.stillImageFormat {
                // As `reel export` refuses one: a still image is no recording.
                warn("\(name): its video \(session.filePath) is a still image (\(format)), not a video; skipped")
                return nil
            }
            return Clip(session: session, reader: reader, track: track, edits: try media.edits(),
                        seconds: reader.info.duration?.seconds ?? session.videoSeconds)
        } catch {
            warn("\(name): \(error); skipped")
            return nil
        }
    }
}

/// What draws the vlog's pictures: the fitter into the layout, the compositor and face
/// covers (stamps the review chose are read once), and the day cards.
struct VlogPainter {
    let fitter: PictureFitter
    let compositor = FrameCompositor()
    let covers: FaceCovers
    let cards: TitleCard

    /// The painter for a `width`×`height` layout; a missing caption font is a vlog error.
    init(width: Int, height: Int) throws {
        fitter = PictureFitter(width: width, height: height)
        do {
            cards = try TitleCard(width: width, height: height)
        } catch {
            throw WeeklyVlog.Error("\(error)")
        }
        covers = try FaceCovers()
    }
}
