import Foundation
import ReelCore
import ReelRuntime
import ReelMedia
import ReelStore
import Synchronization

/// One `reel record` run (spec §1, Study recorder; issue 4):
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

    private struct Core {
        var machine: RecordingStateMachine
        var watch: StallWatch
        var interruptions = 0
        var branch: RecordingBranch?
    }
    private let core: Mutex<Core>
    private let stopReason = Mutex<String?>(nil)
    private let runningSource = Mutex<(any CaptureSource)?>(nil)

    /// A recorder for `settings`. `tracker` makes the face tracker (none by default);
    /// `openSource` opens the capture (``CaptureSources/open(_:realTime:)`` by default; tests
    /// pass scripted sources); `freeBytes` measures the free space on the file system holding a
    /// path (statvfs by default; tests pass a scripted disk).
    public init(settings: RecordSettings, reporter: any RecordReporter,
                tracker: @escaping @Sendable () -> any FaceTracker = { NoFaceTracker() },
                openSource: @escaping @Sendable (SourceSpec) throws -> any CaptureSource = { try CaptureSources.open($0) },
                freeBytes: (@Sendable (String) -> Int64?)? = nil) throws {
        self.settings = settings
        self.reporter = reporter
        self.freeBytes = freeBytes ?? { FileIO.freeBytes(at: $0) }
        makeTracker = tracker
        self.openSource = openSource
        let machine = try RecordingStateMachine(mode: settings.mode, interval: settings.interval, stallLimit: settings.stallLimit)
        core = Mutex(Core(machine: machine, watch: StallWatch(limit: settings.stallLimit, now: MonotonicClock.now())))
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
        stopReason.withLock { if $0 == nil { $0 = reason } }
        runningSource.withLock { $0?.stop() }
    }

    private var isStopRequested: Bool { stopReason.withLock { $0 != nil } }

    /// The state now.
    public var state: RecordingStateMachine.State { core.withLock { $0.machine.state } }

    // MARK: Run

    /// Records until stopped, the duration is reached, or a file source ends; then finishes
    /// the file. Never throws: every outcome is in the report.
    public func run() async -> RecordReport {
        var report = RecordReport()
        report.mode = settings.mode
        report.canvas = settings.dimensions
        let outputFolder = FileIO.folder(of: settings.outputPath)
        var createdFolders: [String] = []
        func failStart(_ message: String) -> RecordReport {
            for folder in createdFolders.reversed() { rmdir(folder) }
            report.startError = message
            reporter.finished(report)
            return report
        }
        // 1. The disk, before anything is captured: the output folder and the state folder
        // must take a new file; a name the user chose must not exist yet (nor what goes beside
        // it). The output is claimed below, once the recording exists; this is the early word.
        if !settings.numbersOutputWhenTaken {
            for path in [settings.outputPath, settings.thumbnailPath, settings.faceTrackPath]
            where FileManager.default.fileExists(atPath: path) {
                return failStart("\(path) already exists; choose another --output (Reel never replaces a file)")
            }
        }
        do {
            createdFolders += try FileIO.makeFolders(outputFolder)
            try FileIO.checkWritable(folder: outputFolder)
            createdFolders += try FileIO.makeFolders(settings.stateFolder)
            try FileIO.checkWritable(folder: settings.stateFolder)
        } catch {
            return failStart("cannot record there: \(error)")
        }
        // The space: enough for --min-hours of recording (the folders made above are removed
        // again when not).
        let disks = DiskWatch(settings: settings, outputFolder: outputFolder, freeBytes: freeBytes)
        if let refusal = disks.refusal() { return failStart(refusal) }
        // 2. The source: opened before the recording exists, so a missing camera or file
        // leaves nothing behind.
        let source: any CaptureSource
        do {
            source = try openSource(settings.source)
        } catch {
            return failStart("\(error)")
        }
        // The library, opened (created, migrated) now so an unusable one stops us before
        // anything is recorded rather than after an hour of study.
        if let libraryPath = settings.libraryPath {
            do {
                _ = try StudyLibrary(path: libraryPath)
            } catch {
                source.stop()
                return failStart("cannot use the library: \(error)")
            }
        }
        // 3. The recording in progress: its folder, the fragmented file, the first checkpoint;
        // then the output, claimed.
        let folder = settings.sessionFolder
        let videoPath = folder + "/recording.mp4"
        let startedAt = Date()
        let branch: RecordingBranch, folderLock: WorkFolderLock, output: String
        do {
            (branch, folderLock, output) = try begin(folder: folder, videoPath: videoPath, startedAt: startedAt,
                                                     sourceFramesPerSecond: source.format.framesPerSecond)
        } catch {
            source.stop()
            return failStart(error is OutputClaim.Taken ? "\(error)" : "cannot start the recording: \(error)")
        }
        core.withLock {
            $0.branch = branch
            $0.watch = StallWatch(limit: settings.stallLimit, now: MonotonicClock.now())
        }
        report.started = true
        let size = settings.dimensions
        let what = settings.mode == .timelapse
            ? "timelapse, a frame every \(settings.interval.seconds.formatted3.trimmedZeros) s of study, 10 fps"
            : "full, H.264 \(RecordSettings.fullModeBitRate / 1_000_000) Mbps"
        reporter.info("source: \(source.name)")
        reporter.info("recording: \(what), \(size.width)x\(size.height) → \(output)")
        reporter.info("in progress: \(videoPath) (checkpoint every \(Int(settings.checkpointPeriod.seconds)) s and at every pause)")

        // 4. Writer and capture threads.
        let queueCapacity = max(4, Int(source.format.framesPerSecond.rounded()) * 2)
        let queue = ConsumerQueue<RecordedFrame>(name: "record", capacity: queueCapacity, policy: .neverDrop, isDroppable: { _ in false })
        let writerDone = WorkerThread.run(name: "reel.record") { try branch.run(queue: queue) }
        runningSource.withLock { $0 = source }
        if isStopRequested { source.stop() }
        let started = MonotonicClock.now()
        let captureDone = WorkerThread.run(name: "reel.capture") { [self] in
            try capture(from: source, into: queue)
        }

        // 5. Watchdog, checkpoints, disk, heat and load, and status while capturing; the
        // machine kept awake meanwhile.
        let inhibitor = settings.keepAwakeCommand.map { SleepInhibitor(command: $0) }
        defer { inhibitor?.release() }
        var inhibitorChecked = inhibitor == nil
        var checkpoints = CheckpointSchedule(period: settings.checkpointPeriod)
        checkpoints.written(at: started)
        var lastStatus = started
        var lastDiskCheck = started
        var load = LoadMonitor(thermalFolder: settings.thermalFolder, period: settings.loadCheckPeriod, now: started)
        while !captureDone.isFinished {
            try? await Task.sleep(for: .milliseconds(100))
            let now = MonotonicClock.now()
            if writerDone.isFinished { requestStop(reason: "the writer failed") }
            let waiting = queue.stats.isProducerWaiting
            let stalled: (RecordingStateMachine.Transition?, Bool) = core.withLock { c in
                guard c.machine.state == .recording, c.watch.isStalled(now: now, captureWaiting: waiting) else { return (nil, false) }
                return (c.machine.sourceStopped(), true)
            }
            if stalled.1, let transition = stalled.0 {
                announce(transition, detail: "no frames for \(settings.stallLimit.seconds.formatted3.trimmedZeros) s")
            }
            if checkpoints.isDue(now: now) {
                branch.requestCheckpoint(checkpointRequest())
                checkpoints.written(at: now)
            }
            if now - lastDiskCheck >= settings.diskCheckPeriod, report.diskStop == nil {
                lastDiskCheck = now
                if let message = disks.floorReached(recordingBytes: branch.progress.fileBytes) {
                    report.diskStop = message
                    reporter.warning("stopping: \(message)")
                    requestStop(reason: "disk almost full")
                }
            }
            if let change = load.check(now: now, queue: queue.stats, capacity: queueCapacity) {
                core.withLock { $0.machine.adapt(to: change.to) }
                let what = "load: \(change.to) (\(change.reason)): \(LoadMonitor.levers(change.to, mode: settings.mode))"
                if change.to > change.from { reporter.warning(what) } else { reporter.info(what) }
            }
            if !inhibitorChecked, (now - started).seconds >= 1, let inhibitor {
                inhibitorChecked = true
                if let failure = inhibitor.failure {
                    reporter.warning("could not keep the machine awake (\(failure)); it may go to sleep while you study")
                }
            }
            if let duration = settings.duration, (now - started).seconds > duration + settings.stallLimit.seconds + 1 {
                requestStop(reason: "the duration was reached")
            }
            if (now - lastStatus).seconds >= 1 {
                lastStatus = now
                var snapshot = status(wall: (now - started).seconds, branch: branch, queue: queue)
                snapshot.load = load.level
                snapshot.loadReason = load.reason
                snapshot.cpuShare = load.cpuShare
                reporter.status(snapshot)
            }
        }
        runningSource.withLock { $0 = nil }
        if let error = captureDone.error { report.sourceError = "\(error)" }
        let finalTransition = core.withLock { $0.machine.apply(.stop) }
        if let finalTransition { announce(finalTransition) }
        report.wallSeconds = (MonotonicClock.now() - started).seconds

        // 6. Finish: drain the writer, close the file, then the normal MP4 beside it.
        queue.close()
        await writerDone.wait()
        let (machine, interruptions) = core.withLock { ($0.machine, $0.interruptions) }
        report.activeSeconds = machine.active.seconds
        report.interruptions = interruptions
        report.skippedGapSeconds = machine.skippedGapTime.seconds
        report.load = load.finish(now: MonotonicClock.now())
        report.framesShed = machine.framesShed
        let progress = branch.progress
        report.framesWritten = progress.framesWritten
        report.faceSamples = progress.faceSamples
        if let error = writerDone.error {
            report.writerError = "\(error)"
            report.keptForRecovery = folder
            reporter.finished(report)
            return report
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
            reporter.finished(report)
            return report
        }
        let session = StudySession(
            id: settings.id, startedAt: startedAt, endedAt: Date(), activeSeconds: machine.active.seconds, videoSeconds: 0,
            mode: settings.mode, intervalSeconds: settings.mode == .timelapse ? settings.interval.seconds : nil,
            filePath: output, thumbnailPath: nil, faceTrackPath: nil, title: settings.title, tags: settings.tags,
            load: report.load)
        var finisher = RecordingFinisher(id: settings.id, videoPath: videoPath, folder: folder, stateFolder: settings.stateFolder,
                                         outputPath: output)
        let active = machine.active.seconds
        finisher.finish(faceTrack: branch.faceTrack, session: session, libraryPath: settings.libraryPath, into: &report) { moved in
            branch.claimedOutput(moved)
            try branch.writeCheckpoint(.init(state: .finished, activeSeconds: active))
        }
        withExtendedLifetime(folderLock) {}
        reporter.finished(report)
        return report
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
                                             tracker: makeTracker(), startedAt: startedAt)
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
                    guard case .video(let frame) = sample else { return }  // audio is not recorded (stage 1)
                    if firstCapture == nil { firstCapture = frame.captureTime }
                    if let limit, frame.captureTime - firstCapture! >= limit {
                        requestStop(reason: "the duration was reached")
                        return
                    }
                    let now = MonotonicClock.now()
                    let step = core.withLock { c in
                        c.watch.frameArrived(at: now)
                        return c.machine.frame(at: frame.captureTime)
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
                let deadline = MonotonicClock.now() + wait
                while !isStopRequested, MonotonicClock.now() < deadline { MonotonicClock.sleep(until: min(deadline, MonotonicClock.now() + MediaTime(value: 1, timescale: 10))) }
                if isStopRequested { return }
                do {
                    source = try openSource(settings.source)
                    reporter.info("source back after \(attempts) attempt\(attempts == 1 ? "" : "s"): \(source.name)")
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
        let (first, branch) = core.withLock { c -> (MediaTime?, RecordingBranch?) in
            if transition.to == .interrupted { c.interruptions += 1 }
            return (c.machine.firstCapture, c.branch)
        }
        let capture = transition.lastCapture.flatMap { last in first.map { (last - $0).seconds } }
        reporter.stateChanged(RecordStateChange(from: transition.from, to: transition.to, cause: transition.cause,
                                                captureSeconds: capture, activeSeconds: transition.active.seconds, detail: detail))
        if transition.to == .paused || transition.to == .interrupted {
            branch?.requestCheckpoint(.init(state: transition.to, activeSeconds: transition.active.seconds))
        }
    }

    private func checkpointRequest() -> RecordingBranch.CheckpointRequest {
        core.withLock { .init(state: $0.machine.state, activeSeconds: $0.machine.active.seconds) }
    }

    private func status(wall: Double, branch: RecordingBranch, queue: ConsumerQueue<RecordedFrame>) -> RecordStatus {
        let (state, active) = core.withLock { ($0.machine.state, $0.machine.active.seconds) }
        let progress = branch.progress
        return RecordStatus(state: state, activeSeconds: active, wallSeconds: wall, framesWritten: progress.framesWritten,
                            fileBytes: progress.fileBytes, freeBytes: freeBytes(settings.stateFolder),
                            queuedFrames: queue.stats.depth)
    }
}

/// The file systems a recording uses (the work folder's and the output's, one when they are
/// the same), measured for ``DiskBudget``: the check before starting and the floor while
/// recording.
struct DiskWatch {
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
            : "this timelapse makes at most \(FileIO.bytesText(perHour)) of video an hour (a frame every \(settings.interval.seconds.formatted3.trimmedZeros) s of study, ≤ 100 kB each)"
        var lines = ["not enough free disk space for \(settings.minHours.formatted3.trimmedZeros) h of recording (--min-hours):"]
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

extension String {
    /// "5.000" → "5", "1.500" → "1.5".
    var trimmedZeros: String {
        guard contains(".") else { return self }
        var text = self
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
