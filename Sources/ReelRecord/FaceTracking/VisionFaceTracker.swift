import Foundation
import ReelCore
import ReelMedia
import ReelVision

/// The study session's face tracker (docs/behaviour.md §1, Face tracker):
/// ``FaceTrackerPolicy``'s rules (the largest face, expanded, smoothed, held, then an upper
/// body or a wider box, the top region before any face) over real detectors, on the frames the
/// recorder's schedule picks.
///
/// Each picture is first shrunk to ``analysisWidth`` in YUV 4:2:0 (one cheap scaler call),
/// whatever the camera delivers (a V4L2 camera often gives YUYV), and the detectors look at
/// that. Positions only leave: the pixels are dropped after the call.
/// `@unchecked Sendable`: the policy, converter and detectors are used only by the recording branch's thread, one picture at a time.
public final class VisionFaceTracker: FaceTracker, @unchecked Sendable {
    /// The width pictures are shrunk to before detection.
    public static let analysisWidth = 640
    private let faces: any FaceDetector
    private let bodies: (any FaceDetector)?
    private var policy = FaceTrackerPolicy()
    private var converter: PictureConverter?
    private let lock = NSLock()
    /// Detector failures so far (a failing detector gives no position for that frame).
    public private(set) var failures = 0
    /// The last failure, for the report.
    public private(set) var lastFailure: String?

    /// A tracker with a face detector and, for the estimate after a face is lost, an
    /// upper-body detector (nil: the ×2 box around the last face instead).
    public init(faces: any FaceDetector, bodies: (any FaceDetector)?) {
        self.faces = faces
        self.bodies = bodies
    }

    /// CenterFace (or the Haar fallback, with its warning) and the upper-body detector, from
    /// what is installed.
    public static func installed() throws -> (tracker: VisionFaceTracker, warning: String?) {
        let models = VisionModels.current()
        let choice = try FaceDetectorChoice.make(models: models)
        let bodies = try? UpperBodyDetector(cascadePath: models.upperBodyCascade)
        return (VisionFaceTracker(faces: choice.detector, bodies: bodies), choice.warning)
    }

    public func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample? {
        track(frame, videoTime: videoTime, clock: frame.captureTime)
    }

    /// As ``track(_:videoTime:)``, with the tracker's rules (the hold after a lost face, the
    /// smoothing) timed by `clock` instead of the frame's capture time: `reel recover` finding
    /// faces again in a finished video passes the study time each picture stands for.
    public func track(_ frame: VideoFrame, videoTime: MediaTime, clock: MediaTime) -> FaceTrackSample? {
        lock.lock()
        defer { lock.unlock() }
        do {
            let width = min(Self.analysisWidth, frame.width - frame.width % 2)
            let height = max(2, Int((Double(frame.height) * Double(width) / Double(frame.width) / 2).rounded()) * 2)
            if converter?.width != width || converter?.height != height { converter = PictureConverter(width: width, height: height) }
            let small = try converter!.convert(frame)
            let box = try small.withWritablePlanes { planes in
                let picture = DetectorPicture(yuv420p: (y: .init(base: planes[0].base, stride: planes[0].stride),
                                                        u: .init(base: planes[1].base, stride: planes[1].stride),
                                                        v: .init(base: planes[2].base, stride: planes[2].stride)),
                                              width: width, height: height)
                return try policy.advance(at: clock) { request in
                    var found = try faces.detect(picture)
                    if request.includesUpperBodies, let bodies {
                        found += try bodies.detect(picture)
                    }
                    return found
                }
            }
            return box.sample(at: videoTime)
        } catch {
            failures += 1
            lastFailure = "\(error)"
            return nil
        }
    }
}
