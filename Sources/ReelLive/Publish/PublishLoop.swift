import ReelRuntime
import Foundation
import ReelCore
import Synchronization

/// The one task behind an ``HLSPublisher``: owns the spool, a ``PublishQueue`` per target and
/// the timers, handles events strictly in order, and runs uploads as child tasks that report
/// back through the same event stream.
struct PublishLoop {
    enum Event: Sendable {
        case initBytes(Data)
        case segment(sequence: Int, duration: MediaTime, programDateTime: Date, followsDiscontinuity: Bool, bytes: Data)
        case part(PublishQueue.PartInfo, bytes: Data)
        case finish(drainTimeout: Duration)
        case uploaded(lane: Int, item: PublishQueue.Item, failure: PublishQueue.Failure?)
        case wake
        case drainTimedOut
    }

    /// The latest counters, readable from any thread.
    final class StatusBoard: Sendable {
        private let state: Locked<[HLSPublisher.TargetStatus]>

        init(targets: [String]) {
            state = Locked(targets.map { HLSPublisher.TargetStatus(name: $0, stats: PublishQueue.Stats(), state: .running) })
        }

        var current: [HLSPublisher.TargetStatus] { state.withLock { $0 } }

        func update(_ statuses: [HLSPublisher.TargetStatus]) { state.withLock { $0 = statuses } }
    }

    /// Where an upload's body comes from: the spool file, or memory when spooling failed.
    enum Body: Sendable {
        case file(URL)
        case memory(Data)

        func load() throws -> Data {
            switch self {
            case .file(let url): try Data(contentsOf: url)
            case .memory(let data): data
            }
        }
    }

    struct Lane {
        let target: any PublishTarget
        var queue: PublishQueue

        var isSettled: Bool {
            switch queue.state {
            case .finished, .failed: true
            case .running, .finishing: false
            }
        }
    }

    let settings: HLSPublisher.Settings
    let post: AsyncStream<Event>.Continuation
    let board: StatusBoard
    var lanes: [Lane]

    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private let spool: DirectoryTarget
    /// Relative spool paths written so far (removed when everything was published).
    private var spooled: [String] = []
    /// Bodies that could not be spooled, by relative path.
    private var unspooled: [String: Data] = [:]
    /// LL-HLS parts' bytes while a lane may still upload them (parts are never spooled: the
    /// segment holds the same bytes).
    private var partBodies: [HLSPlaylist.PartAddress: Data] = [:]
    private var spoolPlaylist: HLSPlaylist
    private var problems: [String] = []
    private var wakeUps: [ContinuousClock.Instant] = []
    private var finishRequested = false
    private var drainTimedOut = false

    init(settings: HLSPublisher.Settings, targets: [any PublishTarget], post: AsyncStream<Event>.Continuation, board: StatusBoard) {
        self.settings = settings
        self.post = post
        self.board = board
        let queueSettings = PublishQueue.Settings(
            targetDuration: settings.targetDuration,
            maxSegmentUploadsInFlight: settings.maxSegmentUploadsInFlight,
            retryPolicy: settings.retryPolicy,
            lowLatency: settings.lowLatency,
            window: settings.window
        )
        lanes = targets.map { Lane(target: $0, queue: PublishQueue(settings: queueSettings)) }
        start = clock.now
        spool = DirectoryTarget(root: settings.spoolDirectory)
        spoolPlaylist = HLSPlaylist(targetDuration: settings.targetDuration)
    }

    mutating func run(events: AsyncStream<Event>) async -> HLSPublisher.Report {
        let report = await withDiscardingTaskGroup(returning: HLSPublisher.Report.self) { group in
            for await event in events {
                handle(event, group: &group)
                scheduleNextWakeUp(group: &group)
                publishStatus()
                if drainTimedOut || (finishRequested && lanes.allSatisfy(\.isSettled)) { break }
            }
            group.cancelAll()
            return makeReport()
        }
        post.finish()
        return report
    }

    // MARK: Events

    private var now: MediaTime {
        let elapsed = (clock.now - start).components
        return MediaTime.nanoseconds(elapsed.seconds * 1_000_000_000 + elapsed.attoseconds / 1_000_000_000)
    }

    private mutating func handle(_ event: Event, group: inout DiscardingTaskGroup) {
        switch event {
        case .initBytes(let bytes):
            store(bytes, at: StreamLayout.initURI)
            if let window = settings.window { recordWindow(window) }
            forEachLane(group: &group) { queue, now in try queue.initReady(now: now) }

        case .segment(let sequence, let duration, let programDateTime, let followsDiscontinuity, let bytes):
            if !finishRequested, sequence == spoolPlaylist.segments.count + 1, duration > .zero {
                store(bytes, at: StreamLayout.segmentURI(sequence: sequence))
                spoolPlaylist.segments.append(.init(sequence: sequence, duration: duration, programDateTime: programDateTime,
                                                    followsDiscontinuity: followsDiscontinuity))
                store(spoolPlaylist.renderedData(), at: StreamLayout.playlistName)
            }
            forEachLane(group: &group) { queue, now in
                try queue.segmentReady(sequence: sequence, duration: duration, programDateTime: programDateTime,
                                       followsDiscontinuity: followsDiscontinuity, now: now)
            }

        case .part(let info, let bytes):
            guard !finishRequested else { return }
            partBodies[info.part.address] = bytes
            forEachLane(group: &group) { queue, now in try queue.partReady(info, now: now) }
            forgetPartsNobodyAwaits()

        case .finish(let drainTimeout):
            guard !finishRequested else { return }
            finishRequested = true
            if !spoolPlaylist.segments.isEmpty {
                spoolPlaylist.isFinished = true
                store(spoolPlaylist.renderedData(), at: StreamLayout.playlistName)
            }
            let post = self.post
            group.addTask {
                do {
                    try await Task.sleep(for: drainTimeout)
                    post.yield(.drainTimedOut)
                } catch {}
            }
            forEachLane(group: &group) { queue, now in queue.finishRequested(now: now) }

        case .uploaded(let lane, let item, let failure):
            let now = self.now
            let actions = if let failure {
                lanes[lane].queue.uploadFailed(item, failure, now: now)
            } else {
                lanes[lane].queue.uploadSucceeded(item, now: now)
            }
            perform(actions, lane: lane, group: &group)
            if case .part = item { forgetPartsNobodyAwaits() }

        case .wake:
            let instant = clock.now
            wakeUps.removeAll { $0 <= instant }
            forEachLane(group: &group) { queue, now in queue.tick(now: now) }

        case .drainTimedOut:
            drainTimedOut = true
        }
    }

    private mutating func forEachLane(
        group: inout DiscardingTaskGroup,
        _ body: (inout PublishQueue, MediaTime) throws -> [PublishQueue.Action]
    ) {
        let now = self.now
        var misuse: (any Error)?
        for index in lanes.indices {
            do {
                let actions = try body(&lanes[index].queue, now)
                perform(actions, lane: index, group: &group)
            } catch {
                misuse = error
            }
        }
        // The same misuse hits every lane; report it once.
        if let misuse { problems.append("\(misuse)") }
    }

    private mutating func perform(_ actions: [PublishQueue.Action], lane: Int, group: inout DiscardingTaskGroup) {
        for action in actions {
            guard case .upload(let upload) = action else { continue }  // timers: see scheduleNextWakeUp
            let layout = settings.layout
            let path: String
            let body: Body
            switch upload {
            case .initSegment:
                path = layout.initPath
                body = source(of: StreamLayout.initURI)
            case .segment(let sequence):
                path = layout.segmentPath(sequence: sequence)
                body = source(of: StreamLayout.segmentURI(sequence: sequence))
            case .playlist(let playlist):
                path = layout.playlistPath
                body = .memory(playlist.renderedData())
            case .part(let address):
                path = layout.partPath(sequence: address.sequence, index: address.index)
                body = .memory(partBodies[address] ?? Data())
            }
            let target = lanes[lane].target
            let item = upload.item
            let post = self.post
            group.addTask {
                let failure: PublishQueue.Failure?
                do {
                    let data = try body.load()
                    try await target.put(path: path, body: data, contentType: StreamLayout.contentType(forPath: path))
                    failure = nil
                } catch is CancellationError {
                    return
                } catch let error as any PublishTargetError {
                    failure = error.isRetryable ? .retryable(error.description) : .fatal(error.description)
                } catch {
                    failure = .retryable(ErrorSentence.reason(error))
                }
                post.yield(.uploaded(lane: lane, item: item, failure: failure))
            }
        }
    }

    private mutating func forgetPartsNobodyAwaits() {
        for address in partBodies.keys where !lanes.contains(where: { $0.queue.awaitsUpload(of: address) }) {
            partBodies[address] = nil
        }
    }

    /// Makes sure a wake-up is pending for the earliest retry of any lane.
    private mutating func scheduleNextWakeUp(group: inout DiscardingTaskGroup) {
        let due = lanes.filter { !$0.isSettled }.compactMap(\.queue.nextRetryTime).min()
        guard let due else { return }
        let instant = start + .nanoseconds(due.nanoseconds)
        guard !wakeUps.contains(where: { $0 <= instant }) else { return }
        wakeUps.append(instant)
        let post = self.post
        group.addTask {
            do {
                try await Task.sleep(until: instant, clock: .continuous)
                post.yield(.wake)
            } catch {}
        }
    }

    private func publishStatus() {
        board.update(lanes.map { HLSPublisher.TargetStatus(name: $0.target.name, stats: $0.queue.stats, state: $0.queue.state) })
    }

    // MARK: Spool

    private mutating func store(_ bytes: Data, at relativePath: String) {
        do {
            try spool.store(bytes, at: relativePath)
            unspooled[relativePath] = nil
            if !spooled.contains(relativePath) { spooled.append(relativePath) }
        } catch {
            // Keep publishing from memory; the spool just lost its crash safety for this file.
            if relativePath != StreamLayout.playlistName { unspooled[relativePath] = bytes }
            problems.append("Spooling \(relativePath) failed, so it is kept in memory only: \(ErrorSentence.reason(error))")
        }
    }

    /// Notes the sliding window in the spool, so `reel publish` of a killed run lists the same
    /// window without being told (removed with the spool; never published).
    private mutating func recordWindow(_ window: Int) {
        let path = SpooledStream.windowFileName
        guard (try? spool.store(Data("\(window)\n".utf8), at: path)) != nil else { return }
        if !spooled.contains(path) { spooled.append(path) }
    }

    private func source(of relativePath: String) -> Body {
        if let bytes = unspooled[relativePath] { return .memory(bytes) }
        return .file(spool.root.appendingPathComponent(relativePath))
    }

    private mutating func removeSpool() {
        let fileManager = FileManager.default
        for path in spooled {
            try? fileManager.removeItem(at: spool.root.appendingPathComponent(path))
        }
        // Remove the folders only if nothing else is in them. A write the killed run left
        // half done (its temporary file) is not something else: it is removed first.
        for folder in [spool.root.appendingPathComponent("seg"), spool.root] {
            DurableFile.removeLeftovers(in: folder.path)
            if (try? fileManager.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
                try? fileManager.removeItem(at: folder)
            }
        }
    }

    // MARK: Report

    private mutating func makeReport() -> HLSPublisher.Report {
        let targets = lanes.map { lane -> HLSPublisher.TargetReport in
            let queue = lane.queue
            let stats = queue.stats
            let missing = HLSPublisher.Unpublished(
                initPublished: stats.initPublished,
                notUploaded: queue.notUploadedSequences,
                notListed: queue.uncommittedSequences,
                endlistPublished: queue.committed?.isFinished ?? false,
                lastFailure: stats.lastFailure
            )
            let outcome: HLSPublisher.Outcome
            switch queue.state {
            case .finished: outcome = .published
            case .failed(let fatal): outcome = .failed(message: fatal.message, unpublished: missing)
            case .running, .finishing: outcome = .incomplete(missing)
            }
            return HLSPublisher.TargetReport(name: lane.target.name, outcome: outcome, stats: stats)
        }
        let complete = targets.allSatisfy(\.isComplete) && unspooled.isEmpty
        let keep = settings.keepsSpoolWhenComplete || !complete
        if !keep { removeSpool() }
        return HLSPublisher.Report(
            targets: targets,
            segmentsReceived: spoolPlaylist.segments.count,
            drainTimedOut: drainTimedOut,
            spoolDirectory: settings.spoolDirectory,
            spoolKept: keep,
            problems: problems
        )
    }
}
