import Foundation
import ReelCore
import ReelRuntime
import ReelMedia
import Synchronization

/// One `reel live` run: capture → fan-out → (live HLS branch → publisher) + (archive branch).
///
/// The source runs on its own thread and pushes into the fan-out; each branch runs on its
/// fan-out consumer thread behind its own bounded queue (live: drop the oldest video frame
/// under overload and count it; archive: never drop, the producer waits). A failing live
/// path never stops the archive; a failing source ends the run, keeping what was recorded.
public final class LiveSession: Sendable {
    /// The validated settings.
    public let settings: LiveSettings
    private let reporter: LiveReporter
    private let stopReason = Mutex<String?>(nil)
    private let runningSource = Mutex<(any CaptureSource)?>(nil)

    /// A session for `settings`, reporting to `reporter`.
    public init(settings: LiveSettings, reporter: LiveReporter) {
        self.settings = settings
        self.reporter = reporter
    }

    /// Asks the run to stop cleanly (from a signal handler or another thread).
    public func requestStop(reason: String) {
        stopReason.withLock { if $0 == nil { $0 = reason } }
        runningSource.withLock { $0?.stop() }
    }

    private var isStopRequested: Bool { stopReason.withLock { $0 != nil } }

    /// Runs until the duration is reached, the source ends, or a stop is requested.
    public func run() async -> LiveReport {
        var report = LiveReport()
        report.archivePath = settings.archivePath
        // 1. The source: opened first, so a missing file or camera fails before anything else.
        let source: any CaptureSource
        do {
            source = try CaptureSources.open(settings.source, realTime: !settings.fast)
        } catch {
            report.sourceError = ErrorSentence.reason(error)
            report.archivePath = nil
            reporter.finished(report)
            return report
        }
        let format = source.format
        // 2. Quality: fixed, or measured against the origin.
        let orientation: VideoDimensions.Orientation = settings.landscape ? .landscape : .portrait
        let preset: QualityPreset
        let publisher: LivePublisher
        do {
            publisher = try LivePublisher(settings: settings, reporter: reporter)
            switch settings.quality {
            case .preset(let chosen): preset = chosen
            case .auto:
                let pick = try await publisher.measureUplink()
                reporter.info("uplink: \(pick)")
                preset = pick.preset
            }
            try await publisher.checkOrigin()
        } catch {
            report.liveError = ErrorSentence.reason(error)
            report.archivePath = nil
            reporter.finished(report)
            return report
        }
        let fps = Int(format.framesPerSecond.rounded())
        let liveSize = preset.dimensions(orientation)
        let liveVideo = VideoEncoderSettings(codec: .h264, width: liveSize.width, height: liveSize.height, framesPerSecond: fps,
                                             bitRate: preset.videoBitsPerSecond, preset: .veryfast, keyFramesOnDemand: true,
                                             zeroLatency: true)
        let channels = min(format.audio?.channels ?? 0, 2)
        let liveAudio = format.audio == nil ? nil : AudioEncoderSettings(channels: channels, bitRate: preset.audioBitsPerSecond)
        let clock = CaptureClockMap(capture: MonotonicClock.now(), date: Date())

        // 3. Branches.
        let hls: HLSBranch
        do {
            hls = try HLSBranch(video: liveVideo, audio: liveAudio, segmentInterval: MediaTime(seconds: settings.segmentSeconds, timescale: 90_000),
                                frameDuration: format.frameDuration, sink: publisher, clock: clock)
        } catch {
            report.liveError = "cannot start the live encoder: \(ErrorSentence.reason(error))"
            report.archivePath = nil
            reporter.finished(report)
            return report
        }
        do {
            try publisher.start(targetDuration: hls.targetDuration)
        } catch {
            report.liveError = "cannot start publishing: \(ErrorSentence.reason(error))"
            report.archivePath = nil
            reporter.finished(report)
            return report
        }
        var archive: ArchiveBranch?
        if let path = settings.archivePath {
            let archiveSettings = ArchiveSettings.default
            let size = archiveSettings.dimensions(orientation)
            do {
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                archive = try ArchiveBranch(
                    path: path,
                    video: VideoEncoderSettings(codec: .hevc, width: size.width, height: size.height, framesPerSecond: fps,
                                                bitRate: archiveSettings.videoBitsPerSecond, preset: settings.archivePreset,
                                                keyFrameInterval: 2 * fps),
                    audio: format.audio == nil ? nil : AudioEncoderSettings(channels: channels, bitRate: archiveSettings.audioBitsPerSecond),
                    frameDuration: format.frameDuration)
            } catch {
                report.archiveError = "cannot start the archive \(path): \(ErrorSentence.describe(error)); choose another --archive, or --no-archive"
                report.archivePath = nil
                reporter.warning("archive disabled: \(ErrorSentence.reason(error))")
            }
        }
        let (branches, liveQueue, archiveQueue) = makeBranches(hls: hls, archive: archive, format: format)
        let fanOut = FanOut(branches: branches)
        fanOut.start()

        // 4. Capture on its own thread until the end.
        reporter.info("source: \(source.name)")
        reporter.info("stream: \(settings.streamID) — \(preset) \(liveSize.width)x\(liveSize.height), \(settings.segmentSeconds.formatted3.dropLast(2)) s segments")
        for line in publisher.playlistLocations { reporter.info("playlist: \(line)") }
        if let archive { reporter.info("archive: \(archive.path)") }
        runningSource.withLock { $0 = source }
        if isStopRequested { source.stop() }
        report.started = true
        let started = MonotonicClock.now()
        let captureDone = WorkerThread.run(name: "reel.capture") { [settings] in
            var first: MediaTime?
            try source.run { sample in
                if first == nil { first = sample.captureTime }
                if let limit = settings.duration, (sample.captureTime - first!).seconds >= limit {
                    source.stop()
                    return
                }
                fanOut.push(sample)
            }
        }
        // 5. Status once a second while capturing.
        var lastStatus = started
        while !captureDone.isFinished {
            try? await Task.sleep(for: .milliseconds(100))
            let now = MonotonicClock.now()
            if (now - lastStatus).seconds >= 1 {
                lastStatus = now
                reporter.status(status(elapsed: (now - started).seconds, publisher: publisher, live: liveQueue,
                                       archive: archive, archiveQueue: archiveQueue))
            }
        }
        runningSource.withLock { $0 = nil }
        if let error = captureDone.error { report.sourceError = ErrorSentence.reason(error) }
        report.elapsed = (MonotonicClock.now() - started).seconds

        // 6. Stop: drain the queues, finish the writers, publish the rest, close the archive.
        let reports = fanOut.finish()
        if let branch = reports[.live] {
            report.droppedFrames = branch.stats.dropped
            if let failure = branch.failure { report.liveError = "live encoder failed: \(failure)" }
        }
        if let branch = reports[.archive] {
            report.archiveQueueDroppedFrames = branch.stats.dropped
            // With --fast, waiting for the slowest branch is the point, not a problem.
            if !settings.fast {
                report.archiveBackpressure = Double(branch.stats.producerWaitTime.components.seconds)
                    + Double(branch.stats.producerWaitTime.components.attoseconds) / 1e18
            }
            if let failure = branch.failure { report.archiveError = "archive failed: \(failure)" }
        }
        if report.liveError == nil {
            do { try hls.finish() } catch { report.liveError = "finishing the live stream failed: \(ErrorSentence.reason(error))" }
        }
        if let archive {
            if report.archiveError == nil {
                do { try archive.finish() } catch { report.archiveError = "finishing the archive failed: \(ErrorSentence.reason(error))" }
            } else {
                archive.abandon()
            }
            report.archiveDuration = archive.duration.seconds
            report.archiveFrames = archive.framesWritten
            report.archiveSkippedFrames = archive.degradation.skippedFrames + report.archiveQueueDroppedFrames
            report.archiveRateChanges = archive.degradation.events.map { event in
                switch event {
                case let .degraded(at, factor): "from \(at) of the archive: 1 frame in \(factor) (the encoder could not keep up)"
                case let .restored(at): "from \(at): every frame again"
                }
            }
        }
        let outcome = await publisher.finish()
        report.segmentsPublished = outcome.published
        report.segmentsProduced = outcome.produced
        report.targets = outcome.targets
        if let error = outcome.error, report.liveError == nil { report.liveError = error }
        reporter.finished(report)
        return report
    }

    /// The fan-out's branches: the live queue drops its oldest video frame when the HLS encoder
    /// falls behind; the archive's does too, as the last resort after ``ArchiveRatePolicy``, so
    /// a real-time source never waits for the archive (with a camera, capture that waits is
    /// frames lost at the source, and the burst after it overflows the live queue). Audio is
    /// never dropped. With `--fast` every queue waits: waiting for the encoders is the point.
    /// Both queues are bounded in bytes as well as items (``BranchQueueBounds``).
    private func makeBranches(hls: HLSBranch, archive: ArchiveBranch?, format: CaptureFormat)
        -> (branches: [FanOut<CaptureSample, LiveBranchID>.Branch], live: ConsumerQueue<CaptureSample>, archive: ConsumerQueue<CaptureSample>?) {
        let policy: ConsumerQueue<CaptureSample>.Policy = settings.fast ? .neverDrop : .dropOldest
        func bounds(seconds: Double) -> BranchQueueBounds {
            .holding(seconds: seconds, fast: settings.fast, framesPerSecond: max(format.framesPerSecond, 1),
                     width: format.width, height: format.height)
        }
        let liveQueue = bounds(seconds: BranchQueueBounds.liveSeconds).queue(name: LiveBranchID.live.rawValue, policy: policy)
        var branches: [FanOut<CaptureSample, LiveBranchID>.Branch] = [.init(id: .live, queue: liveQueue) { sample in try hls.handle(sample) }]
        guard let archive else { return (branches, liveQueue, nil) }
        let queue = bounds(seconds: BranchQueueBounds.archiveSeconds).queue(name: LiveBranchID.archive.rawValue, policy: policy)
        if !settings.fast { archive.queueLoad = { queue.load } }
        branches.append(.init(id: .archive, queue: queue) { sample in try archive.handle(sample) })
        return (branches, liveQueue, queue)
    }

    private func status(elapsed: Double, publisher: LivePublisher, live: ConsumerQueue<CaptureSample>,
                        archive: ArchiveBranch?, archiveQueue: ConsumerQueue<CaptureSample>?) -> LiveStatus {
        let stats = publisher.snapshot()
        return LiveStatus(elapsed: elapsed, segmentsPublished: stats.published, segmentsProduced: stats.produced,
                          backlog: stats.backlog, droppedFrames: live.stats.dropped, bitRate: stats.bitRate,
                          failedAttempts: stats.failedAttempts, archiveFrames: archive?.framesWritten,
                          archiveBacklog: archiveQueue?.stats.depth ?? 0)
    }
}
