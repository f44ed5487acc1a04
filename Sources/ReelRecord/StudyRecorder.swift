import Foundation
import ReelCore
import ReelRuntime
import ReelMedia
import ReelStore
import Synchronization

/// One `reel record` run (docs/behaviour.md §1, Study recorder):
/// capture → state machine (active clock, schedule) → writer (scale, H.264, fragmented MP4 in
/// progress, face samples, checkpoints) → on finish, a normal MP4 with moov first, a
/// thumbnail and the face track beside it.
///
/// Threads: the source runs on a capture thread, which asks the ``RecordingStateMachine``
/// about every frame and queues only the frames to write; the writer has its own thread
/// behind a bounded queue that never drops (the capture waits for it, which shows as
/// backpressure, not as lost frames); controls (keys, stdin lines, signals) and the
/// watchdog apply to the state machine behind one lock, from any thread.
///
/// Interruptions: a source that delivers nothing for ``RecordSettings/stallLimit`` makes the
/// recording *interrupted*; one that ends or fails (a camera unplugged) is reopened with
/// backoff until it delivers again or the user stops; a file source that ends finishes the
/// recording. Time without frames never counts.
public final class StudyRecorder: Sendable {
    /// The validated settings.
    public let settings: RecordSettings
    private let reporter: any RecordReporter
    private let makeTracker: @Sendable () -> any FaceTracker
    private let openSource: @Sendable (SourceSpec) throws -> any CaptureSource
    private let freeBytes: @Sendable (String) -> Int64?
    private let clock: any PipelineClock
    private let preview: PreviewBranch?

    /// What the capture thread, the controls and the supervisor share, behind one lock.
    private struct Core {
        var machine: RecordingStateMachine
        var lastFrameArrival: MediaTime?
        /// Frames handed to the writer's queue so far.
        var framesQueued = 0
        var interruptions = 0
        var branch: RecordingBranch?
    }
    private let core: Locked<Core>
    private let stopSignal = StopSignal()
    private let runningSource = Locked<(any CaptureSource)?>(nil)

    /// A recorder for `settings`. `tracker` makes the face tracker (none by default);
    /// `openSource` opens the capture (``CaptureSources/open(_:realTime:)`` by default; tests
    /// pass scripted sources); `freeBytes` measures the free space on the file system holding a
    /// path (statvfs by default; tests pass a scripted disk); `clock` is the time the watchdog,
    /// the schedules and the reopening run on (the monotonic clock; tests pass a
    /// ``VirtualClock`` their scripted source moves). `preview`, when given, is offered every
    /// captured frame (paused ones too) before the recording sees it: a branch that drops
    /// freely and never waits (``PreviewBranch``); the recorder starts and stops it.
    public init(settings: RecordSettings, reporter: any RecordReporter,
                tracker: @escaping @Sendable () -> any FaceTracker = { NoFaceTracker() },
                openSource: @escaping @Sendable (SourceSpec) throws -> any CaptureSource = { try CaptureSources.open($0) },
                freeBytes: (@Sendable (String) -> Int64?)? = nil, clock: any PipelineClock = RealClock(),
                preview: PreviewBranch? = nil) throws {
        self.settings = settings
        self.preview = preview
        self.reporter = reporter
        self.freeBytes = freeBytes ?? { FileIO.freeBytes(at: $0) }
        self.clock = clock
        makeTracker = tracker
        self.openSource = openSource
        let machine = try RecordingStateMachine(mode: settings.mode, interval: settings.interval, stallLimit: settings.stallLimit)
        core = Locked(Core(machine: machine))
        stopSignal.onStop { [runningSource] _ in runningSource.withLock { $0?.stop() } }
    }

    // MARK: Controls (any thread)

    /// Applies a control: pause, resume, toggle, or stop (which finishes the recording).
    public func control(_ control: RecordingStateMachine.Control) {
        if control == .stop {
            requestStop(reason: "stopped")
            return
        }
        let transition = core.withLock { $0.machine.apply(control) }
        if let transition { announce(transition) }
    }

    /// Finishes the recording cleanly (from a signal handler, a key, or another thread).
    public func requestStop(reason: String) {
        stopSignal.request(reason)
    }

    private var isStopRequested: Bool { stopSignal.isRequested }

    /// The state now.
    public var state: RecordingStateMachine.State { core.withLock { $0.machine.state } }

    // MARK: Run

    /// What ``prepare(_:)`` made: the source open, the recording in progress, the output claimed.
    private struct Prepared: Sendable {
        let source: any CaptureSource
        let branch: RecordingBranch
        let folderLock: WorkFolderLock
        let output: String
        let folder: String
        let videoPath: String
        let startedAt: Date
        let disks: DiskWatch
    }

    /// What ``start(_:)`` set going: the writer and capture threads, the machine kept awake,
    /// and the supervision ticking on the clock.
    private struct Running: Sendable {
        let watched: Watched
        let captureDone: WorkerThread
        let ticker: any Ticker
        let supervision: Locked<Supervision>
        let inhibitor: SleepInhibitor?
    }

    /// What the supervision's ticks look at and act on.
    private struct Watched: Sendable {
        let prepared: Prepared
        let queue: ConsumerQueue<RecordedFrame>
        let queueCapacity: Int
        let writerDone: WorkerThread
        let started: MediaTime
    }

    /// Records until stopped, the duration is reached, or a file source ends; then finishes
    /// the file. Never throws: every outcome is in the report.
    public func run() async -> RecordReport {
        var report = RecordReport()
        report.mode = settings.mode
        report.canvas = settings.dimensions
        guard let prepared = prepare(&report) else {
            reporter.finished(report)
            return report
        }
        report.started = true
        let running = start(prepared)
        await supervise(running, &report)
        await finish(running.watched, &report)
        reporter.finished(report)
        return report
    }

    /// Everything before the first frame: the disk, the source, the library, the recording in
    /// progress and the claimed output. On a refusal, `report.startError` says why, and what
    /// was made (folders, files) is removed again.
    private func prepare(_ report: inout RecordReport) -> Prepared? {
        var createdFolders: [String] = []
        func refuse(_ message: String) -> Prepared? {
            for folder in createdFolders.reversed() { rmdir(folder) }
            report.startError = message
            return nil
        }
        let outputFolder = FileIO.folder(of: settings.outputPath)
        if let refusal = checkPlaces(outputFolder: outputFolder, created: &createdFolders) { return refuse(refusal) }
        // The space: enough for --min-hours of recording.
        let disks = DiskWatch(settings: settings, outputFolder: outputFolder, freeBytes: freeBytes)
        if let refusal = disks.refusal() { return refuse(refusal) }
        // The source, opened before the recording exists, so a missing camera or file leaves
        // nothing behind; the library opened (created, migrated) now, so an unusable one stops
        // us before anything is recorded rather than after an hour of study.
        let source: any CaptureSource
        do {
            source = try openSource(settings.source)
        } catch {
            return refuse("\(error)")
        }
        if let libraryPath = settings.libraryPath {
            do {
                _ = try StudyLibrary(path: libraryPath)
            } catch {
                source.stop()
                return refuse("cannot use the library: \(error)")
            }
        }
        // The recording in progress: its folder, the fragmented file, the first checkpoint;
        // then the output, claimed.
        let folder = settings.sessionFolder
        let videoPath = folder + "/recording.mp4"
        let startedAt = Date()
        do {
            let (branch, folderLock, output) = try begin(folder: folder, videoPath: videoPath, startedAt: startedAt,
                                                         sourceFramesPerSecond: source.format.framesPerSecond)
            return Prepared(source: source, branch: branch, folderLock: folderLock, output: output, folder: folder,
                            videoPath: videoPath, startedAt: startedAt, disks: disks)
        } catch {
            source.stop()
            return refuse(error is OutputClaim.Taken ? "\(error)" : "cannot start the recording: \(error)")
        }
    }

    /// The output folder and the state folder must take a new file (made when missing, and
    /// listed in `created`); a name the user chose must not exist yet (nor what goes beside
    /// it). The output is claimed later, once the recording exists; this is the early word.
    private func checkPlaces(outputFolder: String, created: inout [String]) -> String? {
        if !settings.numbersOutputWhenTaken {
            for path in [settings.outputPath, settings.thumbnailPath, settings.faceTrackPath]
            where FileManager.default.fileExists(atPath: path) {
                return "\(path) already exists; choose another --output (Reel never replaces a file)"
            }
        }
        do {
            created += try FileIO.makeFolders(outputFolder)
            try FileIO.checkWritable(folder: outputFolder)
            created += try FileIO.makeFolders(settings.stateFolder)
            try FileIO.checkWritable(folder: settings.stateFolder)
        } catch {
            return "cannot record there: \(error)"
        }
        return nil
    }

    /// Says what is recorded where, and starts the writer, the supervision and the capture,
    /// in that order (the supervision ticks before the first frame can arrive).
    private func start(_ prepared: Prepared) -> Running {
        let source = prepared.source, branch = prepared.branch
        core.withLock { $0.branch = branch }
        let size = settings.dimensions
        let what = settings.mode == .timelapse
            ? "timelapse, a frame every \(settings.interval.seconds.formattedShort) s of study, 10 fps"
            : "full, H.264 \(RecordSettings.fullModeBitRate / 1_000_000) Mbps"
        reporter.info("source: \(source.name)")
        reporter.info("recording: \(what), \(size.width)x\(size.height) → \(prepared.output)")
        reporter.info("in progress: \(prepared.videoPath) (checkpoint every \(Int(settings.checkpointPeriod.seconds)) s and at every pause)")

        let queueCapacity = max(4, Int(source.format.framesPerSecond.rounded()) * 2)
        let queue = ConsumerQueue<RecordedFrame>(name: "record", capacity: queueCapacity, policy: .neverDrop, isDroppable: { _ in false })
        let writerDone = WorkerThread.run(name: "reel.record") { try branch.run(queue: queue) }
        preview?.start()
        runningSource.withLock { $0 = source }
        if isStopRequested { source.stop() }
        let watched = Watched(prepared: prepared, queue: queue, queueCapacity: queueCapacity, writerDone: writerDone, started: clock.now())
        let inhibitor = settings.keepAwakeCommand.map { SleepInhibitor(command: $0) }
        let (ticker, supervision) = startSupervision(watched, inhibitor: inhibitor)
        let captureDone = WorkerThread.run(name: "reel.capture") { [self] in
            try capture(from: source, into: queue)
        }
        return Running(watched: watched, captureDone: captureDone, ticker: ticker, supervision: supervision, inhibitor: inhibitor)
    }

    /// The ``RecordingSupervisor``'s rules on the clock's ticks, every 100 ms: watchdog,
    /// checkpoints, disk, heat and load, status.
    private func startSupervision(_ watched: Watched, inhibitor: SleepInhibitor?) -> (any Ticker, Locked<Supervision>) {
        let supervisor = RecordingSupervisor(settings: .init(
            stallLimit: settings.stallLimit, checkpointPeriod: settings.checkpointPeriod, diskCheckPeriod: settings.diskCheckPeriod,
            loadCheckPeriod: settings.loadCheckPeriod, duration: settings.duration), startedAt: watched.started)
        let load = LoadMonitor(thermalFolder: settings.thermalFolder, now: watched.started)
        if let change = load.startingChange { apply(change) }
        let supervision = Locked(Supervision(supervisor: supervisor, load: load))
        let ticker = clock.every(MediaTime(value: 1, timescale: 10), name: "reel.record.watch") { [self] now in
            let readings = core.withLock { c in
                RecordingSupervisor.Readings(state: c.machine.state, lastFrameArrival: c.lastFrameArrival,
                                             captureWaiting: watched.queue.stats.isProducerWaiting,
                                             writerEnded: watched.writerDone.isFinished)
            }
            supervision.withLock { s in
                for action in s.supervisor.tick(now: now, readings: readings) {
                    perform(action, now: now, watched: watched, inhibitor: inhibitor, supervision: &s)
                }
            }
        }
        return (ticker, supervision)
    }

    /// Waits for the capture to end (a stop, the file's end, a failure), then stops the
    /// supervision and the inhibitor and notes how the capture went.
    private func supervise(_ running: Running, _ report: inout RecordReport) async {
        await running.captureDone.wait()
        preview?.stop()
        running.ticker.stop()
        running.inhibitor?.release()
        runningSource.withLock { $0 = nil }
        if let error = running.captureDone.error { report.sourceError = "\(error)" }
        let finalTransition = core.withLock { $0.machine.apply(.stop) }
        if let finalTransition { announce(finalTransition) }
        let now = clock.now()
        report.wallSeconds = (now - running.watched.started).seconds
        running.supervision.withLock { s in
            report.load = s.load.finish(now: now)
            report.diskStop = s.diskStop
        }
    }

    /// What the supervision keeps between ticks.
    private struct Supervision {
        var supervisor: RecordingSupervisor
        var load: LoadMonitor
        var diskStop: String?
    }

    /// Carries out one of the supervisor's actions.
    private func perform(_ action: RecordingSupervisor.Action, now: MediaTime, watched running: Watched,
                         inhibitor: SleepInhibitor?, supervision s: inout Supervision) {
        let branch = running.prepared.branch
        switch action {
        case .stop(let cause):
            requestStop(reason: cause.rawValue)
        case .sourceStalled(let detail):
            if let transition = core.withLock({ $0.machine.sourceStopped() }) { announce(transition, detail: detail) }
        case .writeCheckpoint:
            branch.requestCheckpoint(checkpointRequest())
        case .checkDisk:
            guard let message = running.prepared.disks.floorReached(recordingBytes: branch.progress.fileBytes) else { return }
            s.supervisor.diskFloorReached()
            s.diskStop = message
            reporter.warning("stopping: \(message)")
            requestStop(reason: "disk almost full")
        case .readLoad:
            guard let change = s.load.read(now: now, queue: running.queue.stats, capacity: running.queueCapacity) else { return }
            apply(change)
        case .checkKeepAwake:
            if let failure = inhibitor?.failure {
                reporter.warning("could not keep the machine awake (\(failure)); it may go to sleep while you study")
            }
        case .reportStatus(let wallSeconds):
            var snapshot = status(wall: wallSeconds, branch: branch, queue: running.queue)
            snapshot.load = s.load.level
            snapshot.loadReason = s.load.reason
            snapshot.cpuShare = s.load.cpuShare
            reporter.status(snapshot)
        }
    }

    /// Applies a change of load level and says so.
    private func apply(_ change: LoadAdaptationPolicy.Change) {
        core.withLock { $0.machine.adapt(to: change.to) }
        let what = "load: \(change.to) (\(change.reason)): \(LoadMonitor.levers(change.to, mode: settings.mode))"
        if change.to > change.from { reporter.warning(what) } else { reporter.info(what) }
    }

    /// After the capture: drain the writer, close the file, then the normal MP4 beside it, the
    /// thumbnail, the face track and the library's session.
    private func finish(_ running: Watched, _ report: inout RecordReport) async {
        let branch = running.prepared.branch, folder = running.prepared.folder, output = running.prepared.output
        running.queue.close()
        await running.writerDone.wait()
        let (machine, interruptions) = core.withLock { ($0.machine, $0.interruptions) }
        report.activeSeconds = machine.active.seconds
        report.interruptions = interruptions
        report.skippedGapSeconds = machine.skippedGapTime.seconds
        report.framesShed = machine.framesShed
        let progress = branch.progress
        report.framesWritten = progress.framesWritten
        report.faceSamples = progress.faceSamples
        if let error = running.writerDone.error {
            report.writerError = "\(error)"
            report.keptForRecovery = folder
            return
        }
        do {
            try branch.writeCheckpoint(.init(state: .finished, activeSeconds: machine.active.seconds))
        } catch {
            report.warnings.append("the last checkpoint could not be written: \(error)")
        }
        guard progress.framesWritten > 0 else {
            OutputClaim.release(output, id: settings.id)
            try? FileManager.default.removeItem(atPath: folder)
            report.finishError = "nothing was recorded (no frame arrived while recording), so no file was made"
            return
        }
        let session = StudySession(
            id: settings.id, startedAt: running.prepared.startedAt, endedAt: Date(), activeSeconds: machine.active.seconds, videoSeconds: 0,
            mode: settings.mode, intervalSeconds: settings.mode == .timelapse ? settings.interval.seconds : nil,
            filePath: output, thumbnailPath: nil, faceTrackPath: nil, title: settings.title, tags: settings.tags,
            load: report.load)
        var finisher = RecordingFinisher(id: settings.id, videoPath: running.prepared.videoPath, folder: folder,
                                         stateFolder: settings.stateFolder, outputPath: output)
        let active = machine.active.seconds
        finisher.finish(faceTrack: branch.faceTrack, session: session, libraryPath: settings.libraryPath, into: &report) { moved in
            branch.claimedOutput(moved)
            try branch.writeCheckpoint(.init(state: .finished, activeSeconds: active))
        }
        withExtendedLifetime(running.prepared.folderLock) {}
    }

    /// Makes the recording in progress: its work folder (locked), the fragmented file and the
    /// first checkpoint; then claims the output exclusively (``OutputClaim``: a second
    /// recording with the same `--output` stops here, at its start; the default name takes
    /// `-2`, `-3` … and the checkpoint is rewritten with it). The checkpoint is written before
    /// the claim, so a crash in between leaves nothing `reel recover` cannot clean up. On a
    /// failure, what it made (folder, placeholder) is removed again.
    private func begin(folder: String, videoPath: String, startedAt: Date,
                       sourceFramesPerSecond: Double) throws -> (RecordingBranch, WorkFolderLock, String) {
        var claimed: String?
        do {
            guard mkdir(folder, 0o755) == 0 else { throw FileError("creating folder", folder) }
            let lock = try WorkFolderLock(folder)
            let branch = try RecordingBranch(settings: settings, videoPath: videoPath, checkpointPath: folder + "/" + CheckpointFile.name,
                                             encoder: settings.videoEncoder(sourceFramesPerSecond: sourceFramesPerSecond),
                                             tracker: makeTracker(), startedAt: startedAt, clock: clock)
            try branch.writeCheckpoint(.init(state: .recording, activeSeconds: 0))
            try FileIO.syncFolder(settings.stateFolder)
            let output = try OutputClaim.claimFirstFree(settings.outputPath, id: settings.id, numbered: settings.numbersOutputWhenTaken)
            claimed = output
            if output != settings.outputPath {
                branch.claimedOutput(output)
                try branch.writeCheckpoint(.init(state: .recording, activeSeconds: 0))
            }
            return (branch, lock, output)
        } catch {
            if let claimed { OutputClaim.release(claimed, id: settings.id) }
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
    }

    /// The capture thread's body: delivers frames until stopped; reopens a camera (or the
    /// synthetic source) that ends or fails, with backoff; a file's end or failure ends it.
    private func capture(from first: any CaptureSource, into queue: ConsumerQueue<RecordedFrame>) throws {
        var source = first
        let limit = settings.duration.map { MediaTime(seconds: $0) }
        var firstCapture: MediaTime?
        while true {
            var failure: (any Error)?
            do {
                try source.run { sample in
                    guard case .video(let frame) = sample else { return }  // no sound yet (docs/recording.md, the end)
                    preview?.offer(frame)
                    if firstCapture == nil { firstCapture = frame.captureTime }
                    if let limit, frame.captureTime - firstCapture! >= limit {
                        requestStop(reason: "the duration was reached")
                        return
                    }
                    let now = clock.now()
                    let step = core.withLock { c in
                        c.lastFrameArrival = now
                        let step = c.machine.frame(at: frame.captureTime)
                        if step.output != nil { c.framesQueued += 1 }
                        return step
                    }
                    if let transition = step.transition { announce(transition) }
                    if let gap = step.skippedGap {
                        reporter.warning("no frames for \(gap.seconds.formatted3) s: that time is not counted")
                    }
                    if let output = step.output { queue.push(RecordedFrame(frame: frame, output: output)) }
                }
            } catch {
                failure = error
            }
            if isStopRequested { return }
            if case .file = settings.source {
                if let failure { throw failure }
                requestStop(reason: "the file ended")
                return
            }
            // A camera (or the synthetic source) stopped: interrupted until it comes back.
            let reason = failure.map { "\($0)" } ?? "the source ended"
            let transition = core.withLock { $0.machine.sourceStopped() }
            if let transition { announce(transition, detail: reason) } else { reporter.warning("source stopped: \(reason)") }
            runningSource.withLock { $0 = nil }
            var attempts = 0
            while !isStopRequested {
                attempts += 1
                let wait = settings.reopenPolicy.delay(afterFailures: attempts)
                let deadline = clock.now() + wait
                while !isStopRequested, clock.now() < deadline { clock.sleep(until: min(deadline, clock.now() + MediaTime(value: 1, timescale: 10))) }
                if isStopRequested { return }
                do {
                    source = try openSource(settings.source)
                    reporter.info("source back after \(Counted.noun(attempts, "attempt")): \(source.name)")
                    break
                } catch {
                    if attempts <= 3 || attempts % 10 == 0 { reporter.warning("reopening the source failed (attempt \(attempts)): \(error)") }
                }
            }
            if isStopRequested { return }
            runningSource.withLock { $0 = source }
            if isStopRequested { source.stop() }
        }
    }

    /// Reports a transition and writes a checkpoint when the recording stops counting.
    private func announce(_ transition: RecordingStateMachine.Transition, detail: String? = nil) {
        let (first, branch, queued) = core.withLock { c -> (MediaTime?, RecordingBranch?, Int) in
            if transition.to == .interrupted { c.interruptions += 1 }
            return (c.machine.firstCapture, c.branch, c.framesQueued)
        }
        let capture = transition.lastCapture.flatMap { last in first.map { (last - $0).seconds } }
        reporter.stateChanged(RecordStateChange(from: transition.from, to: transition.to, cause: transition.cause,
                                                captureSeconds: capture, activeSeconds: transition.active.seconds, detail: detail))
        if transition.to == .paused || transition.to == .interrupted {
            branch?.requestCheckpoint(.init(state: transition.to, activeSeconds: transition.active.seconds, framesQueued: queued))
        }
    }

    private func checkpointRequest() -> RecordingBranch.CheckpointRequest {
        core.withLock { .init(state: $0.machine.state, activeSeconds: $0.machine.active.seconds, framesQueued: $0.framesQueued) }
    }

    private func status(wall: Double, branch: RecordingBranch, queue: ConsumerQueue<RecordedFrame>) -> RecordStatus {
        let (state, active) = core.withLock { ($0.machine.state, $0.machine.active.seconds) }
        let progress = branch.progress
        return RecordStatus(state: state, activeSeconds: active, wallSeconds: wall, framesWritten: progress.framesWritten,
                            fileBytes: progress.fileBytes, freeBytes: freeBytes(settings.stateFolder),
                            queuedFrames: queue.stats.depth, face: progress.lastFace, sourceName: runningSource.withLock { $0?.name })
    }
}

/// The file systems a recording uses (the work folder's and the output's, one when they are
/// the same), measured for ``DiskBudget``: the check before starting and the floor while
/// recording.
struct DiskWatch: Sendable {
    let settings: RecordSettings
    /// A path on each file system (its nearest existing folder) and what it holds.
    let places: [(path: String, holdsWork: Bool, holdsOutput: Bool)]
    let freeBytes: @Sendable (String) -> Int64?

    init(settings: RecordSettings, outputFolder: String, freeBytes: @escaping @Sendable (String) -> Int64?) {
        self.settings = settings
        self.freeBytes = freeBytes
        let work = FileIO.existingAncestor(settings.stateFolder), output = FileIO.existingAncestor(outputFolder)
        let workDevice = FileIO.device(work), outputDevice = FileIO.device(output)
        if work == output || (workDevice != nil && workDevice == outputDevice) {
            places = [(output, true, true)]
        } else {
            places = [(output, false, true), (work, true, false)]
        }
    }

    /// The volumes now (those whose free space cannot be read are left out).
    func volumes() -> [(path: String, volume: DiskBudget.Volume)] {
        places.compactMap { place in
            freeBytes(place.path).map { (place.path, DiskBudget.Volume(free: $0, holdsWork: place.holdsWork, holdsOutput: place.holdsOutput)) }
        }
    }

    private func describe(_ path: String, _ volume: DiskBudget.Volume) -> String {
        let what = volume.holdsWork && volume.holdsOutput ? "the output and the work folder"
            : volume.holdsOutput ? "the output" : "the work folder"
        return "\(path) (\(what))"
    }

    /// Why the recording must not start, with the numbers and what to do (nil: start).
    func refusal() -> String? {
        let perHour = settings.videoBytesPerHour
        let all = volumes()
        let short = settings.diskBudget.shortfalls(all.map(\.volume), videoBytesPerHour: perHour, minHours: settings.minHours)
        guard !short.isEmpty else { return nil }
        let budget = settings.diskBudget
        let what = settings.mode == .full
            ? "a full recording makes about \(FileIO.bytesText(perHour)) of video an hour (5 Mbps)"
            : "this timelapse makes at most \(FileIO.bytesText(perHour)) of video an hour (a frame every \(settings.interval.seconds.formattedShort) s of study, ≤ 100 kB each)"
        var lines = ["not enough free disk space for \(settings.minHours.formattedShort) h of recording (--min-hours):"]
        for fit in short {
            let path = all.first { $0.volume == fit.volume }?.path ?? "?"
            lines.append("  \(describe(path, fit.volume)): \(FileIO.bytesText(fit.volume.free)) free, needs \(FileIO.bytesText(fit.neededPerHour)) an hour, "
                         + String(format: "%.1f h fit", fit.hours))
        }
        lines.append("  (\(what); the finished MP4 is a copy written at the end beside the one in progress, so a disk holding both needs twice that; "
                     + "the recording stops while \(FileIO.binaryBytesText(budget.minimumFree)) is still free, or the finishing copy plus \(FileIO.binaryBytesText(budget.margin)) where the output goes)")
        lines.append("  free some space, choose another --output, or record anyway with --min-hours 0 (the recording then stops by itself, finished, when the disk is almost full)")
        return lines.joined(separator: "\n")
    }

    /// The message when a file system fell under its floor (nil: keep recording).
    func floorReached(recordingBytes: Int64) -> String? {
        let all = volumes()
        guard let volume = settings.diskBudget.shouldStop(volumes: all.map(\.volume), recordingBytes: recordingBytes),
              let path = all.first(where: { $0.volume == volume })?.path else { return nil }
        let floor = settings.diskBudget.floor(for: volume, recordingBytes: recordingBytes)
        return "disk almost full: \(describe(path, volume)) has \(FileIO.bytesText(volume.free)) free, under the floor of \(FileIO.binaryBytesText(floor)) "
            + "(Reel keeps \(FileIO.binaryBytesText(settings.diskBudget.minimumFree)) free, and room for the finished copy of the "
            + "\(FileIO.bytesText(recordingBytes)) recording plus \(FileIO.binaryBytesText(settings.diskBudget.margin)))"
    }
}
