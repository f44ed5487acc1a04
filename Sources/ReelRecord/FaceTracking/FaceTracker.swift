import ReelCore
import ReelMedia

/// The seam the privacy tracker plugs into (docs/behaviour.md §1, Face tracker): the recorder
/// shows it the captured picture of each frame its ``FaceSampleSchedule`` picks (every
/// written frame in timelapse mode, every 0.2 s of video in full mode) and stores what it
/// answers in the recording's ``FaceTrack``.
///
/// Called on the recorder's writer thread only, in video-time order; the tracker may keep
/// state between calls (smoothing, the hold after a lost face, segment numbers). It must not
/// keep the frame beyond the call without retaining it (frames are immutable and shared).
public protocol FaceTracker: AnyObject, Sendable {
    /// Where the face is in `frame`, normalized to `frame` (origin top-left; the recorder
    /// maps it into the recorded canvas), or nil for no position.
    func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample?
}

/// The tracker when faces are not tracked (`--no-faces`, or no face model installed): never a
/// position, so the recording's face track stays empty (and the recorder still samples at the
/// cadence of docs/behaviour.md §1).
public final class NoFaceTracker: FaceTracker {
    /// A tracker that finds nothing.
    public init() {}

    public func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample? { nil }
}
