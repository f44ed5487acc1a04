import Foundation

/// The copy-then-commit rules for publishing one live stream to one target, as a value-type
/// state machine: feed it events with the current time, perform the ``Action``s it returns.
///
/// It does no I/O and reads no clock. The driver (`HLSPublisher` in ReelLive) tells it what
/// happened — init ready, segment ready, an upload's result, finish requested, time passed —
/// and it answers with what to do next: start an upload, call ``tick(now:)`` again at a time,
/// report that the stream is finished or that publishing failed for good.
///
/// Rules (docs/behaviour.md §2, Publishing):
/// - `init.mp4` goes first; segments that become ready meanwhile wait.
/// - Up to ``Settings/maxSegmentUploadsInFlight`` segment PUTs run at once, lowest sequence
///   number first.
/// - The playlist lists only segments whose PUT succeeded, in sequence order, up to the last
///   contiguous one. One playlist PUT is in flight at a time; segments that become listable
///   meanwhile go into the next one (coalescing).
/// - ``committed`` (what the target is known to have) changes only when a playlist PUT
///   succeeded.
/// - A failed PUT stays queued and is tried again: ``RetryPolicy/quickAttempts`` quick attempts
///   (250 ms, 500 ms), then capped exponential backoff (1 s, 2 s, 4 s, 8 s, 8 s, …), so an
///   outage loses nothing.
/// - Failures are judged per target, not per file: the first failure makes the target
///   *suspect*. While suspect, nothing new starts; when the retry time comes, one upload — the
///   most urgent queued one (init, then the lowest segment, then the playlist) — probes the
///   target. A failed probe lengthens the wait; a successful one ends the episode and the
///   backlog goes out at full concurrency (catch-up). Uploads that were already running when
///   the target became suspect finish normally, but their results do not end the episode:
///   only a probe does. So an outage costs one request per retry interval, not one per queued
///   file.
/// - ENDLIST is published only once finish was requested and every segment has been uploaded:
///   the playlist that carries it lists them all.
/// - With a sliding window (``Settings/window``) the playlist lists only the newest of those
///   segments; the older ones stay on the target. A long stream's playlist then stays small:
///   an EVENT playlist grows by ~80 bytes a segment and is sent again with every segment (with
///   every part under LL-HLS: after an hour, ~140 KB three times a second).
/// - A ``Failure/fatal(_:)`` result (an authorization failure) ends publishing: retrying
///   cannot fix it.
///
/// LL-HLS (``Settings/lowLatency``): the parts of the segment in progress come before it
/// (``partReady(_:now:)``). Parts only cut latency; the segment carries the same bytes, so
/// parts are never retried and never wait:
/// - A part is uploaded as soon as it is ready while the target is healthy and has the init
///   segment, at any concurrency; while the target is suspect it is skipped, and a part
///   whose upload fails is skipped too (the failure still makes the target suspect).
/// - The playlist lists the uploaded parts of the segment after the last listed one, from
///   part 0 on without a gap, and the parts of listed segments that end within three target
///   durations of the end when all of them were uploaded; its preload hint names the next
///   part to come. Each uploaded part makes the playlist out of date, so one follows.
public struct PublishQueue: Sendable {
    /// The fixed parameters of a queue.
    public struct Settings: Sendable, Hashable {
        /// EXT-X-TARGETDURATION of the playlists this queue publishes.
        public var targetDuration: Int
        /// How many segment PUTs may run at once (at least 1).
        public var maxSegmentUploadsInFlight: Int
        /// Waits between attempts of a failed PUT.
        public var retryPolicy: RetryPolicy
        /// LL-HLS parts and tags; nil publishes regular HLS.
        public var lowLatency: HLSPlaylist.LowLatency?
        /// A sliding window: the playlist lists at most this many of the newest segments (the
        /// older ones stay on the target, unlisted); nil lists them all (an EVENT playlist).
        public var window: Int?

        /// Settings; 3 segment uploads in flight and the default retry policy unless told.
        public init(targetDuration: Int, maxSegmentUploadsInFlight: Int = 3, retryPolicy: RetryPolicy = .default,
                    lowLatency: HLSPlaylist.LowLatency? = nil, window: Int? = nil) {
            precondition(targetDuration > 0, "the target duration must be positive")
            precondition(maxSegmentUploadsInFlight >= 1, "at least one segment upload must be allowed")
            precondition(window.map { $0 >= 1 } ?? true, "a sliding window lists at least one segment")
            self.targetDuration = targetDuration
            self.maxSegmentUploadsInFlight = maxSegmentUploadsInFlight
            self.retryPolicy = retryPolicy
            self.lowLatency = lowLatency
            self.window = window
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
        /// An LL-HLS part.
        case part(HLSPlaylist.PartAddress)

        /// `init.mp4`, `segment 3`, `playlist.m3u8` or `part 3.1`, for messages.
        public var description: String {
            switch self {
            case .initSegment: "init.mp4"
            case .segment(let sequence): "segment \(sequence)"
            case .playlist: "playlist.m3u8"
            case .part(let address): "part \(address.sequence).\(address.index)"
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
        /// PUT this LL-HLS part.
        case part(HLSPlaylist.PartAddress)

        /// The item to name when reporting this upload's result.
        public var item: Item {
            switch self {
            case .initSegment: .initSegment
            case .segment(let sequence): .segment(sequence)
            case .playlist: .playlist
            case .part(let address): .part(address)
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
        /// Call ``tick(now:)`` at (or after) this time: a retry is due then.
        case scheduleRetry(at: MediaTime)
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
        /// Failures in a row of the target (0 when healthy).
        public var consecutiveFailures = 0
        /// Whether the quick attempts are used up and retries wait with backoff (the target looks down).
        public var isBackingOff = false
        /// The last failure's text, if any upload ever failed.
        public var lastFailure: String?
        /// LL-HLS parts uploaded.
        public var partsPublished = 0
        /// LL-HLS parts not uploaded: the target was suspect, or their upload failed.
        public var partsSkipped = 0

        /// Segments received but not yet listed in the committed playlist.
        public var backlog: Int { received - committed }

        /// All zero.
        public init() {}
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
        /// A part that is not the next one of the segment in progress, or one without LL-HLS.
        case unexpectedPart(HLSPlaylist.PartAddress)

        /// A message for the user: what happened and what to do.
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
            case .unexpectedPart(let address):
                "Part \(address.index) of segment \(address.sequence) was not the next part of the segment in progress (or the stream is not low-latency); it was not published."
            }
        }
    }

    private enum Phase: Sendable, Hashable {
        case queued
        case inFlight
        case done
        /// A part that will never be uploaded.
        case skipped
    }

    /// An LL-HLS part ready for upload, as the writer hands it over.
    public struct PartInfo: Sendable, Hashable {
        /// The part's listing.
        public var part: HLSPlaylist.Part
        /// Wall-clock time of its segment's first frame.
        public var segmentDate: Date
        /// Whether a gap in the media precedes its segment.
        public var segmentFollowsDiscontinuity: Bool

        /// A part of the segment in progress.
        public init(part: HLSPlaylist.Part, segmentDate: Date, segmentFollowsDiscontinuity: Bool = false) {
            self.part = part
            self.segmentDate = segmentDate
            self.segmentFollowsDiscontinuity = segmentFollowsDiscontinuity
        }
    }

    private struct PartRecord: Sendable {
        var info: PartInfo
        var phase: Phase
    }

    /// Parts kept per segment: enough for the part window at any segment length the cut
    /// policy makes, and a bound on memory.
    private static let partSegmentsKept = 16

    /// The queue's fixed parameters.
    public let settings: Settings
    /// Where the queue is in its life.
    public private(set) var state = State.running
    /// The last playlist the target confirmed (its PUT succeeded); `nil` before the first.
    public private(set) var committed: HLSPlaylist?

    private var initPhase: Phase?
    private var segments: [HLSPlaylist.Segment] = []
    private var segmentPhases: [Phase] = []
    /// Segments 1...uploadedThrough have all been uploaded.
    private var uploadedThrough = 0
    private var uploadedCount = 0
    private var playlistInFlight: HLSPlaylist?
    private var finishRequested = false
    private var failedAttempts = 0
    private var lastFailure: String?
    /// LL-HLS parts by their segment's sequence number (the last ``partSegmentsKept`` segments).
    private var parts: [Int: [PartRecord]] = [:]
    private var partsPublished = 0
    private var partsSkipped = 0

    /// Failures in a row; 0 while the target is healthy.
    private var consecutiveFailures = 0
    /// While suspect: when the next probe may start; `nil` once that time has come.
    private var retryAt: MediaTime?
    /// While suspect: the one upload probing the target.
    private var probe: Item?

    /// An idle queue.
    public init(settings: Settings) {
        self.settings = settings
    }

    // MARK: Inputs

    /// `init.mp4` is ready to upload.
    public mutating func initReady(now: MediaTime) throws(Error) -> [Action] {
        guard initPhase == nil else { throw .initAlreadyReady }
        initPhase = .queued
        return pump(now: now)
    }

    /// Media segment `sequence` (1, 2, 3, …) is ready to upload.
    ///
    /// After a fatal failure the segment is only counted (so a report can name it).
    public mutating func segmentReady(sequence: Int, duration: MediaTime, programDateTime: Date, followsDiscontinuity: Bool = false,
                                      now: MediaTime) throws(Error) -> [Action] {
        if finishRequested { throw .segmentAfterFinish(sequence: sequence) }
        guard sequence == segments.count + 1 else {
            throw .unexpectedSequence(expected: segments.count + 1, got: sequence)
        }
        guard duration > .zero else { throw .nonPositiveDuration(sequence: sequence, duration: duration) }
        segments.append(HLSPlaylist.Segment(sequence: sequence, duration: duration, programDateTime: programDateTime,
                                            followsDiscontinuity: followsDiscontinuity))
        segmentPhases.append(.queued)
        return pump(now: now)
    }

    /// LL-HLS: the next part of the segment in progress (sequence = the last segment's plus
    /// one; index 0, 1, … in order) is ready. It is uploaded at once while the target is
    /// healthy, and skipped otherwise.
    public mutating func partReady(_ info: PartInfo, now: MediaTime) throws(Error) -> [Action] {
        let address = info.part.address
        guard settings.lowLatency != nil, !finishRequested, address.sequence == segments.count + 1,
              address.index == parts[address.sequence]?.count ?? 0 else { throw .unexpectedPart(address) }
        parts[address.sequence, default: []].append(PartRecord(info: info, phase: .queued))
        parts[address.sequence - Self.partSegmentsKept] = nil
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
        guard isActive, isInFlight(item) else { return [] }
        switch item {
        case .initSegment:
            initPhase = .done
        case .segment(let sequence):
            segmentPhases[sequence - 1] = .done
            uploadedCount += 1
            while uploadedThrough < segmentPhases.count, segmentPhases[uploadedThrough] == .done {
                uploadedThrough += 1
            }
        case .playlist:
            committed = playlistInFlight
            playlistInFlight = nil
        case .part(let address):
            setPhase(of: address, to: .done)
            partsPublished += 1
        }
        if item == probe {
            // The target answered again: the episode is over.
            probe = nil
            consecutiveFailures = 0
            retryAt = nil
        }
        return pump(now: now)
    }

    /// The upload of `item` failed. Results for uploads not in flight are ignored.
    public mutating func uploadFailed(_ item: Item, _ failure: Failure, now: MediaTime) -> [Action] {
        guard isActive, isInFlight(item) else { return [] }
        failedAttempts += 1
        switch item {
        case .initSegment: initPhase = .queued
        case .segment(let sequence): segmentPhases[sequence - 1] = .queued
        case .playlist: playlistInFlight = nil
        case .part(let address):
            setPhase(of: address, to: .skipped)
            partsSkipped += 1
        }
        let message: String
        switch failure {
        case .fatal(let text):
            lastFailure = text
            let fatal = FatalFailure(item: item, message: text)
            state = .failed(fatal)
            return [.failed(fatal)]
        case .retryable(let text):
            message = text
        }
        lastFailure = message

        var actions: [Action] = []
        if item == probe || consecutiveFailures == 0 {
            // A failed probe, or the first failure of an episode. Failures of uploads started
            // before the target became suspect belong to the same episode and add nothing.
            probe = nil
            consecutiveFailures += 1
            let at = now + settings.retryPolicy.delay(afterFailures: consecutiveFailures)
            retryAt = at
            actions.append(.scheduleRetry(at: at))
        }
        return actions + pump(now: now)
    }

    /// Time passed: start a retry that is due.
    public mutating func tick(now: MediaTime) -> [Action] {
        pump(now: now)
    }

    // MARK: Queries

    /// Counters for a status line.
    public var stats: Stats {
        var stats = Stats()
        stats.received = segments.count
        stats.published = uploadedCount
        stats.committed = committedThrough
        stats.pending = segments.count - uploadedCount
        if isActive {  // after a fatal failure, uploads still running are abandoned
            let partsInFlight = parts.values.reduce(0) { $0 + $1.count { $0.phase == .inFlight } }
            stats.inFlight = (initPhase == .inFlight ? 1 : 0) + (playlistInFlight == nil ? 0 : 1) + segmentsInFlight + partsInFlight
        }
        stats.failedAttempts = failedAttempts
        stats.initPublished = initPhase == .done
        stats.consecutiveFailures = consecutiveFailures
        stats.isBackingOff = settings.retryPolicy.isBackingOff(afterFailures: consecutiveFailures)
        stats.lastFailure = lastFailure
        stats.partsPublished = partsPublished
        stats.partsSkipped = partsSkipped
        return stats
    }

    /// When ``tick(now:)`` must be called next for a retry, if one is waiting.
    public var nextRetryTime: MediaTime? {
        isActive && probe == nil ? retryAt : nil
    }

    /// Sequence numbers of segments not yet uploaded, ascending.
    public var notUploadedSequences: [Int] {
        segmentPhases.indices.filter { segmentPhases[$0] != .done }.map { $0 + 1 }
    }

    /// Sequence numbers of segments not listed in the committed playlist, ascending.
    public var uncommittedSequences: [Int] {
        committedThrough < segments.count ? Array((committedThrough + 1)...segments.count) : []
    }

    /// The last segment the committed playlist lists (segments 1 to it are on the target; a
    /// sliding window lists only the newest of them); 0 before the first.
    private var committedThrough: Int { committed?.lastSequence ?? 0 }

    /// The playlist the target should have now: every contiguously uploaded segment (the
    /// newest ``Settings/window`` of them with a sliding window), with ENDLIST once finish was
    /// requested and all segments are uploaded; with LL-HLS, the uploaded parts (see the
    /// type's rules) and the preload hint.
    public var publishablePlaylist: HLSPlaylist {
        var playlist = HLSPlaylist(
            targetDuration: settings.targetDuration,
            segments: Array(segments[..<uploadedThrough]),
            isFinished: finishRequested && uploadedThrough == segments.count,
            lowLatency: settings.lowLatency
        )
        if let window = settings.window {
            let dropped = max(0, playlist.segments.count - window)
            playlist.isSlidingWindow = true
            playlist.discontinuitySequence = playlist.segments[..<dropped].count(where: \.followsDiscontinuity)
            playlist.segments.removeFirst(dropped)
            playlist.mediaSequence = dropped + 1
        }
        guard settings.lowLatency != nil else { return playlist }
        listParts(in: &playlist)
        return playlist
    }

    /// Whether a part's bytes may still be asked for (queued or in flight).
    public func awaitsUpload(of address: HLSPlaylist.PartAddress) -> Bool {
        guard isActive, let records = parts[address.sequence], records.indices.contains(address.index) else { return false }
        let phase = records[address.index].phase
        return phase == .queued || phase == .inFlight
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
        case .initSegment: initPhase == .inFlight
        case .segment(let sequence): segmentPhases.indices.contains(sequence - 1) && segmentPhases[sequence - 1] == .inFlight
        case .playlist: playlistInFlight != nil
        case .part(let address): parts[address.sequence].map { $0.indices.contains(address.index) && $0[address.index].phase == .inFlight } ?? false
        }
    }

    private mutating func setPhase(of address: HLSPlaylist.PartAddress, to phase: Phase) {
        guard parts[address.sequence]?.indices.contains(address.index) == true else { return }
        parts[address.sequence]![address.index].phase = phase
    }

    /// Starts every queued part while healthy; skips them while the target is suspect.
    private mutating func pumpParts(healthy: Bool) -> [Action] {
        var actions: [Action] = []
        for sequence in parts.keys.sorted() {
            for index in parts[sequence]!.indices where parts[sequence]![index].phase == .queued {
                if healthy {
                    guard initPhase == .done else { return actions }
                    parts[sequence]![index].phase = .inFlight
                    actions.append(.upload(.part(HLSPlaylist.PartAddress(sequence: sequence, index: index))))
                } else {
                    parts[sequence]![index].phase = .skipped
                    partsSkipped += 1
                }
            }
        }
        return actions
    }

    /// Adds to `playlist` (the listed segments set) the parts a player may read: those of
    /// the recent listed segments that were all uploaded, those of the segment in progress
    /// from part 0 on without a gap, and the hint of the next part.
    private func listParts(in playlist: inout HLSPlaylist) {
        let windowStart = Double(HLSPlaylist.LowLatency.partWindowTargetDurations * settings.targetDuration)
        var fromEnd = 0.0
        for position in playlist.segments.indices.reversed() {
            guard fromEnd < windowStart else { break }
            let segment = playlist.segments[position]
            fromEnd += segment.duration.seconds
            if let records = parts[segment.sequence], !records.isEmpty, records.allSatisfy({ $0.phase == .done }) {
                playlist.segments[position].parts = records.map(\.info.part)
            }
        }
        guard !playlist.isFinished else { return }
        let next = uploadedThrough + 1
        let records = parts[next] ?? []
        let listed = records.prefix { $0.phase == .done }
        if let first = listed.first {
            playlist.partial = HLSPlaylist.PartialSegment(sequence: next, programDateTime: first.info.segmentDate,
                                                          parts: listed.map(\.info.part),
                                                          followsDiscontinuity: first.info.segmentFollowsDiscontinuity)
        }
        guard !finishRequested else { return }  // no part comes after the last segment: nothing to hint
        let segmentComplete = segments.count >= next
        let gapInParts = listed.count < records.count && records[listed.count].phase == .skipped
        playlist.preloadHint = segmentComplete && listed.count == records.count || gapInParts
            ? HLSPlaylist.PartAddress(sequence: next + 1, index: 0)
            : HLSPlaylist.PartAddress(sequence: next, index: listed.count)
    }

    private var segmentsInFlight: Int {
        segmentPhases[uploadedThrough...].count { $0 == .inFlight }
    }

    /// The playlist to PUT now, if the committed one is out of date and none is in flight.
    private var playlistToPublish: HLSPlaylist? {
        guard playlistInFlight == nil else { return nil }
        let playlist = publishablePlaylist
        guard !playlist.segments.isEmpty || playlist.partial != nil else { return nil }
        return playlist == committed ? nil : playlist
    }

    /// Starts whatever may start now and detects the end.
    private mutating func pump(now: MediaTime) -> [Action] {
        guard isActive else { return [] }
        var actions: [Action] = []

        if consecutiveFailures == 0 {
            // Healthy: init, then every part, as many segments as allowed, then the playlist.
            if initPhase == .queued {
                initPhase = .inFlight
                actions.append(.upload(.initSegment))
            }
            actions += pumpParts(healthy: true)
            if initPhase == .done {
                var inFlight = segmentsInFlight
                for index in segmentPhases.indices.dropFirst(uploadedThrough) where inFlight < settings.maxSegmentUploadsInFlight {
                    guard segmentPhases[index] == .queued else { continue }
                    segmentPhases[index] = .inFlight
                    inFlight += 1
                    actions.append(.upload(.segment(index + 1)))
                }
            }
            if let playlist = playlistToPublish {
                playlistInFlight = playlist
                actions.append(.upload(.playlist(playlist)))
            }
        } else {
            _ = pumpParts(healthy: false)
        }
        if consecutiveFailures > 0, probe == nil {
            // Suspect: one probe at a time, once the retry is due. A due retry with nothing
            // to probe yet waits (retryAt == nil) for the next queued upload.
            if let at = retryAt, at <= now { retryAt = nil }
            if retryAt == nil, let upload = mostUrgentUpload() {
                start(upload)
                probe = upload.item
                actions.append(.upload(upload))
            }
        }

        if finishRequested {
            let done: Bool
            if segments.isEmpty {
                done = initPhase == nil || initPhase == .done
            } else {
                done = committed?.isFinished == true && committedThrough == segments.count
            }
            if done {
                state = .finished
                actions.append(.finished)
            }
        }
        return actions
    }

    private mutating func start(_ upload: Upload) {
        switch upload {
        case .initSegment: initPhase = .inFlight
        case .segment(let sequence): segmentPhases[sequence - 1] = .inFlight
        case .playlist(let playlist): playlistInFlight = playlist
        case .part(let address): setPhase(of: address, to: .inFlight)
        }
    }

    /// The queued upload a probe should try: init, else the lowest queued segment (if a slot
    /// is free), else the playlist.
    private func mostUrgentUpload() -> Upload? {
        if initPhase == .queued { return .initSegment }
        guard initPhase == .done else { return nil }
        if segmentsInFlight < settings.maxSegmentUploadsInFlight,
           let index = segmentPhases.indices.dropFirst(uploadedThrough).first(where: { segmentPhases[$0] == .queued }) {
            return .segment(index + 1)
        }
        return playlistToPublish.map(Upload.playlist)
    }
}
