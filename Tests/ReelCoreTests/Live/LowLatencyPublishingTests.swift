import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

/// LL-HLS on the publishing side: where parts are cut (``PartCutPolicy``), how a playlist
/// renders them, and how ``PublishQueue`` uploads and lists them.
@Suite("LL-HLS publishing rules")
struct LowLatencyPublishingTests {
    static func t(_ ticks: Int64) -> MediaTime { MediaTime(value: ticks, timescale: 90_000) }
    static let frame30 = MediaTime(value: 1, timescale: 30)
    static let third = MediaTime(value: 1, timescale: 3)

    // MARK: Part cuts

    @Test func tenFramePartsAt30FPSWithATargetOfHalfAFrameMore() throws {
        var segments = try SegmentCutPolicy(interval: MediaTime(value: 2, timescale: 1), frameDuration: Self.frame30)
        var parts = try PartCutPolicy(requestedInterval: Self.third, frameDuration: Self.frame30)
        #expect(parts.interval == MediaTime(value: 10, timescale: 30))
        #expect(parts.partTarget == MediaTime(value: 7, timescale: 20))  // 0.350 s
        var starts: [Int] = []
        var keys: [Int] = []
        for index in 0..<120 {
            for action in segments.frame(pts: Self.t(900_000 + Int64(index) * 3000)) {
                guard case let .encode(pts, keyFrame, _) = action else { Issue.record("unexpected \(action)"); continue }
                for placed in parts.frame(pts: pts, keyFrame: keyFrame) {
                    guard case let .place(_, key, startsPart) = placed else { Issue.record("a fill without a gap"); continue }
                    if startsPart { starts.append(index) }
                    if key { keys.append(index) }
                }
            }
        }
        #expect(keys == [0, 60])
        #expect(starts == stride(from: 0, to: 120, by: 10).map { $0 })
        #expect(parts.repeatedFrames == 0)
    }

    @Test func partLengthsRoundToWholeFramesAndRefuseSlowFrameRates() throws {
        let at25 = try PartCutPolicy(requestedInterval: Self.third, frameDuration: MediaTime(value: 1, timescale: 25))
        #expect(at25.interval == MediaTime(value: 8, timescale: 25))  // 0.32 s
        #expect(at25.partTarget == MediaTime(value: 17, timescale: 50))  // 0.34 s
        let at5 = try PartCutPolicy(requestedInterval: Self.third, frameDuration: MediaTime(value: 1, timescale: 5))
        #expect(at5.interval == MediaTime(value: 2, timescale: 5))
        #expect(throws: PartCutPolicy.Error.framesTooLong(frameDuration: MediaTime(value: 1, timescale: 1))) {
            try PartCutPolicy(requestedInterval: Self.third, frameDuration: MediaTime(value: 1, timescale: 1))
        }
        #expect(throws: PartCutPolicy.Error.nonPositiveInterval(.zero)) {
            try PartCutPolicy(requestedInterval: .zero, frameDuration: Self.frame30)
        }
    }

    /// Jittered, gappy capture through both policies: no part ever lasts longer than the part
    /// target, every key frame starts a part, fills are never key frames and time only grows.
    @Test(arguments: [UInt64(1), 2, 3, 4, 5, 6])
    func noPartExceedsTheTargetWhateverTheCapture(seed: UInt64) throws {
        var segments = try SegmentCutPolicy(interval: MediaTime(value: 2, timescale: 1), frameDuration: Self.frame30)
        var parts = try PartCutPolicy(requestedInterval: Self.third, frameDuration: Self.frame30)
        var random = SplitMix64(seed: seed)
        var nominal: Int64 = 900_000
        var lastPlaced: MediaTime?
        var partStart: MediaTime?
        var longest = MediaTime.zero
        var keyFramesStartingParts = 0, keyFrames = 0
        func endPart(at end: MediaTime) {
            if let partStart { longest = max(longest, end - partStart) }
        }
        for _ in 0..<4_000 {
            let roll = random.next() % 100
            nominal += roll < 5 ? 3000 * Int64(2 + random.next() % 40) : 3000  // dropped frames or a stall up to 1.4 s
            let jitter = Int64(random.next() % 2_400) - 1_200
            for action in segments.frame(pts: Self.t(nominal + jitter)) {
                let (pts, keyFrame): (MediaTime, Bool)
                switch action {
                case let .encode(p, k, _): (pts, keyFrame) = (p, k)
                case let .repeatPrevious(p, _): (pts, keyFrame) = (p, true)
                case .discontinuity:
                    // The part ends with its last frame.
                    if let lastPlaced { endPart(at: lastPlaced + Self.frame30) }
                    partStart = nil
                    parts.discontinuity()
                    continue
                case .drop: continue
                }
                for placed in parts.frame(pts: pts, keyFrame: keyFrame) {
                    let (at, key, starts): (MediaTime, Bool, Bool)
                    switch placed {
                    case .repeatPrevious(let p): (at, key, starts) = (p, false, true)
                    case let .place(p, k, s): (at, key, starts) = (p, k, s)
                    }
                    if let lastPlaced { #expect(at > lastPlaced, "time only grows") }
                    if key { keyFrames += 1; if starts { keyFramesStartingParts += 1 } }
                    if starts {
                        endPart(at: at)
                        partStart = at
                    }
                    lastPlaced = at
                }
            }
        }
        #expect(longest <= parts.partTarget, "the longest part lasted \(longest.seconds) s")
        #expect(longest > parts.interval, "the jitter made some part longer than nominal: the bound was tested")
        #expect(keyFrames == keyFramesStartingParts)
        #expect(parts.repeatedFrames > 0, "stalls inside segments were filled")
    }

    // MARK: Playlist

    static let date = Date(timeIntervalSince1970: 1_796_006_591.123)
    static func part(_ sequence: Int, _ index: Int, _ ms: Int64 = 333) -> HLSPlaylist.Part {
        HLSPlaylist.Part(address: .init(sequence: sequence, index: index), duration: MediaTime(value: ms, timescale: 1000),
                         isIndependent: index == 0)
    }

    @Test func anLLPlaylistListsPartsTheHintAndTheServerControl() {
        let lowLatency = HLSPlaylist.LowLatency(partTarget: MediaTime(value: 7, timescale: 20))
        let segment = HLSPlaylist.Segment(sequence: 1, duration: MediaTime(value: 2, timescale: 1), programDateTime: Self.date,
                                          parts: (0..<6).map { Self.part(1, $0) })
        let playlist = HLSPlaylist(targetDuration: 2, segments: [segment], lowLatency: lowLatency,
                                   partial: .init(sequence: 2, programDateTime: Self.date.addingTimeInterval(2), parts: [Self.part(2, 0)]),
                                   preloadHint: .init(sequence: 2, index: 1))
        let text = playlist.rendered()
        #expect(text == """
            #EXTM3U
            #EXT-X-VERSION:7
            #EXT-X-TARGETDURATION:2
            #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.000,PART-HOLD-BACK=1.050
            #EXT-X-PART-INF:PART-TARGET=0.350
            #EXT-X-PLAYLIST-TYPE:EVENT
            #EXT-X-INDEPENDENT-SEGMENTS
            #EXT-X-MEDIA-SEQUENCE:1
            #EXT-X-MAP:URI="init.mp4"
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:11.123Z
            #EXT-X-PART:DURATION=0.333,URI="part/000001.0.m4s",INDEPENDENT=YES
            #EXT-X-PART:DURATION=0.333,URI="part/000001.1.m4s"
            #EXT-X-PART:DURATION=0.333,URI="part/000001.2.m4s"
            #EXT-X-PART:DURATION=0.333,URI="part/000001.3.m4s"
            #EXT-X-PART:DURATION=0.333,URI="part/000001.4.m4s"
            #EXT-X-PART:DURATION=0.333,URI="part/000001.5.m4s"
            #EXTINF:2.000,
            seg/000001.m4s
            #EXT-X-PROGRAM-DATE-TIME:2026-11-30T02:43:13.123Z
            #EXT-X-PART:DURATION=0.333,URI="part/000002.0.m4s",INDEPENDENT=YES
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part/000002.1.m4s"

            """)
        // The origin's reading of it agrees: what blocking reload and delta updates go by.
        var tally = PlaylistTally()
        tally.consume(Array(text.utf8))
        let summary = tally.finished()
        #expect(summary.canBlockReload && summary.canSkipUntil == 12 && summary.partTarget == 0.35)
        #expect(summary.preloadHintURI == "part/000002.1.m4s")

        var finished = playlist
        finished.isFinished = true
        let closed = finished.rendered()
        #expect(!closed.contains("PRELOAD-HINT") && !closed.contains("part/000002"), "a finished playlist has no segment in progress")
        #expect(closed.hasSuffix("seg/000001.m4s\n#EXT-X-ENDLIST\n"))
        var regular = playlist
        regular.lowLatency = nil
        #expect(!regular.rendered().contains("PART"), "a regular playlist never renders parts")
    }

    @Test func aLadderRungReportsTheOtherRungsAtItsOwnLastPart() {
        let lowLatency = HLSPlaylist.LowLatency(partTarget: MediaTime(value: 7, timescale: 20),
                                                renditionReports: ["../high/playlist.m3u8", "../low/playlist.m3u8"])
        let segment = HLSPlaylist.Segment(sequence: 1, duration: MediaTime(value: 2, timescale: 1), programDateTime: Self.date,
                                          parts: (0..<6).map { Self.part(1, $0) })
        var playlist = HLSPlaylist(targetDuration: 2, segments: [segment], lowLatency: lowLatency,
                                   partial: .init(sequence: 2, programDateTime: Self.date, parts: [Self.part(2, 0), Self.part(2, 1)]),
                                   preloadHint: .init(sequence: 2, index: 2))
        #expect(playlist.rendered().hasSuffix("""
            #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part/000002.2.m4s"
            #EXT-X-RENDITION-REPORT:URI="../high/playlist.m3u8",LAST-MSN=2,LAST-PART=1
            #EXT-X-RENDITION-REPORT:URI="../low/playlist.m3u8",LAST-MSN=2,LAST-PART=1

            """))
        #expect(LLHLSConformance.violations(playlist.rendered()) == [])
        // A segment just completed: its own last part.
        playlist.partial = nil
        playlist.preloadHint = .init(sequence: 2, index: 0)
        #expect(playlist.rendered().contains("#EXT-X-RENDITION-REPORT:URI=\"../low/playlist.m3u8\",LAST-MSN=1,LAST-PART=5\n"))
        // None before anything is listed, none once finished.
        var empty = playlist
        empty.segments = []
        #expect(!empty.rendered().contains("RENDITION-REPORT"))
        playlist.isFinished = true
        #expect(!playlist.rendered().contains("RENDITION-REPORT"))
    }

    // MARK: Queue

    static let lowLatency = HLSPlaylist.LowLatency(partTarget: MediaTime(value: 7, timescale: 20))
    static func info(_ sequence: Int, _ index: Int) -> PublishQueue.PartInfo {
        PublishQueue.PartInfo(part: part(sequence, index), segmentDate: date.addingTimeInterval(Double(sequence - 1) * 2))
    }
    static let two = MediaTime(value: 2, timescale: 1)

    static func llQueue() throws -> PublishQueue {
        var queue = PublishQueue(settings: .init(targetDuration: 2, lowLatency: lowLatency))
        _ = try queue.initReady(now: .zero)
        _ = queue.uploadSucceeded(.initSegment, now: .zero)
        return queue
    }

    static func playlists(_ actions: [PublishQueue.Action]) -> [HLSPlaylist] {
        actions.compactMap { if case .upload(.playlist(let playlist)) = $0 { playlist } else { nil } }
    }

    @Test func eachUploadedPartIsListedAtOnceWithTheNextPartHinted() throws {
        var queue = try Self.llQueue()
        #expect(try queue.partReady(Self.info(1, 0), now: .zero) == [.upload(.part(.init(sequence: 1, index: 0)))])
        let first = Self.playlists(queue.uploadSucceeded(.part(.init(sequence: 1, index: 0)), now: .zero))
        #expect(first.count == 1)
        #expect(first.first?.segments.isEmpty == true, "a playlist with only a part in progress is published")
        #expect(first.first?.partial?.parts.map(\.address.index) == [0])
        #expect(first.first?.preloadHint == .init(sequence: 1, index: 1))
        _ = queue.uploadSucceeded(.playlist, now: .zero)

        for index in 1..<6 {
            _ = try queue.partReady(Self.info(1, index), now: .zero)
            _ = queue.uploadSucceeded(.part(.init(sequence: 1, index: index)), now: .zero)
            _ = queue.uploadSucceeded(.playlist, now: .zero)
        }
        let actions = try queue.segmentReady(sequence: 1, duration: Self.two, programDateTime: Self.date, now: .zero)
        #expect(actions.contains(.upload(.segment(1))))
        // The segment is not stored yet: its six parts are the segment in progress, and the
        // next segment's part 0 comes next, which a new playlist says at once.
        let waiting = try #require(Self.playlists(actions).first)
        #expect(waiting.segments.isEmpty && waiting.partial?.parts.count == 6)
        #expect(waiting.preloadHint == .init(sequence: 2, index: 0))
        _ = queue.uploadSucceeded(.playlist, now: .zero)
        let listed = Self.playlists(queue.uploadSucceeded(.segment(1), now: .zero))
        #expect(listed.first?.segments.map(\.parts.count) == [6], "the stored segment lists its parts")
        #expect(LLHLSConformance.violations(try #require(listed.first).rendered()) == [])
        #expect(listed.first?.partial == nil)
        #expect(listed.first?.preloadHint == .init(sequence: 2, index: 0))
        #expect(queue.stats.partsPublished == 6 && queue.stats.partsSkipped == 0)
    }

    @Test func partsWaitForInitAndAreSkippedWhileTheTargetIsSuspect() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2, lowLatency: Self.lowLatency))
        _ = try queue.initReady(now: .zero)
        #expect(try queue.partReady(Self.info(1, 0), now: .zero) == [], "no part before init.mp4 is stored")
        #expect(queue.uploadSucceeded(.initSegment, now: .zero) == [.upload(.part(.init(sequence: 1, index: 0)))])
        // A failed part is not retried, but makes the target suspect: later parts are skipped.
        let failed = queue.uploadFailed(.part(.init(sequence: 1, index: 0)), .retryable("HTTP 503"), now: .zero)
        #expect(failed.contains { if case .scheduleRetry = $0 { true } else { false } })
        #expect(!failed.contains { if case .upload = $0 { true } else { false } })
        #expect(try queue.partReady(Self.info(1, 1), now: .zero) == [])
        #expect(queue.stats.partsSkipped == 2)
        // The segment carries the same bytes; it is retried like any segment.
        _ = try queue.segmentReady(sequence: 1, duration: Self.two, programDateTime: Self.date, now: .zero)
        let probe = queue.tick(now: MediaTime(value: 1, timescale: 1))
        #expect(probe == [.upload(.segment(1))])
        let recovered = Self.playlists(queue.uploadSucceeded(.segment(1), now: MediaTime(value: 1, timescale: 1)))
        #expect(recovered.first?.segments.map(\.parts) == [[]], "a segment whose parts were not all stored lists none")
        #expect(recovered.first?.preloadHint == .init(sequence: 2, index: 0))
        // Healthy again: the next segment's parts go out and are listed.
        _ = queue.uploadSucceeded(.playlist, now: MediaTime(value: 1, timescale: 1))
        #expect(try queue.partReady(Self.info(2, 0), now: MediaTime(value: 1, timescale: 1)) == [.upload(.part(.init(sequence: 2, index: 0)))])
    }

    @Test func aSkippedPartEndsTheListingOfItsSegmentAndTheHintMovesOn() throws {
        var queue = try Self.llQueue()
        _ = try queue.partReady(Self.info(1, 0), now: .zero)
        _ = try queue.partReady(Self.info(1, 1), now: .zero)
        _ = queue.uploadSucceeded(.part(.init(sequence: 1, index: 0)), now: .zero)
        _ = queue.uploadSucceeded(.playlist, now: .zero)
        _ = queue.uploadFailed(.part(.init(sequence: 1, index: 1)), .retryable("reset"), now: .zero)
        let playlist = queue.publishablePlaylist
        #expect(playlist.partial?.parts.map(\.address.index) == [0])
        #expect(playlist.preloadHint == .init(sequence: 2, index: 0), "part 1.1 will never come: hint the next segment's first part")
    }

    @Test func onlyTheLastThreeTargetDurationsListTheirParts() throws {
        var queue = try Self.llQueue()
        for sequence in 1...6 {
            for index in 0..<6 {
                _ = try queue.partReady(Self.info(sequence, index), now: .zero)
                _ = queue.uploadSucceeded(.part(.init(sequence: sequence, index: index)), now: .zero)
            }
            _ = try queue.segmentReady(sequence: sequence, duration: Self.two, programDateTime: Self.date, now: .zero)
            _ = queue.uploadSucceeded(.segment(sequence), now: .zero)
        }
        // Segments of 2 s, target 2: the last three (4, 5, 6) end within 6 s of the end.
        #expect(queue.publishablePlaylist.segments.map(\.parts.count) == [0, 0, 0, 6, 6, 6])
        #expect(LLHLSConformance.violations(queue.publishablePlaylist.rendered()) == [])
    }

    @Test func aSlidingWindowKeepsTheRecentPartsTheSegmentInProgressAndTheHint() throws {
        var queue = PublishQueue(settings: .init(targetDuration: 2, lowLatency: Self.lowLatency, window: 4))
        _ = try queue.initReady(now: .zero)
        _ = queue.uploadSucceeded(.initSegment, now: .zero)
        for sequence in 1...7 {
            for index in 0..<6 {
                _ = try queue.partReady(Self.info(sequence, index), now: .zero)
                _ = queue.uploadSucceeded(.part(.init(sequence: sequence, index: index)), now: .zero)
            }
            guard sequence < 7 else { break }  // segment 7 stays in progress
            _ = try queue.segmentReady(sequence: sequence, duration: Self.two, programDateTime: Self.date, now: .zero)
            _ = queue.uploadSucceeded(.segment(sequence), now: .zero)
        }
        let playlist = queue.publishablePlaylist
        #expect(playlist.segments.map(\.sequence) == [3, 4, 5, 6] && playlist.mediaSequence == 3)
        #expect(playlist.segments.map(\.parts.count) == [0, 6, 6, 6])
        #expect(playlist.partial?.sequence == 7 && playlist.partial?.parts.count == 6)
        #expect(playlist.preloadHint == .init(sequence: 7, index: 6))
        #expect(LLHLSConformance.violations(playlist.rendered()) == [])
    }

    @Test func partsOutOfTurnAreAMisuse() throws {
        var queue = try Self.llQueue()
        #expect(throws: PublishQueue.Error.unexpectedPart(.init(sequence: 1, index: 1))) {
            try queue.partReady(Self.info(1, 1), now: .zero)
        }
        #expect(throws: PublishQueue.Error.unexpectedPart(.init(sequence: 2, index: 0))) {
            try queue.partReady(Self.info(2, 0), now: .zero)
        }
        var regular = PublishQueue(settings: .init(targetDuration: 2))
        #expect(throws: PublishQueue.Error.unexpectedPart(.init(sequence: 1, index: 0))) {
            try regular.partReady(Self.info(1, 0), now: .zero)
        }
    }

    @Test func theEndlistPlaylistHasNoHint() throws {
        var queue = try Self.llQueue()
        _ = try queue.partReady(Self.info(1, 0), now: .zero)
        _ = queue.uploadSucceeded(.part(.init(sequence: 1, index: 0)), now: .zero)
        _ = queue.uploadSucceeded(.playlist, now: .zero)
        _ = try queue.segmentReady(sequence: 1, duration: MediaTime(value: 1, timescale: 3), programDateTime: Self.date, now: .zero)
        let ending = Self.playlists(queue.finishRequested(now: .zero))
        #expect(queue.publishablePlaylist.preloadHint == nil, "once the stream is ending no part is hinted: none will come")
        #expect(ending.isEmpty, "a playlist is already in flight")
        // The one hinting segment 2 was in flight: the hint-less one follows it.
        let unhinted = try #require(Self.playlists(queue.uploadSucceeded(.playlist, now: .zero)).first)
        #expect(unhinted.preloadHint == nil && !unhinted.isFinished)
        #expect(Self.playlists(queue.uploadSucceeded(.segment(1), now: .zero)).isEmpty)
        let last = Self.playlists(queue.uploadSucceeded(.playlist, now: .zero)).first
        #expect(last?.isFinished == true)
        #expect(last?.rendered().contains("PRELOAD-HINT") == false)
        #expect(last?.segments.first?.parts.count == 1)
    }
}

/// The conformance checker the end-to-end tests rely on finds what it should.
@Suite("LL-HLS conformance checker")
struct LLHLSConformanceCheckerTests {
    static let good = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=12.000,PART-HOLD-BACK=1.050
        #EXT-X-PART-INF:PART-TARGET=0.350
        #EXT-X-PLAYLIST-TYPE:EVENT
        #EXT-X-MEDIA-SEQUENCE:1
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-PART:DURATION=0.333,URI="part/000001.0.m4s",INDEPENDENT=YES
        #EXT-X-PART:DURATION=0.334,URI="part/000001.1.m4s"
        #EXTINF:0.667,
        seg/000001.m4s
        #EXT-X-PART:DURATION=0.333,URI="part/000002.0.m4s",INDEPENDENT=YES
        #EXT-X-PRELOAD-HINT:TYPE=PART,URI="part/000002.1.m4s"
        #EXT-X-RENDITION-REPORT:URI="../low/playlist.m3u8",LAST-MSN=2,LAST-PART=0

        """

    @Test func aConformingPlaylistPasses() {
        #expect(LLHLSConformance.violations(Self.good) == [])
    }

    @Test(arguments: [
        ("DURATION=0.334,URI=\"part/000001.1.m4s\"", "DURATION=0.351,URI=\"part/000001.1.m4s\"", "more than PART-TARGET"),
        ("PART-HOLD-BACK=1.050", "PART-HOLD-BACK=1.000", "less than 3 × PART-TARGET"),
        ("CAN-BLOCK-RELOAD=YES,", "", "lacks CAN-BLOCK-RELOAD=YES"),
        ("URI=\"part/000002.1.m4s\"", "URI=\"part/000002.2.m4s\"", "does not follow the last part"),
        ("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part/000002.1.m4s\"\n", "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"part/000002.1.m4s\"\n#EXT-X-ENDLIST\n", "a finished playlist with a preload hint"),
        ("URI=\"part/000001.1.m4s\"", "URI=\"part/000001.1.m4s\",INDEPENDENT=YES", "only part 0 starts with the key frame"),
        ("#EXTINF:0.667,", "#EXTINF:0.900,", "add up to"),
        ("URI=\"part/000002.0.m4s\"", "URI=\"part/000002.1.m4s\"", "at position 0"),
        ("CAN-SKIP-UNTIL=12.000", "CAN-SKIP-UNTIL=6.000", "less than 6 × the target duration"),
        ("#EXT-X-PART-INF:PART-TARGET=0.350\n", "", "PART-TARGET must appear once"),
        (",LAST-MSN=2,LAST-PART=0", ",LAST-MSN=2", "lacks LAST-PART"),
        (",LAST-MSN=2,LAST-PART=0", ",LAST-PART=0", "lacks an integer LAST-MSN"),
        ("URI=\"../low/playlist.m3u8\",", "", "without a URI"),
        ("LAST-PART=0\n", "LAST-PART=0\n#EXT-X-RENDITION-REPORT:URI=\"../low/playlist.m3u8\",LAST-MSN=2,LAST-PART=0\n", "reported twice"),
        ("#EXT-X-MEDIA-SEQUENCE:1", "#EXT-X-MEDIA-SEQUENCE:2", "but the first listed segment is 1"),
        ("#EXT-X-MAP:URI=\"init.mp4\"\n", "#EXT-X-MAP:URI=\"init.mp4\"\n#EXT-X-SKIP:SKIPPED-SEGMENTS=1\n", "(1 skipped) but the first listed segment is 1"),
        ("#EXT-X-MEDIA-SEQUENCE:1\n", "", "no readable EXT-X-MEDIA-SEQUENCE"),
        ("#EXT-X-PLAYLIST-TYPE:EVENT\n", "", "without EXT-X-DISCONTINUITY-SEQUENCE"),
        ("seg/000001.m4s", "seg/000001.m4s\n#EXTINF:0.5,\nseg/000003.m4s", "segment 3 follows segment 1"),
    ])
    func eachBrokenRuleIsFound(_ original: String, _ broken: String, _ expected: String) {
        #expect(Self.good.contains(original))
        let problems = LLHLSConformance.violations(Self.good.replacingOccurrences(of: original, with: broken))
        #expect(problems.contains { $0.contains(expected) }, "\(problems)")
    }
}
