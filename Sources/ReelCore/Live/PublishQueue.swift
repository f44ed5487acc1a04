import Foundation

/// The copy-then-commit rules for publishing one live stream to one target, as a value-type
/// state machine: feed it events with the current time, perform the ``Action``s it returns.
///
/// It does no I/O and reads no clock. The driver (`HLSPublisher` in ReelLive) tells it what
/// happened — init ready, segment ready, an upload's result, finish requested, time passed —
/// and it answers with what to do next: start an upload, call ``tick(now:)`` again at a time,
/// report that the stream is finished or that publishing failed for good.
///
/// Rules (spec §2, Publishing):
/// - `init.mp4` goes first; segments that become ready meanwhile wait.
/// - Up to ``Settings/maxSegmentUploadsInFlight`` segment PUTs run at once, lowest sequence
///   number first.
/// - The playlist lists only segments whose PUT succeeded, in sequence order, up to the last
///   contiguous one. One playlist PUT is in flight at a time; segments that become listable
///   meanwhile go into the next one (coalescing).
/// - ``committed`` (what the target is known to have) changes only when a playlist PUT
///   succeeded.
/// - Each PUT gets ``RetryPolicy/quickAttempts`` quick attempts, then stays queued and is
///   retried with capped exponential backoff. While any upload is backing off the target
///   looks down: no fresh uploads start, only the backing-off ones probe it. The first success
///   ends the outage: everything backing off is due at once, and the backlog goes out at full
///   concurrency.
/// - ENDLIST is published only once finish was requested and every segment has been uploaded:
///   the playlist that carries it lists them all.
/// - A ``Failure/fatal(_:)`` result (an authorization failure) ends publishing: retrying
///   cannot fix it.
public struct PublishQueue: Sendable {
    /// The fixed parameters of a queue.
    public struct Settings: Sendable, Hashable {
        /// EXT-X-TARGETDURATION of the playlists this queue publishes.
        public var targetDuration: Int
        /// How many segment PUTs may run at once (at least 1).
        public var maxSegmentUploadsInFlight: Int
        /// Waits between attempts of a failed PUT.
        public var retryPolicy: RetryPolicy

        /// Settings; 3 segment uploads in flight and the default retry policy unless told.
        public init(targetDuration: Int, maxSegmentUploadsInFlight: Int = 3, retryPolicy: RetryPolicy = .default) {
            precondition(targetDuration > 0, "the target duration must be positive")
            precondition(maxSegmentUploadsInFlight >= 1, "at least one segment upload must be allowed")
            self.targetDuration = targetDuration
            self.maxSegmentUploadsInFlight = maxSegmentUploadsInFlight
            self.retryPolicy = retryPolicy
        }
    }

    /// What an upload is of; used to report an upload's result.
    public enum Item: Sendable, Hashable, CustomStringConvertible {
        /// `init.mp4`.
        case initSegment
        /// Media segment with this sequence number.
        case segment(Int)
        /// `playlist.m3u8` (only one is ever in flight).
        case playlist

        public var description: String {
            switch self {
            case .initSegment: "init.mp4"
            case .segment(let sequence): "segment \(sequence)"
            case .playlist: "playlist.m3u8"
            }
        }
    }

    /// An upload to start now.
    public enum Upload: Sendable, Hashable {
        /// PUT `init.mp4`.
        case initSegment
        /// PUT the media segment with this sequence number.
        case segment(Int)
        /// PUT this playlist.
        case playlist(HLSPlaylist)

        /// The item to name when reporting this upload's result.
        public var item: Item {
            switch self {
            case .initSegment: .initSegment
            case .segment(let sequence): .segment(sequence)
            case .playlist: .playlist
            }
        }
    }

    /// Why an upload failed, as far as the queue cares.
    public enum Failure: Sendable, Hashable {
        /// Worth retrying (connection refused, timeout, 5xx, …); the text says what happened.
        case retryable(String)
        /// Retrying cannot help (401/403: wrong or missing credentials); publishing stops.
        case fatal(String)
    }

    /// The failure that ended publishing.
    public struct FatalFailure: Sendable, Hashable {
        /// The upload that failed.
        public var item: Item
        /// What happened and what to do, from the target.
        public var message: String

        /// A fatal failure of `item`.
        public init(item: Item, message: String) {
            self.item = item
            self.message = message
        }
    }

    /// What the driver must do.
    public enum Action: Sendable, Hashable {
        /// Start this upload now; report its result with ``uploadSucceeded(_:now:)`` or
        /// ``uploadFailed(_:_:now:)``.
        case upload(Upload)
        /// Call ``tick(now:)`` at (or after) this time: a failed upload is due again then.
        case scheduleRetry(Item, at: MediaTime)
        /// Everything is published and the ENDLIST playlist is committed.
        case finished
        /// Publishing stopped for good; abandon uploads in flight.
        case failed(FatalFailure)
    }

    /// Where the queue is in its life.
    public enum State: Sendable, Hashable {
        /// Accepting segments.
        case running
        /// Finish was requested; publishing what is left, then ENDLIST.
        case finishing
        /// Everything is published, ENDLIST included.
        case finished
        /// A fatal failure stopped publishing.
        case failed(FatalFailure)
    }

    /// Counters for a status line and a final report.
    public struct Stats: Sendable, Hashable {
        /// Segments handed to the queue.
        public var received = 0
        /// Segments whose PUT succeeded.
        public var published = 0
        /// Segments listed in the committed playlist (the target is known to list them).
        public var committed = 0
        /// Segments not yet uploaded (queued, waiting for a retry, or in flight).
        public var pending = 0
        /// PUTs in flight now (init, segments and playlist); 0 once publishing failed.
        public var inFlight = 0
        /// PUT attempts that failed so far.
        public var failedAttempts = 0
        /// Whether `init.mp4` has been uploaded.
        public var initPublished = false
        /// Whether uploads are backing off (the target looks down).
        public var isBackingOff = false
        /// The last failure's text, if any upload ever failed.
        public var lastFailure: String?

        /// Segments received but not yet listed in the committed playlist.
        public var backlog: Int { received - committed }
    }

    /// A misuse of the queue by its driver.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// `init.mp4` was reported ready twice.
        case initAlreadyReady
        /// Segments must arrive as 1, 2, 3, … with no gap or repeat.
        case unexpectedSequence(expected: Int, got: Int)
        /// A segment arrived after finish was requested.
        case segmentAfterFinish(sequence: Int)
        /// A segment's duration was zero or negative.
        case nonPositiveDuration(sequence: Int, duration: MediaTime)

        public var description: String {
            switch self {
            case .initAlreadyReady:
                "init.mp4 was handed to the publisher twice; a stream has exactly one init segment."
            case .unexpectedSequence(let expected, let got):
                "The writer handed over segment \(got) but the publisher expected segment \(expected): segments must be numbered 1, 2, 3, … without gaps."
            case .segmentAfterFinish(let sequence):
                "Segment \(sequence) arrived after the stream was finished; it was not published."
            case .nonPositiveDuration(let sequence, let duration):
                "Segment \(sequence) has duration \(duration); a segment must last longer than zero."
            }
        }
    }

    private enum Phase: Sendable, Hashable {
        case queued
        case inFlight
        case waiting(until: MediaTime)
        case done
    }

    private struct Job: Sendable, Hashable {
        var failures = 0
        var phase = Phase.queued
    }

    /// The queue's fixed parameters.
    public let settings: Settings
    /// Where the queue is in its life.
    public private(set) var state = State.running
    /// The last playlist the target confirmed (its PUT succeeded); `nil` before the first.
    public private(set) var committed: HLSPlaylist?

    private var initJob: Job?
    private var segments: [HLSPlaylist.Segment] = []
    private var segmentJobs: [Job] = []
    /// Segments 1...uploadedThrough have all been uploaded.
    private var uploadedThrough = 0
    private var uploadedCount = 0
    private var playlistInFlight: HLSPlaylist?
    private var playlistFailures = 0
    private var playlistRetryAt: MediaTime?
    private var finishRequested = false
    private var failedAttempts = 0
    private var lastFailure: String?

    /// An idle queue.
    public init(settings: Settings) {
        self.settings = settings
    }

    // MARK: Inputs

    /// `init.mp4` is ready to upload.
    public mutating func initReady(now: MediaTime) throws(Error) -> [Action] {
        guard initJob == nil else { throw .initAlreadyReady }
        initJob = Job()
        return pump(now: now)
    }

    /// Media segment `sequence` (1, 2, 3, …) is ready to upload.
    ///
    /// After a fatal failure the segment is only counted (so a report can name it).
    public mutating func segmentReady(sequence: Int, duration: MediaTime, programDateTime: Date, now: MediaTime) throws(Error) -> [Action] {
        if finishRequested { throw .segmentAfterFinish(sequence: sequence) }
        guard sequence == segments.count + 1 else {
            throw .unexpectedSequence(expected: segments.count + 1, got: sequence)
        }
        guard duration > .zero else { throw .nonPositiveDuration(sequence: sequence, duration: duration) }
        segments.append(HLSPlaylist.Segment(sequence: sequence, duration: duration, programDateTime: programDateTime))
        segmentJobs.append(Job())
        return pump(now: now)
    }

    /// No more segments will come: publish what is left, then the playlist with ENDLIST.
    public mutating func finishRequested(now: MediaTime) -> [Action] {
        if finishRequested { return [] }
        finishRequested = true
        if state == .running { state = .finishing }
        return pump(now: now)
    }

    /// The upload of `item` succeeded. Results for uploads not in flight are ignored.
    public mutating func uploadSucceeded(_ item: Item, now: MediaTime) -> [Action] {
        guard isActive else { return [] }
        switch item {
        case .initSegment:
            guard initJob?.phase == .inFlight else { return [] }
            initJob = Job(failures: 0, phase: .done)
        case .segment(let sequence):
            let index = sequence - 1
            guard segmentJobs.indices.contains(index), segmentJobs[index].phase == .inFlight else { return [] }
            segmentJobs[index] = Job(failures: 0, phase: .done)
            uploadedCount += 1
            while uploadedThrough < segmentJobs.count, segmentJobs[uploadedThrough].phase == .done {
                uploadedThrough += 1
            }
        case .playlist:
            guard let playlist = playlistInFlight else { return [] }
            committed = playlist
            playlistInFlight = nil
            playlistFailures = 0
        }
        targetRecovered()
        return pump(now: now)
    }

    /// The upload of `item` failed. Results for uploads not in flight are ignored.
    public mutating func uploadFailed(_ item: Item, _ failure: Failure, now: MediaTime) -> [Action] {
        guard isActive, isInFlight(item) else { return [] }
        failedAttempts += 1
        switch failure {
        case .fatal(let message):
            lastFailure = message
            switch item {
            case .initSegment: initJob?.phase = .queued
            case .segment(let sequence): segmentJobs[sequence - 1].phase = .queued
            case .playlist: playlistInFlight = nil
            }
            let fatal = FatalFailure(item: item, message: message)
            state = .failed(fatal)
            return [.failed(fatal)]
        case .retryable(let message):
            lastFailure = message
        }
        let policy = settings.retryPolicy
        let at: MediaTime
        switch item {
        case .initSegment:
            var job = initJob!
            job.failures += 1
            at = now + policy.delay(afterFailures: job.failures)
            job.phase = .waiting(until: at)
            initJob = job
        case .segment(let sequence):
            var job = segmentJobs[sequence - 1]
            job.failures += 1
            at = now + policy.delay(afterFailures: job.failures)
            job.phase = .waiting(until: at)
            segmentJobs[sequence - 1] = job
        case .playlist:
            playlistInFlight = nil
            playlistFailures += 1
            at = now + policy.delay(afterFailures: playlistFailures)
            playlistRetryAt = at
        }
        return [.scheduleRetry(item, at: at)] + pump(now: now)
    }

    /// Time passed: start the uploads whose retry is due.
    public mutating func tick(now: MediaTime) -> [Action] {
        pump(now: now)
    }

    // MARK: Queries

    /// Counters for a status line.
    public var stats: Stats {
        var stats = Stats()
        stats.received = segments.count
        stats.published = uploadedCount
        stats.committed = committed?.segments.count ?? 0
        stats.pending = segments.count - uploadedCount
        if isActive {  // after a fatal failure, uploads still running are abandoned
            stats.inFlight = (initJob?.phase == .inFlight ? 1 : 0) + (playlistInFlight == nil ? 0 : 1)
                + segmentJobs[uploadedThrough...].count { $0.phase == .inFlight }
        }
        stats.failedAttempts = failedAttempts
        stats.initPublished = initJob?.phase == .done
        stats.isBackingOff = isBackingOff
        stats.lastFailure = lastFailure
        return stats
    }

    /// The earliest time a failed upload is due again, if one is waiting.
    public var nextRetryTime: MediaTime? {
        var times: [MediaTime] = []
        if case .waiting(let at)? = initJob?.phase { times.append(at) }
        for job in segmentJobs[uploadedThrough...] {
            if case .waiting(let at) = job.phase { times.append(at) }
        }
        if let at = playlistRetryAt { times.append(at) }
        return times.min()
    }

    /// Sequence numbers of segments not yet uploaded, ascending.
    public var notUploadedSequences: [Int] {
        segmentJobs.indices.filter { segmentJobs[$0].phase != .done }.map { $0 + 1 }
    }

    /// Sequence numbers of segments not listed in the committed playlist, ascending.
    public var uncommittedSequences: [Int] {
        let listed = committed?.segments.count ?? 0
        return listed < segments.count ? Array((listed + 1)...segments.count) : []
    }

    /// The playlist the target should have now: every contiguously uploaded segment, with
    /// ENDLIST once finish was requested and all segments are uploaded.
    public var publishablePlaylist: HLSPlaylist {
        HLSPlaylist(
            targetDuration: settings.targetDuration,
            segments: Array(segments[..<uploadedThrough]),
            isFinished: finishRequested && uploadedThrough == segments.count
        )
    }

    // MARK: Rules

    private var isActive: Bool {
        switch state {
        case .running, .finishing: true
        case .finished, .failed: false
        }
    }

    private func isInFlight(_ item: Item) -> Bool {
        switch item {
        case .initSegment: initJob?.phase == .inFlight
        case .segment(let sequence): segmentJobs.indices.contains(sequence - 1) && segmentJobs[sequence - 1].phase == .inFlight
        case .playlist: playlistInFlight != nil
        }
    }

    /// Whether some upload has used up its quick attempts and not succeeded since.
    private var isBackingOff: Bool {
        let policy = settings.retryPolicy
        if let job = initJob, job.phase != .done, policy.isBackingOff(afterFailures: job.failures) { return true }
        if policy.isBackingOff(afterFailures: playlistFailures) { return true }
        return segmentJobs[uploadedThrough...].contains { $0.phase != .done && policy.isBackingOff(afterFailures: $0.failures) }
    }

    /// A PUT succeeded, so the target is up: uploads backing off are due now, with fresh
    /// quick attempts. Uploads in their quick attempts keep their schedule.
    private mutating func targetRecovered() {
        let policy = settings.retryPolicy
        if var job = initJob, case .waiting = job.phase, policy.isBackingOff(afterFailures: job.failures) {
            job = Job(failures: 0, phase: .queued)
            initJob = job
        }
        for index in segmentJobs.indices.dropFirst(uploadedThrough) {
            if case .waiting = segmentJobs[index].phase, policy.isBackingOff(afterFailures: segmentJobs[index].failures) {
                segmentJobs[index] = Job(failures: 0, phase: .queued)
            }
        }
        if playlistInFlight == nil, policy.isBackingOff(afterFailures: playlistFailures) {
            playlistFailures = 0
            playlistRetryAt = nil
        }
    }

    /// Starts whatever may start now and detects the end.
    private mutating func pump(now: MediaTime) -> [Action] {
        guard isActive else { return [] }
        var actions: [Action] = []

        // Retries that are due go back in line.
        if var job = initJob, case .waiting(let at) = job.phase, at <= now {
            job.phase = .queued
            initJob = job
        }
        for index in segmentJobs.indices.dropFirst(uploadedThrough) {
            if case .waiting(let at) = segmentJobs[index].phase, at <= now { segmentJobs[index].phase = .queued }
        }
        if let at = playlistRetryAt, at <= now { playlistRetryAt = nil }

        // While the target looks down only retries run; fresh uploads wait for a success.
        let freshAllowed = !isBackingOff

        if var job = initJob, job.phase == .queued, job.failures > 0 || freshAllowed {
            job.phase = .inFlight
            initJob = job
            actions.append(.upload(.initSegment))
        }

        if initJob?.phase == .done {
            var inFlight = segmentJobs[uploadedThrough...].count { $0.phase == .inFlight }
            for index in segmentJobs.indices.dropFirst(uploadedThrough) where inFlight < settings.maxSegmentUploadsInFlight {
                let job = segmentJobs[index]
                guard job.phase == .queued, job.failures > 0 || freshAllowed else { continue }
                segmentJobs[index].phase = .inFlight
                inFlight += 1
                actions.append(.upload(.segment(index + 1)))
            }
        }

        if playlistInFlight == nil, playlistRetryAt == nil, uploadedThrough > 0, playlistFailures > 0 || freshAllowed {
            let playlist = publishablePlaylist
            if playlist != committed {
                playlistInFlight = playlist
                actions.append(.upload(.playlist(playlist)))
            }
        }

        if finishRequested {
            let done: Bool
            if segments.isEmpty {
                done = initJob == nil || initJob?.phase == .done
            } else {
                done = committed?.isFinished == true && committed?.segments.count == segments.count
            }
            if done {
                state = .finished
                actions.append(.finished)
            }
        }
        return actions
    }
}
