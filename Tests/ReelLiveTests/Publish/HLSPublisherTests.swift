import Foundation
import ReelCore
import ReelLive
import ReelRuntime
import Synchronization
import ReelTestSupport
import Testing

/// The publisher against a real nginx origin (and a local folder) on loopback.
@Suite(.serialized) struct HLSPublisherTests {
    typealias Fixtures = PublishFixtures

    /// What a viewer polling the origin saw while the stream was published.
    struct ViewerLog: Sendable {
        var rounds = 0
        var segmentsChecked = 0
        var violations: [String] = []
    }

    /// Polls the origin like a player until `stop` is set: every playlist served must list
    /// 1...n without gaps, never fewer than before, and init.mp4 and every listed segment must
    /// GET 200 with exactly the published bytes. After each round, `checked` holds how many
    /// segments the newest playlist listed (all of them fetched and compared).
    static func watch(_ origin: NginxOrigin, _ layout: StreamLayout, until stop: StopFlag,
                      checked: Locked<Int> = Locked(0)) async -> ViewerLog {
        var log = ViewerLog()
        var listedBefore = 0
        while !stop.isSet {
            defer { log.rounds += 1 }
            guard let (status, body, _) = try? await origin.get(layout.playlistPath), status == 200 else {
                try? await Task.sleep(for: .milliseconds(20))
                continue  // no playlist yet, or the origin is down
            }
            let uris = Fixtures.listedSegments(in: String(decoding: body, as: UTF8.self))
            let expected = (0..<uris.count).map { StreamLayout.segmentURI(sequence: $0 + 1) }
            if uris != expected { log.violations.append("playlist lists \(uris), expected \(expected)") }
            if uris.count < listedBefore { log.violations.append("playlist shrank from \(listedBefore) to \(uris.count)") }
            listedBefore = max(listedBefore, uris.count)
            if let (initStatus, initBody, _) = try? await origin.get(layout.initPath),
               initStatus != 200 || initBody != Fixtures.initBytes {
                log.violations.append("init.mp4 answered \(initStatus) with \(initBody.count) bytes while a playlist was served")
            }
            for (index, uri) in uris.enumerated() {
                guard let (segmentStatus, segmentBody, _) = try? await origin.get("\(layout.directory)/\(uri)") else { continue }
                log.segmentsChecked += 1
                if segmentStatus != 200 || segmentBody != Fixtures.segmentBytes(index + 1) {
                    log.violations.append("\(uri) is listed but answered \(segmentStatus) with \(segmentBody.count) bytes")
                }
            }
            checked.withLock { $0 = uris.count }
        }
        return log
    }

    /// Waits until `condition` holds, checking every 20 ms, for at most `seconds`.
    static func eventually(within seconds: Int, _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + .seconds(seconds)
        while ContinuousClock.now < deadline {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return condition()
    }

    static func expectServedStream(_ origin: NginxOrigin, _ layout: StreamLayout, segments count: Int, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let (status, body, headers) = try await origin.get(layout.playlistPath)
        #expect(status == 200, sourceLocation: sourceLocation)
        #expect(String(decoding: body, as: UTF8.self) == Fixtures.finalPlaylist(segments: count).rendered(), sourceLocation: sourceLocation)
        #expect(headers["content-type"] == "application/vnd.apple.mpegurl", sourceLocation: sourceLocation)
        #expect(headers["cache-control"] == OriginFile.playlist.cacheControl, sourceLocation: sourceLocation)
        #expect(try await origin.get(layout.initPath).body == Fixtures.initBytes, sourceLocation: sourceLocation)
        for sequence in 1...count {
            let (segmentStatus, segmentBody, _) = try await origin.get(layout.segmentPath(sequence: sequence))
            #expect(segmentStatus == 200 && segmentBody == Fixtures.segmentBytes(sequence), "segment \(sequence)", sourceLocation: sourceLocation)
        }
    }

    static func expectFolderStream(_ root: URL, _ layout: StreamLayout, segments count: Int, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let stream = root.appendingPathComponent(layout.directory)
        #expect(try String(contentsOf: stream.appendingPathComponent(StreamLayout.playlistName), encoding: .utf8) == Fixtures.finalPlaylist(segments: count).rendered(), sourceLocation: sourceLocation)
        #expect(try Data(contentsOf: stream.appendingPathComponent(StreamLayout.initURI)) == Fixtures.initBytes, sourceLocation: sourceLocation)
        for sequence in 1...count {
            #expect(try Data(contentsOf: root.appendingPathComponent(layout.segmentPath(sequence: sequence))) == Fixtures.segmentBytes(sequence), sourceLocation: sourceLocation)
        }
    }

    @Test func publishesToOriginAndFolderAndEveryListedSegmentIsServedAtEveryMoment() async throws {
        try await withNginxOrigin(token: "tok") { origin in
            let spool = try Fixtures.temporaryDirectory("spool")
            let folder = try Fixtures.temporaryDirectory("out")
            defer { for url in [spool, folder] { try? FileManager.default.removeItem(at: url) } }
            let layout = try StreamLayout(streamID: "e2e")
            let publisher = try HLSPublisher(
                settings: .init(layout: layout, targetDuration: 2, spoolDirectory: spool),
                targets: [try HTTPOriginTarget(baseURL: origin.baseURL, token: "tok"), DirectoryTarget(root: folder)]
            )
            let stop = StopFlag(), checked = Locked(0)
            let viewer = Task { await Self.watch(origin, layout, until: stop, checked: checked) }

            publisher.submitInit(Fixtures.initBytes)
            // The viewer polls while the stream grows: each segment comes once the viewer has
            // checked a playlist listing the one before it.
            for sequence in 1...24 {
                Fixtures.submit(sequence, to: publisher)
                #expect(await Self.eventually(within: 15) { checked.withLock { $0 } >= sequence }, "the viewer checked segment \(sequence)")
            }
            let report = await publisher.finish()
            stop.set()
            let seen = await viewer.value

            #expect(report.isComplete, "\(report)")
            #expect(report.segmentsReceived == 24)
            #expect(report.problems.isEmpty)
            #expect(seen.violations.isEmpty, "\(seen.violations.prefix(5))")
            #expect(seen.segmentsChecked > 24, "the viewer really checked segments while publishing (\(seen.rounds) rounds)")
            try await Self.expectServedStream(origin, layout, segments: 24)
            try Self.expectFolderStream(folder, layout, segments: 24)

            // A healthy origin: each file PUT once (playlists coalesce), all with Content-Length.
            let puts = try origin.requests().filter { $0.method == "PUT" }
            #expect(puts.allSatisfy { $0.status == 201 || $0.status == 204 })
            #expect(puts.filter { $0.uri.hasSuffix(".m4s") }.count == 24)
            #expect(puts.filter { $0.uri.hasSuffix(".m3u8") }.count <= 25, "at most one playlist per segment, plus ENDLIST")
            #expect(puts.allSatisfy { $0.contentLength != nil && $0.transferEncoding.isEmpty })
            #expect(report.targets.map(\.stats.failedAttempts) == [0, 0])
            #expect(publisher.status.map(\.stats.committed) == [24, 24])
            #expect(!report.spoolKept && !FileManager.default.fileExists(atPath: spool.path), "the spool is removed once everything is published")
        }
    }

    @Test func originOutageLosesNothingBacksOffAndCatchesUpWhileTheFolderKeepsGoing() async throws {
        try await withNginxOrigin { origin in
            let spool = try Fixtures.temporaryDirectory("spool")
            let folder = try Fixtures.temporaryDirectory("out")
            defer { for url in [spool, folder] { try? FileManager.default.removeItem(at: url) } }
            let layout = try StreamLayout(streamID: "outage")
            let publisher = try HLSPublisher(
                settings: .init(layout: layout, targetDuration: 2, spoolDirectory: spool),
                targets: [try HTTPOriginTarget(baseURL: origin.baseURL), DirectoryTarget(root: folder)]
            )
            publisher.submitInit(Fixtures.initBytes)
            for sequence in 1...6 {
                Fixtures.submit(sequence, to: publisher)
                #expect(await Self.eventually(within: 5) { publisher.status[0].stats.committed == sequence }, "segment \(sequence) on the origin")
            }

            // Outage: the origin is gone for ~3 s while the writer keeps producing.
            await origin.stop()
            let outageStart = ContinuousClock.now
            for sequence in 7...18 {
                Fixtures.submit(sequence, to: publisher)
                try await Task.sleep(for: .milliseconds(100))  // a writer's pace in real time (the back-off's rules are RetryPolicy's, on values)
            }
            // The dead origin does not hold back the local folder.
            #expect(await Self.eventually(within: 3) { publisher.status[1].stats.committed == 18 })
            #expect(await Self.eventually(within: 2) { publisher.status[0].stats.isBackingOff })
            let during = publisher.status[0]
            #expect(during.stats.committed == 6, "nothing new is committed while the origin is down")
            #expect(during.stats.failedAttempts >= 3)
            #expect(during.stats.backlog == 12)
            #expect(during.description.contains("backing off"))
            // The outage is the scenario: 3 s of real time with the origin gone.
            try await Task.sleep(until: outageStart + .seconds(3), clock: .continuous)
            try await origin.restart()

            for sequence in 19...22 {
                Fixtures.submit(sequence, to: publisher)
                try await Task.sleep(for: .milliseconds(100))  // a writer's pace in real time (the back-off's rules are RetryPolicy's, on values)
            }
            let report = await publisher.finish(drainTimeout: .seconds(20))
            #expect(report.isComplete, "\(report)")
            try await Self.expectServedStream(origin, layout, segments: 22)
            try Self.expectFolderStream(folder, layout, segments: 22)
            #expect(report.targets[0].stats.failedAttempts >= 4, "the origin was retried with backoff during the outage")
            #expect(report.targets[1].stats.failedAttempts == 0)
            // Backing off means probing, not hammering: a handful of attempts in 3 s of outage.
            #expect(report.targets[0].stats.failedAttempts <= 15, "\(report.targets[0].stats.failedAttempts) failed attempts")
            #expect(report.targets[0].description.contains("published all 22 segments"))
        }
    }

    @Test func wrongTokenStopsTheOriginAtOnceWithAClearErrorButNotTheFolder() async throws {
        try await withNginxOrigin(token: "right") { origin in
            let spool = try Fixtures.temporaryDirectory("spool")
            let folder = try Fixtures.temporaryDirectory("out")
            defer { for url in [spool, folder] { try? FileManager.default.removeItem(at: url) } }
            let layout = try StreamLayout(streamID: "auth")
            let publisher = try HLSPublisher(
                settings: .init(layout: layout, targetDuration: 2, spoolDirectory: spool),
                targets: [try HTTPOriginTarget(baseURL: origin.baseURL, token: "wrong"), DirectoryTarget(root: folder)]
            )
            publisher.submitInit(Fixtures.initBytes)
            for sequence in 1...3 { Fixtures.submit(sequence, to: publisher) }
            #expect(await Self.eventually(within: 5) { publisher.status[0].state != .running })
            let started = ContinuousClock.now
            let report = await publisher.finish()
            #expect(ContinuousClock.now - started < .seconds(5), "a fatal failure does not wait for the drain timeout")

            guard case .failed(let message, let missing) = report.targets[0].outcome else {
                Issue.record("expected the origin to fail, got \(report)")
                return
            }
            #expect(message.contains("HTTP 401 Unauthorized: the upload token was refused"), "\(message)")
            #expect(missing.notListed == [1, 2, 3] && !missing.initPublished)
            #expect(report.description.contains("FAILED"))
            #expect(report.targets[1].isComplete)
            try Self.expectFolderStream(folder, layout, segments: 3)
            let puts = try origin.requests().filter { $0.method == "PUT" }
            #expect(puts.count == 1 && puts.first?.status == 401, "an authorization failure is not retried: \(puts)")
            #expect(report.spoolKept && FileManager.default.fileExists(atPath: spool.appendingPathComponent("seg/000003.m4s").path))
        }
    }

    @Test func drainTimeoutReportsWhatWasNotPublishedAndKeepsTheSpool() async throws {
        let spool = try Fixtures.temporaryDirectory("spool")
        defer { try? FileManager.default.removeItem(at: spool) }
        let port = try Loopback.freePort()
        let layout = try StreamLayout(streamID: "down")
        let publisher = try HLSPublisher(
            settings: .init(layout: layout, targetDuration: 2, spoolDirectory: spool, drainTimeout: .milliseconds(1500)),
            targets: [try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:\(port)/")!)]
        )
        publisher.submitInit(Fixtures.initBytes)
        for sequence in 1...3 { Fixtures.submit(sequence, to: publisher) }
        Fixtures.submit(5, to: publisher)  // a writer bug: 4 is missing
        let started = ContinuousClock.now
        let report = await publisher.finish()
        let waited = ContinuousClock.now - started
        #expect(waited >= .milliseconds(1400) && waited < .seconds(5), "waited \(waited)")

        #expect(report.drainTimedOut)
        guard case .incomplete(let missing) = report.targets[0].outcome else {
            Issue.record("expected an incomplete origin, got \(report)")
            return
        }
        #expect(!missing.initPublished)
        #expect(missing.notListed == [1, 2, 3] && missing.notUploaded == [1, 2, 3])
        #expect(missing.lastFailure?.contains("connection refused") == true)
        #expect(report.description.contains("segments not in its playlist: 1–3 (3 of 3); not uploaded at all: 1–3"), "\(report)")
        #expect(report.problems.contains { $0.contains("handed over segment 5 but the publisher expected segment 4") }, "\(report.problems)")

        // The spool is a complete local copy: init, segments and a playlist with ENDLIST.
        #expect(report.spoolKept)
        #expect(try Data(contentsOf: spool.appendingPathComponent("init.mp4")) == Fixtures.initBytes)
        #expect(try Data(contentsOf: spool.appendingPathComponent("seg/000002.m4s")) == Fixtures.segmentBytes(2))
        #expect(try String(contentsOf: spool.appendingPathComponent("playlist.m3u8"), encoding: .utf8) == Fixtures.finalPlaylist(segments: 3).rendered())
        #expect(report.description.contains(spool.path))
    }

    @Test func anOriginThatNeverAnswersDoesNotHoldFinishPastTheDrainTimeout() async throws {
        let spool = try Fixtures.temporaryDirectory("spool")
        defer { try? FileManager.default.removeItem(at: spool) }
        let silent = try SilentListener()  // accepts connections, never answers
        let publisher = try HLSPublisher(
            settings: .init(layout: try StreamLayout(streamID: "stuck"), targetDuration: 2, spoolDirectory: spool, drainTimeout: .seconds(1)),
            targets: [try HTTPOriginTarget(baseURL: URL(string: "http://127.0.0.1:\(silent.port)/")!)]
        )
        publisher.submitInit(Fixtures.initBytes)
        Fixtures.submit(1, to: publisher)
        let started = ContinuousClock.now
        let report = await publisher.finish()
        let waited = ContinuousClock.now - started
        #expect(waited < .seconds(3), "uploads in flight are cancelled at the drain timeout; waited \(waited)")
        #expect(report.drainTimedOut && !report.isComplete)
        #expect(report.targets[0].stats.failedAttempts == 0, "the PUT never answered, so it never failed")
        #expect(report.spoolKept)
    }
}
