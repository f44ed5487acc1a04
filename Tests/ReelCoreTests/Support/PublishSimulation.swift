import Foundation
import Testing
@testable import ReelCore

/// Drives a ``PublishQueue`` against a simulated origin on a virtual clock, performing every
/// action the queue returns and checking the publishing invariants at each step.
///
/// The origin is a function of (time, upload) deciding success or failure; uploads take
/// `latency(upload)` of virtual time. Events at the same time run in the order they were
/// scheduled.
struct PublishSimulation {
    typealias Upload = PublishQueue.Upload
    typealias Failure = PublishQueue.Failure

    enum Event {
        case initReady
        case segmentReady(Int, duration: MediaTime)
        case finish
        case completed(Upload)
        case tick
    }

    var queue: PublishQueue
    var now = MediaTime.zero
    /// `nil` = the PUT succeeds.
    var origin: (MediaTime, Upload) -> Failure?
    var latency: (Upload) -> MediaTime

    private var events: [(at: MediaTime, order: Int, event: Event)] = []
    private var order = 0

    /// Every upload started, with its start time.
    private(set) var started: [(at: MediaTime, upload: Upload)] = []
    /// Every upload result, with its time.
    private(set) var results: [(at: MediaTime, item: PublishQueue.Item, failure: Failure?)] = []
    /// Every retry the queue scheduled: when it was scheduled and for when.
    private(set) var retries: [(scheduledAt: MediaTime, at: MediaTime)] = []
    /// What the origin has stored: items whose PUT succeeded, and the last stored playlist.
    private(set) var stored: Set<PublishQueue.Item> = []
    private(set) var storedPlaylist: HLSPlaylist?
    /// Every playlist the origin stored, with the time.
    private(set) var storedPlaylists: [(at: MediaTime, playlist: HLSPlaylist)] = []
    private(set) var finishedAt: MediaTime?
    private(set) var fatal: PublishQueue.FatalFailure?
    private(set) var finishRequested = false
    private(set) var segmentsReady = 0
    private var inFlight: [Upload] = []
    /// The upload started while the target was suspect, until it completes.
    private var probe: Upload?

    static let programStart = Date(timeIntervalSince1970: 1_796_006_591.123)

    init(
        settings: PublishQueue.Settings = .init(targetDuration: 2),
        latency: @escaping (Upload) -> MediaTime = { _ in MediaTime(value: 100, timescale: 1000) },
        origin: @escaping (MediaTime, Upload) -> Failure? = { _, _ in nil }
    ) {
        queue = PublishQueue(settings: settings)
        self.latency = latency
        self.origin = origin
    }

    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    mutating func schedule(_ event: Event, at time: MediaTime) {
        order += 1
        events.append((time, order, event))
    }

    /// Schedules init at `start` and `count` segments of 2 s, one every `every`, then finish.
    mutating func scheduleStream(segments count: Int, every: MediaTime = ms(2000), start: MediaTime = .zero, finish: Bool = true) {
        schedule(.initReady, at: start)
        for sequence in stride(from: 1, through: count, by: 1) {
            schedule(.segmentReady(sequence, duration: MediaTime(value: 2, timescale: 1)), at: start + every * Int64(sequence))
        }
        if finish { schedule(.finish, at: start + every * Int64(count) + Self.ms(1)) }
    }

    /// Runs events until none are left, the queue ended, or `limit` is passed.
    mutating func run(until limit: MediaTime = MediaTime(value: 3600, timescale: 1), sourceLocation: SourceLocation = #_sourceLocation) throws {
        var steps = 0
        while finishedAt == nil, fatal == nil {
            steps += 1
            if steps > 20_000 {
                Issue.record("the simulation did not settle after \(steps) events (at \(now))", sourceLocation: sourceLocation)
                return
            }
            guard let next = events.indices.min(by: { (events[$0].at, events[$0].order) < (events[$1].at, events[$1].order) }) else { return }
            let (at, _, event) = events.remove(at: next)
            if at > limit { events.append((at, 0, event)); return }
            #expect(at >= now, "time never goes back", sourceLocation: sourceLocation)
            now = at
            let actions: [PublishQueue.Action]
            switch event {
            case .initReady:
                actions = try queue.initReady(now: now)
            case .segmentReady(let sequence, let duration):
                segmentsReady = sequence
                actions = try queue.segmentReady(sequence: sequence, duration: duration, programDateTime: Self.programStart.addingTimeInterval(Double(sequence - 1) * 2), now: now)
            case .finish:
                finishRequested = true
                actions = queue.finishRequested(now: now)
            case .tick:
                actions = queue.tick(now: now)
            case .completed(let upload):
                inFlight.removeAll { $0 == upload }
                if probe == upload { probe = nil }
                let failure = origin(now, upload)
                results.append((now, upload.item, failure))
                if let failure {
                    actions = queue.uploadFailed(upload.item, failure, now: now)
                } else {
                    stored.insert(upload.item)
                    if case .playlist(let playlist) = upload {
                        if let previous = storedPlaylist {
                            #expect(playlist.segments.starts(with: previous.segments), "a newer playlist keeps what the older listed", sourceLocation: sourceLocation)
                        }
                        storedPlaylist = playlist
                        storedPlaylists.append((now, playlist))
                    }
                    actions = queue.uploadSucceeded(upload.item, now: now)
                    #expect(queue.committed == storedPlaylist, "committed manifest is exactly what the origin confirmed", sourceLocation: sourceLocation)
                }
            }
            perform(actions, sourceLocation: sourceLocation)
        }
    }

    private mutating func perform(_ actions: [PublishQueue.Action], sourceLocation: SourceLocation) {
        for action in actions {
            switch action {
            case .upload(let upload):
                check(starting: upload, sourceLocation: sourceLocation)
                inFlight.append(upload)
                started.append((now, upload))
                schedule(.completed(upload), at: now + latency(upload))
            case .scheduleRetry(let at):
                #expect(at > now, "a retry is in the future", sourceLocation: sourceLocation)
                retries.append((now, at))
                schedule(.tick, at: at)
            case .finished:
                #expect(finishedAt == nil, sourceLocation: sourceLocation)
                finishedAt = now
            case .failed(let failure):
                fatal = failure
            }
        }
        let stats = queue.stats
        let startedNow = actions.filter { if case .upload = $0 { true } else { false } }.count
        if stats.consecutiveFailures > 0 && startedNow > 0 {
            #expect(startedNow == 1 && probe == nil, "a suspect target gets one probe at a time", sourceLocation: sourceLocation)
            probe = actions.compactMap { if case .upload(let upload) = $0 { upload } else { nil } }.first
        }
        #expect(stats.inFlight == (fatal == nil ? inFlight.count : 0), "stats count the uploads in flight", sourceLocation: sourceLocation)
    }

    /// The publishing invariants, checked whenever an upload starts.
    private func check(starting upload: Upload, sourceLocation: SourceLocation) {
        #expect(!inFlight.contains(upload), "\(upload.item) is not uploaded twice at once", sourceLocation: sourceLocation)
        switch upload {
        case .initSegment:
            #expect(!stored.contains(.initSegment), "init is uploaded until it succeeds, then never again", sourceLocation: sourceLocation)
        case .segment(let sequence):
            #expect(stored.contains(.initSegment), "segment \(sequence) starts only after init.mp4 is stored", sourceLocation: sourceLocation)
            #expect(!stored.contains(.segment(sequence)), "a stored segment is not uploaded again", sourceLocation: sourceLocation)
            let segmentsInFlight = inFlight.filter { if case .segment = $0 { true } else { false } }.count
            #expect(segmentsInFlight < queue.settings.maxSegmentUploadsInFlight, "at most \(queue.settings.maxSegmentUploadsInFlight) segment uploads in flight", sourceLocation: sourceLocation)
        case .playlist(let playlist):
            #expect(!inFlight.contains { $0.item == .playlist }, "one playlist PUT in flight at a time", sourceLocation: sourceLocation)
            #expect(playlist.segments.map(\.sequence) == Array(1..<(playlist.segments.count + 1)), "the playlist lists 1...n without gaps", sourceLocation: sourceLocation)
            for segment in playlist.segments {
                #expect(stored.contains(.segment(segment.sequence)), "playlist lists segment \(segment.sequence) only after its PUT succeeded", sourceLocation: sourceLocation)
            }
            #expect(!playlist.segments.isEmpty, "no empty playlist is published", sourceLocation: sourceLocation)
            if playlist.isFinished {
                #expect(finishRequested, "ENDLIST only after finish was requested", sourceLocation: sourceLocation)
                #expect(playlist.segments.count == segmentsReady, "ENDLIST only with every segment listed", sourceLocation: sourceLocation)
            }
            #expect(playlist != storedPlaylist, "a playlist is only PUT when it changed", sourceLocation: sourceLocation)
            let listedParts = playlist.segments.flatMap(\.parts) + (playlist.partial?.parts ?? [])
            for part in listedParts {
                #expect(stored.contains(.part(part.address)), "playlist lists part \(part.address.uri) only after its PUT succeeded", sourceLocation: sourceLocation)
            }
        case .part(let address):
            #expect(stored.contains(.initSegment), "part \(address.uri) starts only after init.mp4 is stored", sourceLocation: sourceLocation)
            #expect(!stored.contains(.part(address)), "a stored part is not uploaded again", sourceLocation: sourceLocation)
        }
    }

    /// Playlists started, in order.
    var playlistUploads: [HLSPlaylist] {
        started.compactMap { if case .playlist(let playlist) = $0.upload { playlist } else { nil } }
    }

    /// Start times of every attempt of `item`.
    func attempts(of item: PublishQueue.Item) -> [MediaTime] {
        started.filter { $0.upload.item == item }.map(\.at)
    }
}
