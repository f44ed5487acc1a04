import Foundation
import ReelCore
import ReelMedia
import ReelVision

/// Finds a recording's face positions again in its finished video, for
/// `reel recover` when the stored track is missing or ends early (the tracker was off, or the
/// work folder is from a Reel that kept faces only in the 30 s checkpoint): the same tracker
/// the recorder uses (``VisionFaceTracker``: CenterFace, the upper-body detector,
/// ``FaceTrackerPolicy``), on the frames ``FaceSampleSchedule`` picks, from a given video time.
struct FaceTrackRebuilder {
    /// Faces cannot be found: the CenterFace model is not installed (the track is then left
    /// absent rather than made by the weaker Haar fallback), or the detector failed.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    let tracker: VisionFaceTracker

    /// The installed tracker; ``Unavailable`` without the CenterFace model.
    static func installed() throws -> FaceTrackRebuilder {
        let installed = try VisionFaceTracker.installed()
        if installed.warning != nil {
            let model = VisionModels.current().centerFaceModel
            throw Unavailable(description: "the CenterFace model is not installed at \(model) (run `make setup` or scripts/fetch-model.sh)")
        }
        return FaceTrackRebuilder(tracker: installed.tracker)
    }

    /// The samples of the video at `path` from video time `from` on, at the recording's
    /// cadence. A timelapse's pictures are 0.1 s of video apart but `interval` of study apart:
    /// the tracker's rules are timed in study time, as while recording.
    func samples(in path: String, from: MediaTime, mode: RecordingMode, intervalSeconds: Double?) throws -> [FaceTrackSample] {
        let reader = try VideoFileReader(path: path)
        var schedule = FaceSampleSchedule(mode: mode)
        let studyPerVideoSecond = mode == .timelapse
            ? (intervalSeconds ?? 5) * Double(TimelapseSchedule.outputFramesPerSecond) : 1
        var found: [FaceTrackSample] = []
        try reader.forEachFrame { frame in
            let time = frame.captureTime
            guard time >= from, schedule.isDue(at: time) else { return true }
            let clock = MediaTime(seconds: time.seconds * studyPerVideoSecond)
            if let sample = tracker.track(frame, videoTime: time, clock: clock) {
                found.append(FaceTrack.quantized(FaceTrackSample(time: time, segment: sample.segment, kind: sample.kind,
                                                                 box: sample.box)))
            }
            return true
        }
        if let failure = tracker.lastFailure, found.isEmpty {
            throw Unavailable(description: "the face detector failed: \(failure)")
        }
        return found
    }
}
