/// How `reel recover` puts a crashed recording's face track back together:
/// the checkpoint's copy (up to 30 s old) and the face log (synced with every fragment) are
/// merged; when the result still ends well before the video does (the tracker was off, or a
/// work folder from a Reel without the log), the faces are found again in the video from
/// ``missingFrom(_:videoDuration:)`` on, and those samples are appended as new segments.
public enum FaceTrackCompletion {
    /// A track counts as complete when its last sample is at most this much video time before
    /// the video's end: the slowest cadence under load (1 s in full mode, every 5th frame of a
    /// timelapse: 0.5 s) with room for the last frame.
    public static let tolerance = MediaTime(value: 3, timescale: 2)

    /// The checkpoint's track, then the log's samples after its last one, without samples at
    /// or after `videoDuration` (the log can run ahead of a video cut by the crash).
    public static func merged(checkpoint: FaceTrack, log: [FaceTrackSample], videoDuration: MediaTime) -> FaceTrack {
        var samples = checkpoint.samples
        let last = samples.last?.time
        samples += log.filter { sample in last.map { sample.time > $0 } ?? true }
        return FaceTrack(samples: samples.filter { $0.time < videoDuration })
    }

    /// The video time from which faces must be found again, or nil when `track` covers the
    /// video (within ``tolerance``). An empty track needs the whole video.
    public static func missingFrom(_ track: FaceTrack, videoDuration: MediaTime) -> MediaTime? {
        guard let last = track.samples.last?.time else { return videoDuration > .zero ? .zero : nil }
        return videoDuration - last > tolerance ? last : nil
    }

    /// `track` with `found` appended: only samples after its last one, their segments numbered
    /// after its highest (a new tracker's segments never merge with the stored ones in review).
    public static func appending(_ found: [FaceTrackSample], to track: FaceTrack) -> FaceTrack {
        var result = track
        let last = track.samples.last?.time
        let offset = (track.samples.map(\.segment).max() ?? -1) + 1
        for var sample in found where last.map({ sample.time > $0 }) ?? true {
            sample.segment += offset
            result.append(sample)
        }
        return result
    }
}
