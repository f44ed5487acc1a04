import Foundation
import ReelCore
import ReelMedia
import ReelRuntime
import ReelVision

/// What `reel cinematic --output FILE` records.
public struct CinematicRecordingSettings: Sendable {
    /// The capture source.
    public var source: SourceSpec
    /// The MP4 to write (must not exist).
    public var output: String
    /// The aperture to start with.
    public var aperture: Aperture
    /// Where the focus starts.
    public var focus: FocusStart
    /// Stop after this many seconds of pictures (nil: until the source ends or a stop).
    public var duration: Double?
    /// A file source as fast as it can be processed (nothing dropped) instead of in real time.
    public var fast: Bool
    /// Where the models are.
    public var models: VisionModels
    /// Keep the video unblurred and write the layers and decisions beside it
    /// (``CinematicSidecarWriter/path(forVideo:)``), so `reel refocus` can change the focus later.
    public var editable = false

    /// Settings.
    public init(source: SourceSpec, output: String, aperture: Aperture = .standard, focus: FocusStart = .automatic,
                duration: Double? = nil, fast: Bool = false, models: VisionModels = .current()) {
        self.source = source
        self.output = output
        self.aperture = aperture
        self.focus = focus
        self.duration = duration
        self.fast = fast
        self.models = models
    }
}

/// How a cinematic recording went.
public struct CinematicRecordingReport: Sendable {
    /// Pictures written.
    public var pictures = 0
    /// Pictures dropped because the camera's work was behind real time.
    public var dropped = 0
    /// The fewest looks a second the vision was slowed to (``VisionRate``; 15 when never).
    public var lowestVisionRate = VisionRate.steps[0]
    /// The length written, in seconds.
    public var seconds = 0.0
    /// Why it could not start or stopped early; nil when it ended as asked.
    public var error: String?
    /// Why it stopped (a signal, the duration, the source's end).
    public var stopReason: String?
    /// Whether the file holds what was recorded (even after an error, every fragment written stays).
    public var wroteFile = false
}

/// Why a cinematic recording has nothing to keep.
public struct CinematicRecordingError: Error, CustomStringConvertible {
    public let description: String

    /// The source ended (or a stop came) before its first picture: it holds no video Reel can
    /// decode, or the recording was stopped at once.
    init(noPicturesFrom source: SourceSpec, stop: String?) {
        description = stop.map { "\($0) before the first picture: no pictures; nothing was written" }
            ?? "\(source) gave no pictures (it holds no video Reel can decode); nothing was written"
    }
}

/// `reel cinematic --output FILE`: a source seen through the cinematic camera, encoded to
/// H.264 (+ AAC when the source has sound) in a fragmented MP4, so a crash or a full disk keeps
/// every fragment written. Prepare (models, camera, source, writer) → run the source until
/// the duration, its end or a stop → finish the file.
public final class CinematicRecording: @unchecked Sendable {
    /// The settings.
    public let settings: CinematicRecordingSettings
    private let onFrame: @Sendable (CinematicFrame) -> Void
    private let onInfo: @Sendable (String) -> Void
    private let running = Locked<CinematicSource?>(nil)
    private let stopReason = Locked<String?>(nil)
    private let finished = Locked(false)

    /// A recording; `onFrame` hears each picture's result, `onInfo` what the recording says.
    public init(settings: CinematicRecordingSettings, onFrame: @escaping @Sendable (CinematicFrame) -> Void = { _ in },
                onInfo: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        self.onFrame = onFrame
        self.onInfo = onInfo
    }

    private let latest = Locked<CinematicFrame?>(nil)

    /// The camera, once the recording runs (for the controls).
    public var camera: CinematicCamera? { running.withLock { $0?.camera } }

    /// The source seen through the camera, once the recording runs (for the controls and stills).
    public var source: CinematicSource? { running.withLock { $0 } }

    /// Whether ``run()`` has returned (or could not start).
    public var isFinished: Bool { finished.withLock { $0 } }

    /// Asks the recording to stop cleanly (any thread).
    public func requestStop(reason: String) {
        stopReason.withLock { $0 = $0 ?? reason }
        running.withLock { $0?.stop() }
    }

    /// Records; returns when the file is closed.
    public func run() -> CinematicRecordingReport {
        defer { finished.withLock { $0 = true } }
        var report = CinematicRecordingReport()
        let source: CinematicSource, clip: CinematicClipWriter
        do {
            (source, clip) = try prepare()
        } catch {
            report.error = ErrorSentence.reason(error)
            return report
        }
        running.withLock { $0 = source }
        if let reason = stopReason.withLock({ $0 }) { source.stop(); report.stopReason = reason }
        do {
            try record(source, into: clip)
            guard clip.pictures > 0 else { throw CinematicRecordingError(noPicturesFrom: settings.source, stop: stopReason.withLock { $0 }) }
            try clip.finish()
        } catch {
            report.error = ErrorSentence.reason(error)
            clip.abandon()
            if !clip.holdsPictures {
                clip.remove()
                report.error = report.error.map { $0.hasSuffix("nothing was written") ? $0 : $0 + "; nothing was written" }
            }
        }
        running.withLock { $0 = nil }
        report.pictures = clip.pictures
        report.seconds = clip.seconds
        report.dropped = source.droppedPictures
        report.lowestVisionRate = source.lowestVisionRate
        report.stopReason = stopReason.withLock { $0 } ?? report.stopReason ?? "the source ended"
        report.wroteFile = report.pictures > 0 && clip.holdsPictures
        return report
    }

    private func prepare() throws -> (CinematicSource, CinematicClipWriter) {
        let camera = try CinematicCamera.make(models: settings.models, aperture: settings.aperture, focus: settings.focus,
                                              pace: settings.fast ? .everyPicture : .ownThread, onInfo: onInfo)
        let inner = try CaptureSources.open(settings.source, realTime: !settings.fast)
        let onFrame = self.onFrame, latest = self.latest
        let source = CinematicSource(inner, camera: camera, realTime: !settings.fast, renders: !settings.editable) { frame in
            latest.withLock { $0 = frame }
            onFrame(frame)
        }
        do {
            return (source, try CinematicClipWriter(path: settings.output, format: source.format, editable: settings.editable))
        } catch {
            inner.stop()
            throw error
        }
    }

    /// Runs the source into the clip, the duration counted in pictures' time.
    private func record(_ source: CinematicSource, into clip: CinematicClipWriter) throws {
        let duration = settings.duration
        try source.run { sample in
            let pts = clip.time(of: sample.captureTime)
            if let duration, pts.seconds >= duration {
                if case .video = sample { requestStop(reason: "the duration was reached") }
                return
            }
            switch sample {
            case let .video(frame): try clip.appendVideo(frame, pts: pts, result: latest.withLock { $0 })
            case let .audio(block): try clip.appendAudio(block, pts: pts)
            }
        }
    }
}
