import ReelTestSupport
import Testing
@testable import ReelCore

@Suite("SegmentCutPolicy")
struct SegmentCutPolicyTests {
    typealias Action = SegmentCutPolicy.Action

    /// 90 kHz ticks.
    private func t(_ ticks: Int64) -> MediaTime { MediaTime(value: ticks, timescale: 90_000) }
    private let twoSeconds = MediaTime(value: 2, timescale: 1)
    private let frame30 = MediaTime(value: 1, timescale: 30)  // 3000 ticks
    private let start: Int64 = 900_000  // 10 s

    private func policy(interval: MediaTime? = nil, frame: MediaTime? = nil) throws -> SegmentCutPolicy {
        try SegmentCutPolicy(interval: interval ?? twoSeconds, frameDuration: frame ?? frame30)
    }

    // MARK: Configuration

    @Test func rejectsInvalidConfigurations() {
        #expect(throws: SegmentCutPolicy.Error.nonPositiveInterval(.zero)) {
            try SegmentCutPolicy(interval: .zero, frameDuration: frame30)
        }
        #expect(throws: SegmentCutPolicy.Error.nonPositiveInterval(MediaTime(value: -2, timescale: 1))) {
            try SegmentCutPolicy(interval: MediaTime(value: -2, timescale: 1), frameDuration: frame30)
        }
        #expect(throws: SegmentCutPolicy.Error.nonPositiveFrameDuration(.zero)) {
            try SegmentCutPolicy(frameDuration: .zero)
        }
        let long = MediaTime(value: 3, timescale: 1)
        #expect(throws: SegmentCutPolicy.Error.frameDurationExceedsInterval(frameDuration: long, interval: twoSeconds)) {
            try SegmentCutPolicy(frameDuration: long)
        }
        #expect(throws: SegmentCutPolicy.Error.invalidDiscontinuityIntervals(0)) {
            try SegmentCutPolicy(frameDuration: frame30, discontinuityIntervals: 0)
        }
        // A frame as long as the interval is the limit, and allowed.
        #expect(throws: Never.self) { try SegmentCutPolicy(frameDuration: twoSeconds) }
    }

    @Test func errorMessagesSayWhatIsWrong() {
        #expect(SegmentCutPolicy.Error.nonPositiveInterval(.zero).description == "segment interval must be positive, got 0.000s")
        #expect(SegmentCutPolicy.Error.frameDurationExceedsInterval(frameDuration: MediaTime(value: 3, timescale: 1), interval: twoSeconds).description
            == "frame duration 3.000s must not exceed the segment interval 2.000s")
        #expect(SegmentCutPolicy.Error.invalidDiscontinuityIntervals(0).description.contains("at least 1"))
    }

    @Test(arguments: [
        // (interval numerator, interval timescale, frame numerator, frame timescale, target)
        (2, 1, 1, 30, 2),      // 2.033 s
        (5, 2, 1, 30, 3),      // 2.533 s
        (6, 1, 1, 25, 6),      // 6.040 s
        (1, 2, 1, 30, 1),      // 0.533 s → 1
        (3, 10, 1, 30, 1),     // 0.333 s → 0 → at least 1
        (1, 1, 1, 2, 2),       // 1.5 s → 2 (half away from zero)
        (2, 1, 1, 1, 3),       // 3.0 s
    ])
    func targetDurationIsTheMaximumSegmentRoundedToNearest(
        intervalValue: Int64, intervalScale: Int32, frameValue: Int64, frameScale: Int32, target: Int
    ) throws {
        let interval = MediaTime(value: intervalValue, timescale: intervalScale)
        let frame = MediaTime(value: frameValue, timescale: frameScale)
        let policy = try SegmentCutPolicy(interval: interval, frameDuration: frame)
        #expect(policy.maximumSegmentDuration == interval + frame)
        #expect(policy.targetDuration == target)
    }

    @Test func maximumSegmentDurationIsExact() throws {
        let policy = try policy()
        #expect(policy.maximumSegmentDuration == MediaTime(value: 61, timescale: 30))
    }

    // MARK: Steady stream

    @Test func steadyThirtyFramesPerSecondCutsExactlyEverySixtyFrames() throws {
        var policy = try policy()
        var keyFrames: [Int] = []
        for n in 0..<300 {
            let actions = policy.frame(pts: t(start + 3_000 * Int64(n)))
            #expect(actions.count == 1)
            guard case .encode(let pts, let key, let index) = actions[0] else {
                Issue.record("frame \(n): \(actions)")
                continue
            }
            #expect(pts == t(start + 3_000 * Int64(n)))
            #expect(index == n / 60 + 1)
            if key { keyFrames.append(n) }
        }
        #expect(keyFrames == [0, 60, 120, 180, 240])
        #expect(policy.completedSegments.map(\.duration) == Array(repeating: twoSeconds, count: 4))
        #expect(policy.completedSegments.map(\.start) == [0, 60, 120, 180].map { t(start + 3_000 * $0) })
        let lastResult = policy.finish()
        let last = try #require(lastResult)
        #expect(last == SegmentCutPolicy.Segment(index: 5, start: t(start + 720_000), duration: twoSeconds))
        #expect(policy.completedSegments.count == 5)
        #expect(policy.repeatedFrames == 0)
        #expect(policy.droppedFrames == 0)
    }

    @Test func aShortFinalSegmentEndsOneFrameAfterItsLastFrame() throws {
        var policy = try policy()
        for n in 0..<75 { _ = policy.frame(pts: t(start + 3_000 * Int64(n))) }
        let lastResult = policy.finish()
        let last = try #require(lastResult)
        #expect(last.index == 2)
        #expect(last.start == t(start + 180_000))
        #expect(last.duration == MediaTime(value: 15, timescale: 30))  // frames 60…74
    }

    // MARK: Tolerance edges (timescale 60: half a 1/30 s frame is one tick)

    private func ticks60(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 60) }

    @Test func aFrameHalfAFrameBeforeTheBoundaryCutsAndOneTickEarlierDoesNot() throws {
        var early = try policy()
        _ = early.frame(pts: ticks60(0))
        // 2 s − half a frame − 1/90000 s: not yet.
        let justBefore = ticks60(119) - MediaTime(value: 1, timescale: 90_000)
        #expect(early.frame(pts: justBefore) == [.encode(pts: justBefore, keyFrame: false, segmentIndex: 1)])

        var exact = try policy()
        _ = exact.frame(pts: ticks60(0))
        #expect(exact.frame(pts: ticks60(119)) == [.encode(pts: ticks60(119), keyFrame: true, segmentIndex: 2)])
        #expect(exact.completedSegments.map(\.duration) == [ticks60(119)])
    }

    @Test func aFrameHalfAFrameAfterTheBoundaryStillCutsWithoutARepeat() throws {
        var policy = try policy()
        _ = policy.frame(pts: ticks60(0))
        _ = policy.frame(pts: ticks60(100))
        #expect(policy.frame(pts: ticks60(121)) == [.encode(pts: ticks60(121), keyFrame: true, segmentIndex: 2)])
        #expect(policy.completedSegments.map(\.duration) == [ticks60(121)])
        #expect(policy.repeatedFrames == 0)
    }

    @Test func aFrameJustLaterThanThatGetsARepeatAtTheBoundaryFirst() throws {
        var policy = try policy()
        _ = policy.frame(pts: ticks60(0))
        _ = policy.frame(pts: ticks60(100))
        let late = ticks60(121) + MediaTime(value: 1, timescale: 90_000)
        #expect(policy.frame(pts: late) == [
            .repeatPrevious(pts: ticks60(120), segmentIndex: 2),
            .encode(pts: late, keyFrame: false, segmentIndex: 2),
        ])
        #expect(policy.completedSegments.map(\.duration) == [twoSeconds])
        #expect(policy.repeatedFrames == 1)
    }

    // MARK: Gaps

    @Test func aGapSpanningSeveralBoundariesRepeatsAtEachOne() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        _ = policy.frame(pts: t(start + 45_000))          // 0.5 s
        let late = t(start + 459_000)                      // 5.1 s
        #expect(policy.frame(pts: late) == [
            .repeatPrevious(pts: t(start + 180_000), segmentIndex: 2),
            .repeatPrevious(pts: t(start + 360_000), segmentIndex: 3),
            .encode(pts: late, keyFrame: false, segmentIndex: 3),
        ])
        #expect(policy.completedSegments.map(\.duration) == [twoSeconds, twoSeconds])
        #expect(policy.currentSegmentIndex == 3)
        #expect(policy.repeatedFrames == 2)
    }

    @Test func aGapEndingOnALaterBoundaryCutsThereWithoutAnExtraRepeat() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        let late = t(start + 360_000)  // exactly 4 s
        #expect(policy.frame(pts: late) == [
            .repeatPrevious(pts: t(start + 180_000), segmentIndex: 2),
            .encode(pts: late, keyFrame: true, segmentIndex: 3),
        ])
    }

    @Test func aGapOfExactlyTheDiscontinuityThresholdIsStillFilled() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        let late = t(start + 1_800_000)  // 20 s = 10 intervals
        let actions = policy.frame(pts: late)
        #expect(actions.count == 10)
        #expect(actions.dropLast().allSatisfy { if case .repeatPrevious = $0 { true } else { false } })
        #expect(actions.last == .encode(pts: late, keyFrame: true, segmentIndex: 11))
        #expect(policy.discontinuities == 0)
        #expect(policy.completedSegments.allSatisfy { $0.duration == twoSeconds })
    }

    @Test func aLongerGapIsADiscontinuityNotAFlood() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        _ = policy.frame(pts: t(start + 3_000))
        let late = t(start + 1_803_001)  // just over 10 intervals after the previous frame
        #expect(policy.frame(pts: late) == [
            .discontinuity(gap: late - t(start + 6_000), segmentIndex: 2),
            .encode(pts: late, keyFrame: true, segmentIndex: 2),
        ])
        #expect(policy.discontinuities == 1)
        #expect(policy.repeatedFrames == 0)
        // The interrupted segment ends with its last frame, not at the late frame.
        #expect(policy.completedSegments == [
            SegmentCutPolicy.Segment(index: 1, start: t(start), duration: t(6_000)),
        ])
        _ = policy.frame(pts: late + t(3_000))
        let resumedResult = policy.finish()
        let resumed = try #require(resumedResult)
        #expect(resumed == SegmentCutPolicy.Segment(index: 2, start: late, duration: t(6_000), followsDiscontinuity: true))
    }

    @Test func theDiscontinuityThresholdIsConfigurable() throws {
        var policy = try SegmentCutPolicy(frameDuration: frame30, discontinuityIntervals: 1)
        _ = policy.frame(pts: t(start))
        #expect(policy.frame(pts: t(start + 180_000)).count == 1, "one interval exactly: a plain cut")
        let late = t(start + 180_000 + 180_001)
        #expect(policy.frame(pts: late).first == .discontinuity(gap: t(177_001), segmentIndex: 3))
    }

    @Test func aSegmentAfterADiscontinuityThatIsCutNormallyIsMarkedAndTheNextIsNot() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(0))
        let resume = t(5_000_000)
        _ = policy.frame(pts: resume)
        for n in 1...60 { _ = policy.frame(pts: resume + t(3_000 * Int64(n))) }
        _ = policy.finish()
        #expect(policy.completedSegments.map(\.followsDiscontinuity) == [false, true, false])
        #expect(policy.completedSegments.map(\.index) == [1, 2, 3])
    }

    // MARK: Drops and finish

    @Test func nonMonotonicFramesAreDroppedAndDoNotDisturbTheState() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        _ = policy.frame(pts: t(start + 3_000))
        #expect(policy.frame(pts: t(start + 3_000)) == [.drop(.nonMonotonic(previous: t(start + 3_000)))])
        #expect(policy.frame(pts: t(start + 1)) == [.drop(.nonMonotonic(previous: t(start + 3_000)))])
        // A huge backwards jump is a drop too, never a discontinuity or a repeat.
        #expect(policy.frame(pts: t(0)) == [.drop(.nonMonotonic(previous: t(start + 3_000)))])
        #expect(policy.droppedFrames == 3)
        #expect(policy.frame(pts: t(start + 6_000)) == [.encode(pts: t(start + 6_000), keyFrame: false, segmentIndex: 1)])
        #expect(policy.completedSegments.isEmpty)
    }

    @Test func finishIsOnceAndLaterFramesAreDropped() throws {
        var policy = try policy()
        _ = policy.frame(pts: t(start))
        #expect(policy.finish() == SegmentCutPolicy.Segment(index: 1, start: t(start), duration: frame30))
        #expect(policy.isFinished)
        #expect(policy.finish() == nil)
        #expect(policy.frame(pts: t(start + 3_000)) == [.drop(.finished)])
        #expect(policy.completedSegments.count == 1)
        #expect(policy.droppedFrames == 1)
    }

    @Test func finishingAnEmptyStreamClosesNothing() throws {
        var policy = try policy()
        #expect(policy.currentSegmentIndex == 0)
        #expect(policy.finish() == nil)
        #expect(policy.completedSegments.isEmpty)
    }

    @Test func nanosecondPTSWithAThirtiethOfASecondFrameCutsCorrectly() throws {
        // The realistic mix: stream PTS in nanoseconds (after SampleTimeline), frame 1/30 s.
        var policy = try policy()
        func pts(_ n: Int64) -> MediaTime { .nanoseconds(10_000_000_000 + n * 1_000_000_000 / 30) }
        var keys: [Int64] = []
        for n in Int64(0)..<121 {
            if case .encode(_, true, _) = policy.frame(pts: pts(n)).last { keys.append(n) }
        }
        #expect(keys == [0, 60, 120])
        #expect(policy.completedSegments.map(\.duration) == [twoSeconds, twoSeconds])
        let lastResult = policy.finish()
        let last = try #require(lastResult)
        // One frame, 1/30 s, rounded to the nanosecond.
        #expect(last.duration == .nanoseconds(33_333_333))
    }

    // MARK: Invariants under random input

    struct Config: Sendable, CustomTestStringConvertible {
        var interval: MediaTime
        var frame: MediaTime
        var seed: UInt64
        var testDescription: String { "interval \(interval) frame \(frame.value)/\(frame.timescale) seed \(seed)" }
    }

    static let configs: [Config] = [
        Config(interval: MediaTime(value: 2, timescale: 1), frame: MediaTime(value: 1, timescale: 30), seed: 1),
        Config(interval: MediaTime(value: 2, timescale: 1), frame: MediaTime(value: 1, timescale: 30), seed: 0xDEAD_BEEF),
        Config(interval: MediaTime(value: 2, timescale: 1), frame: MediaTime(value: 1, timescale: 25), seed: 7),
        Config(interval: MediaTime(value: 2, timescale: 1), frame: MediaTime(value: 1, timescale: 60), seed: 99),
        Config(interval: MediaTime(value: 2, timescale: 1), frame: MediaTime(value: 1_001, timescale: 24_000), seed: 2024),
        Config(interval: MediaTime(value: 1, timescale: 1), frame: MediaTime(value: 1, timescale: 30), seed: 5),
        Config(interval: MediaTime(value: 6, timescale: 1), frame: MediaTime(value: 1, timescale: 30), seed: 11),
        Config(interval: MediaTime(value: 3, timescale: 2), frame: MediaTime(value: 1, timescale: 15), seed: 13),
    ]

    @Test(arguments: configs)
    func randomJitteredGappyInputNeverBreaksTheRules(config: Config) throws {
        var policy = try SegmentCutPolicy(interval: config.interval, frameDuration: config.frame)
        var random = SplitMix64(seed: config.seed)
        let frameTicks = config.frame.converted(to: 90_000).value
        let intervalTicks = config.interval.converted(to: 90_000).value
        var nominal: Int64 = 900_000 + Int64(random.next() % 90_000)
        var firstPTS: MediaTime?
        var lastAccepted: MediaTime?
        var lastEmitted: MediaTime?
        var uncovered = MediaTime(value: 0, timescale: 720_000)
        var segmentIndex = 0
        var keyStarts: [MediaTime] = []
        var encodes = 0, drops = 0, inputs = 0

        for _ in 0..<6_000 {
            // Next nominal time: usually one frame; sometimes dropped frames, a stall, or a
            // long outage; jitter of up to ±45 % of a frame on top.
            let roll = random.next() % 1_000
            if roll < 60 {
                nominal += frameTicks * Int64(2 + random.next() % 5)                    // dropped frames
            } else if roll < 75 {
                nominal += Int64(random.next() % 700_000) + frameTicks                  // stall up to ~7.8 s
            } else if roll < 78 {
                nominal += intervalTicks * 10 + frameTicks + Int64(random.next() % UInt64(2 * intervalTicks)) // outage
            } else {
                nominal += frameTicks
            }
            let jitter = Int64(random.next() % UInt64(frameTicks * 9 / 10 + 1)) - frameTicks * 45 / 100
            var pts = t(nominal + jitter)
            if random.next() % 100 < 3, let previous = lastAccepted {
                pts = previous - t(Int64(random.next() % 2) * 500)                       // duplicate or backwards
            }
            inputs += 1
            let actions = policy.frame(pts: pts)
            #expect(!actions.isEmpty)
            var sawEncode = false
            for (position, action) in actions.enumerated() {
                switch action {
                case .drop:
                    #expect(actions.count == 1)
                    #expect(pts <= lastAccepted!)
                    drops += 1
                case .discontinuity(let gap, let index):
                    #expect(position == 0)
                    #expect(gap > .zero)
                    #expect(index == segmentIndex + 1)
                    uncovered += exactly(gap)
                case .repeatPrevious(let repeatPTS, let index):
                    #expect(!sawEncode)
                    #expect(index == segmentIndex + 1)
                    #expect(lastEmitted.map { repeatPTS > $0 } ?? false)
                    segmentIndex = index
                    keyStarts.append(repeatPTS)
                    lastEmitted = repeatPTS
                case .encode(let encodedPTS, let key, let index):
                    #expect(position == actions.count - 1)
                    #expect(encodedPTS == pts)
                    #expect(lastEmitted.map { encodedPTS > $0 } ?? true)
                    #expect(index == (key ? segmentIndex + 1 : segmentIndex))
                    if key { keyStarts.append(encodedPTS) }
                    segmentIndex = index
                    sawEncode = true
                    encodes += 1
                    lastEmitted = encodedPTS
                    lastAccepted = encodedPTS
                    if firstPTS == nil { firstPTS = encodedPTS }
                }
            }
        }
        let finalSegment = policy.finish()
        #expect(finalSegment != nil)
        let segments = policy.completedSegments
        #expect(encodes + drops == inputs)
        #expect(segments.map(\.index) == Array(1...segments.count))
        #expect(segments.map(\.start) == keyStarts)
        #expect(segments.count == segmentIndex)
        #expect(policy.repeatedFrames > 10, "the generator must exercise repeats")
        #expect(policy.discontinuities > 0, "the generator must exercise discontinuities")
        #expect(drops > 0, "the generator must exercise drops")

        let halfFrame = MediaTime(value: config.frame.value, timescale: config.frame.timescale * 2)
        for segment in segments {
            #expect(segment.duration > .zero)
            #expect(segment.duration <= policy.maximumSegmentDuration)
            #expect(segment.duration <= config.interval + halfFrame)
            #expect(segment.duration.converted(to: 1).value <= Int64(policy.targetDuration))
            // As EXTINF prints it (milliseconds), rounded to nearest.
            let extinf = try #require(Double(segment.duration.seconds.formatted3))
            #expect(Int(extinf.rounded()) <= policy.targetDuration)
        }
        for (segment, next) in zip(segments, segments.dropFirst()) {
            if next.followsDiscontinuity {
                #expect(next.start > segment.end)
            } else {
                #expect(next.start == segment.end)
            }
        }
        // Sum in one fine timescale so the test's own arithmetic is exact.
        let total = segments.reduce(exactly(.zero)) { $0 + exactly($1.duration) }
        let end = exactly(lastAccepted!) + exactly(config.frame)
        #expect(total == end - exactly(firstPTS!) - uncovered)
        #expect(segments.last!.end == end)
    }

    /// The time in 1/720000 s, a multiple of every timescale the configs use; records an
    /// issue if the conversion would round.
    private func exactly(_ time: MediaTime, sourceLocation: SourceLocation = #_sourceLocation) -> MediaTime {
        let fine = time.converted(to: 720_000)
        #expect(fine == time, "\(time.value)/\(time.timescale) is not exact in 1/720000", sourceLocation: sourceLocation)
        return fine
    }
}
