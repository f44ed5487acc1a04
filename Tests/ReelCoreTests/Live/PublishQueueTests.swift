import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

/// Step-by-step tests of the publishing rules, with the clock given by hand.
@Suite struct PublishQueueTests {
    typealias Action = PublishQueue.Action

    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }
    static let two = MediaTime(value: 2, timescale: 1)
    static let start = Date(timeIntervalSince1970: 1_796_006_591.123)

    static func segment(_ sequence: Int) -> HLSPlaylist.Segment {
        HLSPlaylist.Segment(sequence: sequence, duration: two, programDateTime: start.addingTimeInterval(Double(sequence - 1) * 2))
    }

    static func playlist(_ sequences: ClosedRange<Int>?, finished: Bool = false) -> HLSPlaylist {
        HLSPlaylist(targetDuration: 2, segments: sequences.map { $0.map(segment) } ?? [], isFinished: finished)
    }

    /// A queue with init uploaded and `ready` segments handed over.
    static func runningQueue(ready: Int, maxInFlight: Int = 3, now: MediaTime = .zero) throws -> (PublishQueue, [Action]) {
        var queue = PublishQueue(settings: .init(targetDuration: 2, maxSegmentUploadsInFlight: maxInFlight))
        _ = try queue.initReady(now: now)
        var actions = queue.uploadSucceeded(.initSegment, now: now)
        for sequence in stride(from: 1, through: ready, by: 1) {
            actions += try queue.segmentReady(sequence: sequence, duration: two, programDateTime: segment(sequence).programDateTime, now: now)
        }
        return (queue, actions)
    }

    @Test func aDiscontinuityIsCarriedIntoThePublishedPlaylist() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2))
        _ = try queue.initReady(now: .zero)
        _ = queue.uploadSucceeded(.initSegment, now: .zero)
        _ = try queue.segmentReady(sequence: 1, duration: Self.two, programDateTime: Self.start, now: .zero)
        _ = try queue.segmentReady(sequence: 2, duration: Self.two, programDateTime: Self.start.addingTimeInterval(30),
                                   followsDiscontinuity: true, now: .zero)
        _ = queue.uploadSucceeded(.segment(1), now: .zero)
        _ = queue.uploadSucceeded(.segment(2), now: .zero)
        #expect(queue.publishablePlaylist.segments.map(\.followsDiscontinuity) == [false, true])
    }

    @Test func initGoesFirstAndSegmentsWaitForIt() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2))
        #expect(try queue.segmentReady(sequence: 1, duration: Self.two, programDateTime: Self.start, now: .zero) == [])
        #expect(try queue.segmentReady(sequence: 2, duration: Self.two, programDateTime: Self.start, now: .zero) == [])
        #expect(queue.stats.pending == 2)
        #expect(try queue.initReady(now: .zero) == [.upload(.initSegment)])
        #expect(queue.uploadSucceeded(.initSegment, now: Self.ms(50)) == [.upload(.segment(1)), .upload(.segment(2))])
        #expect(queue.stats.initPublished)
        #expect(queue.stats.inFlight == 2)
    }

    @Test func segmentUploadsAreLimitedToTheConfiguredNumberInFlight() throws {
        var (queue, actions) = try Self.runningQueue(ready: 5)
        #expect(actions == [.upload(.segment(1)), .upload(.segment(2)), .upload(.segment(3))])
        #expect(queue.stats.inFlight == 3)
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(10)) == [.upload(.segment(4))])
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(20)) == [.upload(.segment(5)), .upload(.playlist(Self.playlist(1...2)))])

        var (single, first) = try Self.runningQueue(ready: 3, maxInFlight: 1)
        #expect(first == [.upload(.segment(1))])
        #expect(single.uploadSucceeded(.segment(1), now: Self.ms(10)) == [.upload(.segment(2)), .upload(.playlist(Self.playlist(1...1)))])
    }

    @Test func outOfOrderCompletionIsListedInSequenceOrderOnlyWhenContiguous() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        #expect(queue.uploadSucceeded(.segment(3), now: Self.ms(10)) == [])
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(20)) == [])
        #expect(queue.stats.published == 2)
        #expect(queue.publishablePlaylist.segments.isEmpty)
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(30)) == [.upload(.playlist(Self.playlist(1...3)))])
    }

    @Test func aGapHoldsBackLaterSegmentsUntilItIsFilled() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(100)) == [.upload(.playlist(Self.playlist(1...1)))])
        #expect(queue.uploadFailed(.segment(2), .retryable("HTTP 503"), now: Self.ms(110)) == [.scheduleRetry(at: Self.ms(360))])
        #expect(queue.uploadSucceeded(.segment(3), now: Self.ms(120)) == [])
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(130)) == [])
        #expect(queue.committed == Self.playlist(1...1))
        #expect(queue.uncommittedSequences == [2, 3])
        #expect(queue.notUploadedSequences == [2])
        #expect(queue.nextRetryTime == Self.ms(360))
        #expect(queue.tick(now: Self.ms(359)) == [])
        #expect(queue.tick(now: Self.ms(360)) == [.upload(.segment(2))])
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(400)) == [.upload(.playlist(Self.playlist(1...3)))])
        #expect(queue.stats.failedAttempts == 1)
        #expect(queue.stats.lastFailure == "HTTP 503")
    }

    @Test func committedManifestChangesOnlyWhenAPlaylistPutSucceeds() throws {
        var (queue, _) = try Self.runningQueue(ready: 2)
        _ = queue.uploadSucceeded(.segment(1), now: Self.ms(10))
        #expect(queue.committed == nil)
        #expect(queue.uploadFailed(.playlist, .retryable("timeout"), now: Self.ms(20)) == [.scheduleRetry(at: Self.ms(270))])
        #expect(queue.committed == nil)
        #expect(queue.stats.committed == 0)
        // Segment 2 lands while the playlist waits for its retry: the retry sends the newer list.
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(30)) == [])
        #expect(queue.tick(now: Self.ms(270)) == [.upload(.playlist(Self.playlist(1...2)))])
        #expect(queue.committed == nil)
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(300)) == [])
        #expect(queue.committed == Self.playlist(1...2))
        #expect(queue.stats.committed == 2)
    }

    @Test func playlistPutsAreCoalescedWhileOneIsInFlight() throws {
        var (queue, _) = try Self.runningQueue(ready: 4)
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(10)) == [.upload(.segment(4)), .upload(.playlist(Self.playlist(1...1)))])
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(20)) == [])
        #expect(queue.uploadSucceeded(.segment(3), now: Self.ms(30)) == [])
        #expect(queue.uploadSucceeded(.segment(4), now: Self.ms(40)) == [])
        // One PUT lists 2, 3 and 4 together once the first playlist is confirmed.
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(50)) == [.upload(.playlist(Self.playlist(1...4)))])
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(60)) == [])
        #expect(queue.committed == Self.playlist(1...4))
    }

    @Test func eachPutGetsThreeQuickAttemptsThenCappedBackoff() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2))
        #expect(try queue.initReady(now: .zero) == [.upload(.initSegment)])
        var now = MediaTime.zero
        var waits: [Double] = []
        for _ in 0..<8 {
            let actions = queue.uploadFailed(.initSegment, .retryable("connection refused"), now: now)
            guard case .scheduleRetry(let at)? = actions.first else {
                Issue.record("expected a retry, got \(actions)")
                return
            }
            waits.append((at - now).seconds)
            #expect(queue.tick(now: at - Self.ms(1)) == [])
            now = at
            #expect(queue.tick(now: now) == [.upload(.initSegment)])
        }
        #expect(waits == [0.25, 0.5, 1, 2, 4, 8, 8, 8])
        #expect(queue.stats.failedAttempts == 8)
        #expect(queue.stats.isBackingOff)
        #expect(queue.uploadSucceeded(.initSegment, now: now) == [])
        #expect(!queue.stats.isBackingOff)
    }

    @Test func anOutageIsProbedByOneUploadAtATimeAndTheFirstSuccessReleasesTheBacklog() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        // Three uploads in flight fail together: one episode, one retry schedule.
        #expect(queue.uploadFailed(.segment(1), .retryable("refused"), now: Self.ms(0)) == [.scheduleRetry(at: Self.ms(250))])
        #expect(queue.uploadFailed(.segment(3), .retryable("refused"), now: Self.ms(10)) == [])
        #expect(queue.uploadFailed(.segment(2), .retryable("refused"), now: Self.ms(20)) == [])
        #expect(queue.stats.consecutiveFailures == 1)
        #expect(queue.stats.failedAttempts == 3)
        #expect(queue.nextRetryTime == Self.ms(250))
        // Nothing new starts while the target is suspect...
        #expect(try queue.segmentReady(sequence: 4, duration: Self.two, programDateTime: Self.start, now: Self.ms(30)) == [])
        #expect(queue.tick(now: Self.ms(249)) == [])
        // ...until the retry is due: then one probe, the lowest segment.
        #expect(queue.tick(now: Self.ms(250)) == [.upload(.segment(1))])
        #expect(queue.nextRetryTime == nil)
        #expect(queue.tick(now: Self.ms(280)) == [])
        #expect(queue.uploadFailed(.segment(1), .retryable("refused"), now: Self.ms(300)) == [.scheduleRetry(at: Self.ms(800))])
        #expect(queue.tick(now: Self.ms(800)) == [.upload(.segment(1))])
        #expect(!queue.stats.isBackingOff)
        #expect(queue.uploadFailed(.segment(1), .retryable("refused"), now: Self.ms(900)) == [.scheduleRetry(at: Self.ms(1900))])
        #expect(queue.stats.isBackingOff, "three failed attempts in a row: backing off")
        #expect(queue.tick(now: Self.ms(1900)) == [.upload(.segment(1))])
        // The probe gets through: the backlog goes out at full concurrency.
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(2000)) == [
            .upload(.segment(2)), .upload(.segment(3)), .upload(.segment(4)), .upload(.playlist(Self.playlist(1...1))),
        ])
        #expect(queue.stats.consecutiveFailures == 0 && !queue.stats.isBackingOff)
        #expect(queue.stats.failedAttempts == 5)
    }

    @Test func successesOfUploadsStartedBeforeTheFailureDoNotEndTheEpisode() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        #expect(queue.uploadFailed(.segment(2), .retryable("HTTP 500"), now: Self.ms(0)) == [.scheduleRetry(at: Self.ms(250))])
        // 1 and 3 were already on their way; they land, but only a probe says the target is fine.
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(10)) == [])
        #expect(queue.uploadSucceeded(.segment(3), now: Self.ms(20)) == [])
        #expect(queue.stats.consecutiveFailures == 1)
        #expect(queue.stats.published == 2)
        #expect(queue.tick(now: Self.ms(250)) == [.upload(.segment(2))])
        #expect(queue.uploadSucceeded(.segment(2), now: Self.ms(300)) == [.upload(.playlist(Self.playlist(1...3)))])
    }

    @Test func aDueRetryWithNothingToProbeWaitsForTheNextUpload() throws {
        var (queue, _) = try Self.runningQueue(ready: 2)
        #expect(queue.uploadFailed(.segment(1), .retryable("reset"), now: Self.ms(0)) == [.scheduleRetry(at: Self.ms(250))])
        // The only queued upload is segment 1; with 1 slot used by segment 2 it can still go.
        #expect(queue.tick(now: Self.ms(250)) == [.upload(.segment(1))])
        #expect(queue.uploadFailed(.segment(1), .retryable("reset"), now: Self.ms(260)) == [.scheduleRetry(at: Self.ms(760))])
        var single = try Self.runningQueue(ready: 1, maxInFlight: 1).0
        _ = single.uploadSucceeded(.segment(1), now: Self.ms(0))  // playlist [1] in flight
        #expect(single.uploadFailed(.playlist, .retryable("reset"), now: Self.ms(10)) == [.scheduleRetry(at: Self.ms(260))])
        #expect(try single.segmentReady(sequence: 2, duration: Self.two, programDateTime: Self.start, now: Self.ms(20)) == [])
        #expect(single.tick(now: Self.ms(260)) == [.upload(.segment(2))], "segments come before the playlist in a probe")
        #expect(single.nextRetryTime == nil, "no busy wake-ups while a probe is in flight")
    }

    @Test func endlistWaitsForTheLastSegment() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        _ = queue.uploadSucceeded(.segment(1), now: Self.ms(10))
        _ = queue.uploadSucceeded(.segment(2), now: Self.ms(20))
        #expect(queue.finishRequested(now: Self.ms(30)) == [])
        #expect(queue.state == .finishing)
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(40)) == [.upload(.playlist(Self.playlist(1...2)))])
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(50)) == [])
        #expect(queue.committed?.isFinished == false)
        #expect(queue.uploadFailed(.segment(3), .retryable("reset"), now: Self.ms(60)) == [.scheduleRetry(at: Self.ms(310))])
        #expect(queue.tick(now: Self.ms(310)) == [.upload(.segment(3))])
        #expect(queue.uploadSucceeded(.segment(3), now: Self.ms(400)) == [.upload(.playlist(Self.playlist(1...3, finished: true)))])
        #expect(queue.state == .finishing)
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(450)) == [.finished])
        #expect(queue.state == .finished)
        #expect(queue.committed == Self.playlist(1...3, finished: true))
        #expect(queue.tick(now: Self.ms(500)) == [])
    }

    @Test func finishAfterEverythingIsCommittedPutsAnEndlistPlaylist() throws {
        var (queue, _) = try Self.runningQueue(ready: 1)
        _ = queue.uploadSucceeded(.segment(1), now: Self.ms(10))
        _ = queue.uploadSucceeded(.playlist, now: Self.ms(20))
        #expect(queue.finishRequested(now: Self.ms(30)) == [.upload(.playlist(Self.playlist(1...1, finished: true)))])
        #expect(queue.uploadFailed(.playlist, .retryable("HTTP 502"), now: Self.ms(40)) == [.scheduleRetry(at: Self.ms(290))])
        #expect(queue.state == .finishing)
        #expect(queue.tick(now: Self.ms(290)) == [.upload(.playlist(Self.playlist(1...1, finished: true)))])
        #expect(queue.uploadSucceeded(.playlist, now: Self.ms(300)) == [.finished])
    }

    @Test func finishWithoutSegmentsEndsOnceInitIsUploaded() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2))
        #expect(queue.finishRequested(now: .zero) == [.finished])

        var withInit = PublishQueue(settings: .init(targetDuration: 2))
        _ = try withInit.initReady(now: .zero)
        #expect(withInit.finishRequested(now: .zero) == [])
        #expect(withInit.uploadSucceeded(.initSegment, now: Self.ms(5)) == [.finished])
    }

    @Test func authorizationFailureIsFatalAndStopsEverything() throws {
        var (queue, _) = try Self.runningQueue(ready: 3)
        let message = "HTTP 401: the token was refused"
        #expect(queue.uploadFailed(.segment(2), .fatal(message), now: Self.ms(10)) == [.failed(.init(item: .segment(2), message: message))])
        #expect(queue.state == .failed(.init(item: .segment(2), message: message)))
        #expect(queue.uploadSucceeded(.segment(1), now: Self.ms(20)) == [])
        #expect(try queue.segmentReady(sequence: 4, duration: Self.two, programDateTime: Self.start, now: Self.ms(30)) == [])
        #expect(queue.finishRequested(now: Self.ms(40)) == [])
        #expect(queue.tick(now: Self.ms(5000)) == [])
        #expect(queue.stats.failedAttempts == 1)
        #expect(queue.stats.received == 4)
        #expect(queue.uncommittedSequences == [1, 2, 3, 4])
    }

    @Test func misuseIsReportedWithContext() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2))
        _ = try queue.initReady(now: .zero)
        #expect(throws: PublishQueue.Error.initAlreadyReady) { try queue.initReady(now: .zero) }
        #expect(throws: PublishQueue.Error.unexpectedSequence(expected: 1, got: 2)) {
            try queue.segmentReady(sequence: 2, duration: Self.two, programDateTime: Self.start, now: .zero)
        }
        #expect(throws: PublishQueue.Error.nonPositiveDuration(sequence: 1, duration: .zero)) {
            try queue.segmentReady(sequence: 1, duration: .zero, programDateTime: Self.start, now: .zero)
        }
        _ = queue.finishRequested(now: .zero)
        #expect(throws: PublishQueue.Error.segmentAfterFinish(sequence: 1)) {
            try queue.segmentReady(sequence: 1, duration: Self.two, programDateTime: Self.start, now: .zero)
        }
        #expect(PublishQueue.Error.unexpectedSequence(expected: 4, got: 6).description.contains("expected segment 4"))
    }

    @Test func resultsForUploadsNotInFlightAreIgnored() throws {
        var (queue, _) = try Self.runningQueue(ready: 1)
        #expect(queue.uploadSucceeded(.segment(7), now: .zero) == [])
        #expect(queue.uploadSucceeded(.playlist, now: .zero) == [])
        #expect(queue.uploadFailed(.initSegment, .retryable("late"), now: .zero) == [])
        #expect(queue.stats.failedAttempts == 0)
        _ = queue.uploadSucceeded(.segment(1), now: .zero)
        #expect(queue.uploadSucceeded(.segment(1), now: .zero) == [])
        #expect(queue.stats.published == 1)
    }
}

/// Whole streams against a simulated origin on a virtual clock; ``PublishSimulation`` checks the
/// invariants (init first, ≤ N in flight, one playlist PUT, contiguous listing of stored
/// segments only, ENDLIST last) at every step.
@Suite struct PublishQueueSimulationTests {
    static func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    @Test func healthyOriginPublishesEverySegmentWithOnePlaylistPerSegment() throws {
        var sim = PublishSimulation()
        sim.scheduleStream(segments: 10)
        try sim.run()
        #expect(sim.finishedAt != nil)
        #expect(sim.queue.committed?.segments.count == 10)
        #expect(sim.queue.committed?.isFinished == true)
        // init, 10 segments, 10 playlists (the last one already carries ENDLIST).
        #expect(sim.started.count == 21)
        #expect(sim.playlistUploads.last?.isFinished == true)
        #expect(sim.playlistUploads.dropLast().allSatisfy { !$0.isFinished })
        let stats = sim.queue.stats
        #expect(stats.published == 10 && stats.committed == 10 && stats.pending == 0 && stats.inFlight == 0 && stats.failedAttempts == 0)
    }

    @Test func slowUploadsCompleteOutOfOrderAndAreListedInOrder() throws {
        // Odd segments take 3.5 s, even ones 0.2 s: completions arrive out of order.
        var sim = PublishSimulation(latency: { upload in
            if case .segment(let n) = upload, n % 2 == 1 { return Self.ms(3500) }
            return Self.ms(200)
        })
        sim.scheduleStream(segments: 12, every: Self.ms(500))
        try sim.run()
        #expect(sim.finishedAt != nil)
        #expect(sim.queue.committed?.segments.map(\.sequence) == Array(1...12))
        let completionOrder = sim.results.compactMap { result -> Int? in
            if case .segment(let n) = result.item { n } else { nil }
        }
        #expect(completionOrder != completionOrder.sorted(), "the scenario really completes out of order")
        // Fewer playlist PUTs than segments: coalesced while slow segments held the list back.
        #expect(sim.playlistUploads.count < 12)
    }

    @Test func originOutageBacksOffLosesNothingAndCatchesUp() throws {
        // The origin refuses everything from 4.5 s to 30 s.
        let down = Self.ms(4500)..<Self.ms(30_000)
        var sim = PublishSimulation(origin: { now, _ in down.contains(now) ? .retryable("connection refused") : nil })
        sim.scheduleStream(segments: 20)
        try sim.run()
        #expect(sim.finishedAt != nil)
        #expect(sim.queue.committed?.segments.map(\.sequence) == Array(1...20))
        #expect(sim.queue.committed?.isFinished == true)

        // During the outage the origin is probed, not hammered: waits grow to the 8 s cap.
        let attemptsDuringOutage = sim.results.filter { down.contains($0.at) }
        #expect(attemptsDuringOutage.count <= 8, "got \(attemptsDuringOutage.count) attempts in 25.5 s of outage")
        let backoffWaits = Set(sim.retries.map { ($0.at - $0.scheduledAt).seconds })
        #expect(backoffWaits.isSuperset(of: [0.25, 0.5, 1, 2, 4, 8]))
        #expect(backoffWaits.allSatisfy { $0 <= 8 })

        // Catch-up: the first retry after the outage succeeds and the backlog goes out at once.
        let firstSuccessAfter = try #require(sim.results.first { $0.at >= down.upperBound && $0.failure == nil })
        #expect(firstSuccessAfter.at <= down.upperBound + Self.ms(8100))
        let backlog = sim.started.filter { $0.at == firstSuccessAfter.at }
        #expect(backlog.count >= 3, "the backlog restarts at full concurrency, got \(backlog.count)")
        // Within 3 s of the origin's return, every segment that was ready then is listed.
        let readyAtReturn = Int((firstSuccessAfter.at.seconds / 2).rounded(.down))
        let caughtUp = try #require(sim.storedPlaylists.first { $0.playlist.segments.count >= readyAtReturn })
        #expect(caughtUp.at <= firstSuccessAfter.at + Self.ms(3000), "caught up \((caughtUp.at - firstSuccessAfter.at).seconds) s after the origin returned")
        #expect(readyAtReturn >= 14)
        #expect(sim.queue.stats.failedAttempts == attemptsDuringOutage.count)
    }

    @Test func outageBeforeInitIsRiddenOut() throws {
        var sim = PublishSimulation(origin: { now, _ in now < Self.ms(12_000) ? .retryable("HTTP 503") : nil })
        sim.scheduleStream(segments: 4, every: Self.ms(1000))
        try sim.run()
        #expect(sim.finishedAt != nil)
        #expect(sim.queue.committed?.segments.count == 4)
        #expect(sim.attempts(of: .segment(1)).count == 1, "no segment is tried before init.mp4 is stored")
    }

    @Test func oneSegmentFailingForAWhileIsRetriedAndListedInOrder() throws {
        var sim = PublishSimulation(origin: { now, upload in
            upload == .segment(3) && now < Self.ms(20_000) ? .retryable("HTTP 500") : nil
        })
        sim.scheduleStream(segments: 8)
        try sim.run()
        #expect(sim.finishedAt != nil)
        #expect(sim.queue.committed?.segments.map(\.sequence) == Array(1...8))
        // Nothing after 2 was listed until 3 made it.
        let stored3 = try #require(sim.results.first { $0.item == .segment(3) && $0.failure == nil }).at
        for upload in sim.started where upload.at < stored3 {
            if case .playlist(let playlist) = upload.upload { #expect(playlist.segments.count <= 2) }
        }
    }

    @Test func fatalAuthorizationStopsThePublisherAtTheFirstPut() throws {
        var sim = PublishSimulation(origin: { _, _ in .fatal("HTTP 401 Unauthorized") })
        sim.scheduleStream(segments: 3)
        try sim.run()
        #expect(sim.fatal == PublishQueue.FatalFailure(item: .initSegment, message: "HTTP 401 Unauthorized"))
        #expect(sim.started.count == 1)
        #expect(sim.retries.isEmpty)
        #expect(sim.finishedAt == nil)
    }

    @Test(arguments: 1...40)
    func randomFailuresAndLatenciesNeverBreakTheRules(seed: Int) throws {
        // Each PUT fails with probability 0.3 (occasionally for long runs) and takes 20 ms – 4 s.
        final class Random: @unchecked Sendable { var rng: SplitMix64; init(_ seed: UInt64) { rng = SplitMix64(seed: seed) } }
        let random = Random(UInt64(seed))
        let maxInFlight = seed % 4 + 1
        var sim = PublishSimulation(
            settings: .init(targetDuration: 2, maxSegmentUploadsInFlight: maxInFlight),
            latency: { _ in Self.ms(Int64.random(in: 20...4000, using: &random.rng)) },
            origin: { now, _ in
                let outage = (seed % 3 == 0) && now > Self.ms(10_000) && now < Self.ms(25_000)
                return outage || Double.random(in: 0..<1, using: &random.rng) < 0.3 ? .retryable("flaky") : nil
            }
        )
        sim.scheduleStream(segments: 25, every: Self.ms(Int64(seed * 97 % 2000 + 100)))
        try sim.run()
        #expect(sim.finishedAt != nil, "seed \(seed) finished")
        #expect(sim.queue.committed?.segments.map(\.sequence) == Array(1...25), "seed \(seed)")
        #expect(sim.queue.stats.pending == 0)
        #expect(sim.queue.stats.failedAttempts == sim.results.filter { $0.failure != nil }.count)
    }
}
