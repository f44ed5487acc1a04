import Foundation
import ReelCore
import ReelRuntime
import ReelMedia
import ReelPrivacy
import ReelVision

/// One `reel live` run: capture → fan-out → (live HLS branch → publisher) + (archive branch).
///
/// The source runs on its own thread and pushes into the fan-out; each branch runs on its
/// fan-out consumer thread behind its own bounded queue (live and archive: with a real-time
/// source, the oldest video frame goes under overload, counted — capture never waits; with
/// `--fast`, nothing is dropped and capture waits). A failing live path never stops the
/// archive; a failing source ends the run, keeping what was recorded. While capturing, a
/// ``LiveSupervisor`` on the clock's ticks shows the status and ends a run whose source went
/// quiet past its duration.
public final class LiveSession: Sendable {
    /// The validated settings.
    public let settings: LiveSettings
    private let reporter: LiveReporter
    private let clock: any PipelineClock
    private let decorate: @Sendable (any CaptureSource) throws -> any CaptureSource
    private let stopSignal = StopSignal()
    private let runningSource = Locked<(any CaptureSource)?>(nil)

    /// A session for `settings`, reporting to `reporter`; its supervision ticks on `clock`.
    /// `decorate` wraps the source once it is open (the cinematic camera's `CinematicSource`
    /// streams its pictures with the blur baked in); by default the source is used as it is.
    public init(settings: LiveSettings, reporter: LiveReporter, clock: any PipelineClock = RealClock(),
                decorate: @escaping @Sendable (any CaptureSource) throws -> any CaptureSource = { $0 }) {
        self.settings = settings
        self.reporter = reporter
        self.clock = clock
        self.decorate = decorate
        stopSignal.onStop { [runningSource] _ in runningSource.withLock { $0?.stop() } }
    }

    /// Asks the run to stop cleanly (from a signal handler or another thread).
    public func requestStop(reason: String) {
        stopSignal.request(reason)
    }

    /// What ``prepare(_:)`` made: the source open, the publisher checked and started, the
    /// encoders ready.
    private struct Prepared: Sendable {
        let source: any CaptureSource
        let publisher: LivePublisher
        let preset: QualityPreset
        let liveSize: VideoDimensions
        let hls: HLSBranch
        let archive: ArchiveBranch?
        /// With `--privacy`: where pictures wait for their faces before the encoders.
        let gate: LivePrivacyGate?
    }

    /// What ``start(_:)`` set going.
    private struct Running: Sendable {
        let prepared: Prepared
        let fanOut: FanOut<CaptureSample, LiveBranchID>
        let liveQueue: ConsumerQueue<CaptureSample>
        let archiveQueue: ConsumerQueue<CaptureSample>?
        /// With `--privacy-archive`: the archive's branch behind the privacy gate.
        let coveredFanOut: FanOut<CaptureSample, LiveBranchID>?
        let captureDone: WorkerThread
        let lastSample: Locked<MediaTime?>
        let started: MediaTime
    }

    /// Runs until the duration is reached, the source ends, or a stop is requested.
    public func run() async -> LiveReport {
        var report = LiveReport()
        report.archivePath = settings.archivePath
        report.privacy = settings.privacy
        guard let prepared = await prepare(&report) else {
            report.archivePath = nil
            reporter.finished(report)
            return report
        }
        report.started = true
        let running = start(prepared)
        await supervise(running, &report)
        await finish(running, &report)
        reporter.finished(report)
        return report
    }

    /// The source (opened first, so a missing file or camera fails before anything else), the
    /// quality (fixed, or measured against the origin), the publisher, the live encoder and
    /// the archive (a failing archive is disabled with a warning; the stream goes on). Nil,
    /// with the error in the report, when the stream cannot start.
    private func prepare(_ report: inout LiveReport) async -> Prepared? {
        let detector: (any FaceDetector)?
        do {
            detector = try makeFaceDetector()
        } catch {
            report.privacyError = "\(error)"
            return nil
        }
        let source: any CaptureSource
        do {
            let opened = try CaptureSources.open(settings.source, realTime: !settings.fast)
            do {
                source = try decorate(opened)
            } catch {
                opened.stop()
                throw error
            }
        } catch {
            report.sourceError = ErrorSentence.reason(error)
            return nil
        }
        let preset: QualityPreset, publisher: LivePublisher
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
            try await publisher.claimStreamID()
        } catch {
            source.stop()
            report.liveError = ErrorSentence.reason(error)
            return nil
        }
        let liveSize = preset.dimensions(settings.landscape ? .landscape : .portrait)
        let hls: HLSBranch
        do {
            hls = try makeLiveBranch(format: source.format, preset: preset, size: liveSize, publisher: publisher)
        } catch {
            source.stop()
            report.liveError = "\(error)"
            return nil
        }
        let archive = makeArchive(format: source.format, &report)
        let gate: LivePrivacyGate?
        do {
            gate = try detector.map { try makeGate(detector: $0, format: source.format, liveSize: liveSize) }
        } catch {
            source.stop()
            report.privacyError = "\(error)"
            return nil
        }
        return Prepared(source: source, publisher: publisher, preset: preset, liveSize: liveSize, hls: hls, archive: archive, gate: gate)
    }

    /// With `--privacy`: the export's face detector (CenterFace; no weaker fallback, since a
    /// face it misses is streamed), or why it cannot run. Nil without `--privacy`.
    private func makeFaceDetector() throws -> (any FaceDetector)? {
        guard settings.privacy != nil else { return nil }
        let models = VisionModels.current()
        do {
            return try CenterFaceDetector(modelPath: models.centerFaceModel, settings: .live)
        } catch {
            guard case let .modelMissing(path, _) = error else { throw LiveStartError(description: "\(error)") }
            throw LiveStartError(description: "--privacy needs the CenterFace model, which is not installed (\(path)); run `make setup` "
                                 + "(scripts/fetch-model.sh fetches it). Nothing was streamed")
        }
    }

    /// The privacy gate for pictures of the live size (a ladder's largest rung).
    private func makeGate(detector: any FaceDetector, format: CaptureFormat, liveSize: VideoDimensions) throws -> LivePrivacyGate {
        let sizes = settings.ladder?.oriented(settings.landscape ? .landscape : .portrait).map(\.size) ?? [liveSize]
        let size = sizes.max { $0.width * $0.height < $1.width * $1.height } ?? liveSize
        let covers = try FaceCovers(masks: settings.privacy == .mask)
        return LivePrivacyGate(detector: detector, covers: covers, width: size.width, height: size.height,
                               framesPerSecond: format.framesPerSecond, waitsForDetections: settings.fast) { [self] reason in
            requestStop(reason: reason)
        }
    }

    /// The live encoders and segmenters (one per rung of a ladder), and the publisher started
    /// with the target duration.
    private func makeLiveBranch(format: CaptureFormat, preset: QualityPreset, size: VideoDimensions,
                                publisher: LivePublisher) throws(LiveStartError) -> HLSBranch {
        let fps = Int(format.framesPerSecond.rounded())
        let hls: HLSBranch
        do {
            let sinks = try publisher.makeSinks(framesPerSecond: format.framesPerSecond)
            let rungs = settings.ladder?.oriented(settings.landscape ? .landscape : .portrait)
                ?? [Ladder.Rung(name: preset.rawValue, size: size, videoBitsPerSecond: preset.videoBitsPerSecond,
                                audioBitsPerSecond: preset.audioBitsPerSecond)]
            let renditions = zip(rungs, sinks).map { rung, sink in
                HLSBranch.Rendition(
                    video: VideoEncoderSettings(codec: .h264, width: rung.size.width, height: rung.size.height, framesPerSecond: fps,
                                                bitRate: rung.videoBitsPerSecond, preset: .veryfast, keyFramesOnDemand: true, zeroLatency: true),
                    audio: format.audio == nil ? nil : AudioEncoderSettings(channels: min(format.audio?.channels ?? 0, 2),
                                                                             bitRate: rung.audioBitsPerSecond),
                    sink: sink)
            }
            hls = try HLSBranch(renditions: renditions, segmentInterval: MediaTime(seconds: settings.segmentSeconds, timescale: 90_000),
                                frameDuration: format.frameDuration,
                                partInterval: settings.partSeconds.map { MediaTime(seconds: $0, timescale: 90_000) },
                                clock: CaptureClockMap(capture: MonotonicClock.now(), date: Date()))
        } catch {
            throw LiveStartError(description: "cannot start the live encoder: \(ErrorSentence.reason(error))")
        }
        do {
            try publisher.start(targetDuration: hls.targetDuration, partTarget: hls.partTarget)
        } catch {
            throw LiveStartError(description: "cannot start publishing: \(ErrorSentence.reason(error))")
        }
        return hls
    }

    /// The archive branch, when one is asked for; nil (with the reason in the report and a
    /// warning) when it cannot start.
    private func makeArchive(format: CaptureFormat, _ report: inout LiveReport) -> ArchiveBranch? {
        guard let path = settings.archivePath else { return nil }
        let archiveSettings = ArchiveSettings.default
        let size = archiveSettings.dimensions(settings.landscape ? .landscape : .portrait)
        let fps = Int(format.framesPerSecond.rounded())
        do {
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            return try ArchiveBranch(
                path: path,
                video: VideoEncoderSettings(codec: .hevc, width: size.width, height: size.height, framesPerSecond: fps,
                                            bitRate: archiveSettings.videoBitsPerSecond, preset: settings.archivePreset,
                                            keyFrameInterval: 2 * fps),
                audio: format.audio == nil ? nil : AudioEncoderSettings(channels: min(format.audio?.channels ?? 0, 2),
                                                                         bitRate: archiveSettings.audioBitsPerSecond),
                frameDuration: format.frameDuration)
        } catch {
            report.archiveError = "cannot start the archive \(path): \(ErrorSentence.describe(error)); choose another --archive, or --no-archive"
            report.archivePath = nil
            reporter.warning("archive disabled: \(ErrorSentence.reason(error))")
            return nil
        }
    }

    /// Says what is streamed where, starts the fan-out's branches and the capture thread.
    private func start(_ prepared: Prepared) -> Running {
        let source = prepared.source
        let (branches, liveQueue, archiveQueue, covered) = makeBranches(prepared, format: source.format)
        let fanOut = FanOut(branches: branches)
        covered?.start()
        fanOut.start()
        reporter.info("source: \(source.name)")
        reporter.info("stream: \(settings.streamID) — \(renditionsLine(prepared)), "
                      + "\(settings.segmentSeconds.formatted3.dropLast(2)) s segments"
                      + (prepared.hls.partTarget.map { ", LL-HLS parts of at most \($0.seconds.formatted3) s" } ?? ""))
        for line in prepared.publisher.playlistLocations { reporter.info("playlist: \(line)") }
        if let archive = prepared.archive { reporter.info("archive: \(archive.path)") }
        if let privacy = settings.privacy {
            reporter.info("faces: \(privacy.rawValue), found and covered before encoding; each picture waits up to 1 s for its detections; "
                          + (prepared.archive == nil ? "no archive"
                             : settings.privacyArchive ? "the archive is covered too" : "the archive keeps the picture as captured (--privacy-archive covers it too)"))
        }
        runningSource.withLock { $0 = source }
        if stopSignal.isRequested { source.stop() }
        let lastSample = Locked<MediaTime?>(nil)
        let captureDone = WorkerThread.run(name: "reel.capture") { [settings, clock] in
            var first: MediaTime?
            try source.run { sample in
                if first == nil { first = sample.captureTime }
                if let limit = settings.duration, (sample.captureTime - first!).seconds >= limit {
                    source.stop()
                    return
                }
                lastSample.withLock { $0 = clock.now() }
                fanOut.push(sample)
            }
        }
        return Running(prepared: prepared, fanOut: fanOut, liveQueue: liveQueue, archiveQueue: archiveQueue,
                       coveredFanOut: covered, captureDone: captureDone, lastSample: lastSample, started: clock.now())
    }

    /// While capturing: the ``LiveSupervisor``'s rules on the clock's ticks. Returns when the
    /// capture thread has ended.
    private func supervise(_ running: Running, _ report: inout LiveReport) async {
        let supervisor = Locked(LiveSupervisor(startedAt: running.started, duration: settings.fast ? nil : settings.duration))
        let ticker = clock.every(MediaTime(value: 1, timescale: 10), name: "reel.live.watch") { [self] now in
            let lastSample = running.lastSample.withLock { $0 }
            for action in supervisor.withLock({ $0.tick(now: now, lastSample: lastSample) }) {
                switch action {
                case .reportStatus(let elapsed): reporter.status(status(elapsed: elapsed, running))
                case .stopQuietSource: requestStop(reason: "the source went quiet past the duration")
                }
            }
        }
        await running.captureDone.wait()
        ticker.stop()
        runningSource.withLock { $0 = nil }
        if let error = running.captureDone.error { report.sourceError = ErrorSentence.reason(error) }
        report.elapsed = (clock.now() - running.started).seconds
    }

    /// After the capture: drain the queues, finish the writers, publish the rest, close the
    /// archive.
    private func finish(_ running: Running, _ report: inout LiveReport) async {
        var reports = running.fanOut.finish()
        finishGate(running, reports[.live]?.failure == nil, &report)
        if let covered = running.coveredFanOut { reports.merge(covered.finish()) { $1 } }
        reportLadderLoad(running.prepared.hls, &report)
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
            do { try running.prepared.hls.finish() } catch { report.liveError = "finishing the live stream failed: \(ErrorSentence.reason(error))" }
        }
        if let archive = running.prepared.archive { finishArchive(archive, &report) }
        let outcome = await running.prepared.publisher.finish()
        report.segmentsPublished = outcome.published
        report.segmentsProduced = outcome.produced
        report.targets = outcome.targets
        if let error = outcome.error, report.liveError == nil { report.liveError = error }
    }

    /// With `--privacy`: lets the pictures still waiting go (covered) to the encoders, and
    /// notes what the detection did.
    private func finishGate(_ running: Running, _ liveRan: Bool, _ report: inout LiveReport) {
        guard let gate = running.prepared.gate else { return }
        let hls = running.prepared.hls, covered = running.coveredFanOut
        do {
            try gate.finish { sample in
                _ = covered?.push(sample)
                if liveRan { try hls.handle(sample) }
            }
        } catch {
            if report.liveError == nil { report.liveError = "live encoder failed: \(ErrorSentence.reason(error))" }
        }
        report.privacyDetections = gate.detections
        report.privacyLatePictures = gate.widenedPictures
        report.privacyWholePictures = gate.wholePictures
        if let failure = gate.failure { report.privacyError = failure }
    }

    /// What the ladder's load policy did, in the rungs' names and the stream's time.
    private func reportLadderLoad(_ hls: HLSBranch, _ report: inout LiveReport) {
        guard let load = hls.load, let ladder = settings.ladder, !load.events.isEmpty else { return }
        let names = ladder.rungs.map(\.name), start = hls.startPTS ?? .zero
        func every(_ factor: Int) -> String { factor == 1 ? "every frame" : factor == 2 ? "every 2nd frame" : "every \(factor)th frame" }
        report.ladderRateChanges = load.events.map { event in
            switch event {
            case let .thinned(at, rung, factor): "from \(at - start): \(names[rung]) takes a new picture \(every(factor)), repeating the one before in between"
            case let .restored(at, rung, factor): "from \(at - start): \(names[rung]) takes a new picture \(every(factor)) again"
            }
        }
        report.ladderRepeatedPictures = zip(names, load.repeated).filter { $1 > 0 }.map { "\($0): \($1) pictures repeated" }
    }

    /// Closes the archive (or abandons it after a failure) and notes what it holds.
    private func finishArchive(_ archive: ArchiveBranch, _ report: inout LiveReport) {
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

    /// The fan-out's branches: the live queue drops its oldest video frame when the HLS encoder
    /// falls behind; the archive's does too, as the last resort after ``ArchiveRatePolicy``, so
    /// a real-time source never waits for the archive (with a camera, capture that waits is
    /// frames lost at the source, and the burst after it overflows the live queue). Audio is
    /// never dropped. With `--fast` every queue waits: waiting for the encoders is the point.
    /// Both queues are bounded in bytes as well as items (``BranchQueueBounds``).
    /// With `--privacy` the live branch passes every sample through the gate first; with
    /// `--privacy-archive` too, the archive's branch takes the gate's covered samples instead
    /// of the captured ones (a fan-out of its own behind the gate).
    private func makeBranches(_ prepared: Prepared, format: CaptureFormat)
        -> (branches: [FanOut<CaptureSample, LiveBranchID>.Branch], live: ConsumerQueue<CaptureSample>, archive: ConsumerQueue<CaptureSample>?,
            covered: FanOut<CaptureSample, LiveBranchID>?) {
        let hls = prepared.hls, archive = prepared.archive
        let policy: ConsumerQueue<CaptureSample>.Policy = settings.fast ? .neverDrop : .dropOldest
        func bounds(seconds: Double) -> BranchQueueBounds {
            .holding(seconds: seconds, fast: settings.fast, framesPerSecond: max(format.framesPerSecond, 1),
                     width: format.width, height: format.height)
        }
        let liveQueue = bounds(seconds: BranchQueueBounds.liveSeconds).queue(name: LiveBranchID.live.rawValue, policy: policy)
        if !settings.fast { hls.queueLoad = { liveQueue.load } }
        var covered: FanOut<CaptureSample, LiveBranchID>?
        var archiveQueue: ConsumerQueue<CaptureSample>?
        var archiveBranch: [FanOut<CaptureSample, LiveBranchID>.Branch] = []
        if let archive {
            let queue = bounds(seconds: BranchQueueBounds.archiveSeconds).queue(name: LiveBranchID.archive.rawValue, policy: policy)
            if !settings.fast { archive.queueLoad = { queue.load } }
            archiveBranch = [.init(id: .archive, queue: queue) { sample in try archive.handle(sample) }]
            archiveQueue = queue
            if prepared.gate != nil && settings.privacyArchive { covered = FanOut(branches: archiveBranch) }
        }
        let live: FanOut<CaptureSample, LiveBranchID>.Branch
        if let gate = prepared.gate {
            live = .init(id: .live, queue: liveQueue) { [covered] sample in
                try gate.handle(sample) { out in
                    _ = covered?.push(out)
                    try hls.handle(out)
                }
            }
        } else {
            live = .init(id: .live, queue: liveQueue) { sample in try hls.handle(sample) }
        }
        return ([live] + (covered == nil ? archiveBranch : []), liveQueue, archiveQueue, covered)
    }

    /// `medium 720x1280`, or the ladder's rungs: `ladder high 720x1280 2500 kbps, low 480x854 900 kbps`.
    private func renditionsLine(_ prepared: Prepared) -> String {
        guard let ladder = settings.ladder else { return "\(prepared.preset) \(prepared.liveSize.width)x\(prepared.liveSize.height)" }
        return "ladder " + ladder.oriented(settings.landscape ? .landscape : .portrait).map { rung in
            "\(rung.name) \(rung.size.width)x\(rung.size.height) \(rung.videoBitsPerSecond / 1000) kbps"
        }.joined(separator: ", ")
    }

    private func status(elapsed: Double, _ running: Running) -> LiveStatus {
        let stats = running.prepared.publisher.snapshot()
        return LiveStatus(elapsed: elapsed, segmentsPublished: stats.published, segmentsProduced: stats.produced,
                          backlog: stats.backlog, droppedFrames: running.liveQueue.stats.dropped, bitRate: stats.bitRate,
                          failedAttempts: stats.failedAttempts, archiveFrames: running.prepared.archive?.framesWritten,
                          archiveBacklog: running.archiveQueue?.stats.depth ?? 0,
                          archiveSkippedFrames: (running.prepared.archive?.framesLeftOut ?? 0) + (running.archiveQueue?.stats.dropped ?? 0),
                          privacyLatePictures: running.prepared.gate?.counts.late ?? 0,
                          privacyWholePictures: running.prepared.gate?.counts.whole ?? 0,
                          privacyFailed: running.prepared.gate?.counts.failed ?? false)
    }
}

/// Why a live stream could not start (the live encoder or the publisher), as the report says it.
struct LiveStartError: Error, CustomStringConvertible {
    let description: String
}
