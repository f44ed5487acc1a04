import Foundation
import ReelCore
import ReelMedia
import ReelRuntime

/// A capture source whose pictures come out with the cinematic blur baked in: another source
/// (test pattern, file, camera) seen through a ``CinematicCamera``. Anything that takes a source
/// takes it — `reel cinematic`'s file writer, `reel live` — so the effect is streamed and
/// recorded by the pipelines that already exist.
///
/// The inner source runs on its own thread ("reel.cinematic.capture") into a short queue
/// (``realTimeSlack``); the thread that calls ``run(_:)`` converts, processes and delivers. In
/// real time, when the camera's work falls behind, the oldest waiting picture is dropped
/// (counted in ``droppedPictures``, never audio); with `realTime` false (a file as fast as it
/// goes) capture waits instead and nothing is dropped. In real time each converted picture is
/// offered to the vision and held until a look at or after it exists (``LookHold``, at most
/// 0.4 s), so it is rendered with the looks on either side of it rather than an older one
/// carried forward; every held picture goes on when the source ends.
public final class CinematicSource: CaptureSource, @unchecked Sendable {
    /// The source seen through the camera.
    public let inner: any CaptureSource
    /// The camera (its controls may be used while the source runs).
    public let camera: CinematicCamera
    private let realTime: Bool
    private let renders: Bool
    private let onFrame: @Sendable (CinematicFrame) -> Void
    private let dropped = Locked(0)
    private let stills = HandOff<VideoFrame>()
    private let rate = Locked(VisionRate())

    /// `inner` seen through `camera`; `onFrame` hears every processed picture (on the thread
    /// that called ``run(_:)``, just before the picture is delivered). With `renders` false the
    /// pictures are delivered unblurred (the camera still decides; an editable recording).
    public init(_ inner: any CaptureSource, camera: CinematicCamera, realTime: Bool = true, renders: Bool = true,
                onFrame: @escaping @Sendable (CinematicFrame) -> Void = { _ in }) {
        self.inner = inner
        self.camera = camera
        self.realTime = realTime
        self.renders = renders
        self.onFrame = onFrame
    }

    /// Samples that may wait in real time before the oldest is dropped: about a quarter second of
    /// 30 fps pictures (and their sound), so a burst of work (the encoder, a look) is caught up
    /// instead of dropped; a camera that is behind for longer still loses pictures, counted.
    public static let realTimeSlack = 8

    /// The inner source's format, at an even size (the pictures are converted to yuv420p).
    public var format: CaptureFormat {
        var format = inner.format
        format.width = max(2, format.width & ~1)
        format.height = max(2, format.height & ~1)
        return format
    }

    public var name: String { inner.name + " (cinematic)" }

    /// Pictures dropped because the camera's work was behind real time.
    public var droppedPictures: Int { dropped.withLock { $0 } }

    /// The fewest looks a second the vision was slowed to (15 when it never was).
    public var lowestVisionRate: Double { rate.withLock { $0.lowest } }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        let queue = ConsumerQueue<CaptureSample>(name: "cinematic", capacity: realTime ? Self.realTimeSlack : 4,
                                                 policy: realTime ? .dropOldest : .neverDrop) { $0.isDroppable }
        let inner = self.inner, dropped = self.dropped
        let capture = WorkerThread.run(name: "reel.cinematic.capture") {
            defer { queue.close() }
            try inner.run { sample in
                if queue.push(sample) == .enqueuedDroppingOldest { dropped.withLock { $0 += 1 } }
            }
        }
        defer {
            inner.stop()
            queue.cancel()
            capture.join()
            camera.stop()
        }
        let size = format
        let converter = PictureConverter(width: size.width, height: size.height)
        let holds = realTime && camera.looksOnItsOwnThread
        // In real time each picture waits here, offered to the vision, until a look at or
        // after it exists (``LookHold``); the sound between waits with it, in order.
        var held: [CaptureSample] = []
        var newestPicture = MediaTime.zero
        defer {
            // Whatever ended the run, the pictures already taken go on, with the looks there are.
            if !held.isEmpty { try? release(&held, newestPicture: newestPicture, ended: true, converter, deliver) }
        }
        while let sample = queue.pop() {
            guard case let .video(frame) = sample else {
                if held.isEmpty { try deliver(sample) } else { held.append(sample) }
                continue
            }
            let picture = try converter.convert(frame)
            if realTime { ease(at: picture.captureTime) }
            guard holds else {
                try render(picture, converter, deliver)
                continue
            }
            try camera.offer(picture)
            held.append(.video(picture))
            newestPicture = picture.captureTime
            try release(&held, newestPicture: newestPicture, ended: false, converter, deliver)
        }
        try release(&held, newestPicture: newestPicture, ended: true, converter, deliver)
        if let error = capture.error { throw error }
    }

    /// Renders and delivers the held pictures that are due (``LookHold/isDue``), from the
    /// oldest, with the sound between them; stops at the first that is not.
    private func release(_ held: inout [CaptureSample], newestPicture: MediaTime, ended: Bool, _ converter: PictureConverter,
                         _ deliver: (CaptureSample) throws -> Void) throws {
        while let head = held.first {
            if case let .video(picture) = head {
                let time = picture.captureTime
                guard LookHold.isDue(picture: time, newestLook: camera.hasLook(atOrAfter: time) ? time : nil,
                                     newestPicture: newestPicture, ended: ended) else { return }
                held.removeFirst()
                try render(picture, converter, deliver)
            } else {
                held.removeFirst()
                try deliver(head)
            }
        }
    }

    /// Processes `picture` through the camera, offers it as a still and delivers it.
    private func render(_ picture: VideoFrame, _ converter: PictureConverter, _ deliver: (CaptureSample) throws -> Void) throws {
        let result = try camera.process(picture, render: renders)
        onFrame(result)
        // A still that cannot be drawn waits for the next picture; the recording goes on.
        try? stills.offer {
            if renders { return picture }
            let copy = try converter.convert(picture)
            try camera.render(copy, as: result)
            return copy
        }
        try deliver(.video(picture))
    }

    public func stop() { inner.stop() }

    /// The degradation policy (``VisionRate``): while pictures are dropped the vision looks less
    /// often, and more often again once they keep up.
    private func ease(at time: MediaTime) {
        let count = droppedPictures
        let changed = rate.withLock { rate -> Double? in rate.update(dropped: count, at: time) ? rate.looksPerSecond : nil }
        if let changed { camera.setVisionRate(changed) }
    }

    /// The next picture with the blur (a rendered copy when the pictures go on unblurred), or
    /// nil when none comes within `timeout` seconds: a still (any thread).
    public func still(timeout: Double) -> VideoFrame? { stills.next(timeout: timeout) }
}

extension CinematicFrame {
    /// One status line: the subjects (the focused one marked, * strong), the focus, the
    /// aperture and the light warning. "subjects 1 face* 2 face · focus subject 1 (strong) at
    /// 1.2 m · f/2.8 · NOT ENOUGH LIGHT".
    public var statusText: String {
        let list = subjects.isEmpty ? "none" : subjects.map { subject in
            let focused = decision.target == .subject(subject.id)
            return "\(subject.id) \(subject.kind.label)" + (focused ? (decision.mode == .strong ? "**" : "*") : "")
        }.joined(separator: " ")
        var focus: String
        switch decision.target {
        case nil: focus = decision.mode == .none ? "none" : "waiting for a subject"
        case let .subject(id)?: focus = "subject \(id) (\(decision.mode.rawValue))"
        case let .point(x, y)?: focus = String(format: "near %.2f,%.2f (%@)", x, y, decision.mode.rawValue)
        case let .fixed(x, y, _)?: focus = String(format: "fixed at %.2f,%.2f", x, y)
        }
        if let focalDioptres { focus += focalDioptres > 0 ? String(format: " at %.2f m", 1 / focalDioptres) : " at infinity" }
        let eased = visionRate.flatMap { $0 < VisionRate.steps[0] - 0.01 ? String(format: " · vision %g/s (behind real time)", $0) : nil } ?? ""
        return "subjects \(list) · focus \(focus) · \(aperture)" + (lowLight ? " · NOT ENOUGH LIGHT" : "") + eased
    }
}

extension SubjectKind {
    /// A word for reports: "face", "body", "cat".
    public var label: String {
        switch self {
        case .face: "face"
        case .upperBody: "body"
        case .catFace: "cat"
        }
    }
}
