import Testing
@testable import ReelCore

@Suite("SampleTimeline")
struct SampleTimelineTests {
    private func ns(_ value: Int64) -> MediaTime { .nanoseconds(value) }
    private let tenSeconds = MediaTime(value: 10, timescale: 1)

    @Test func firstVideoSampleIsStampedAtTenSecondsByDefault() {
        var timeline = SampleTimeline()
        #expect(!timeline.hasStarted)
        #expect(timeline.delta == nil)
        let first = ns(123_456_789_012)
        #expect(timeline.video(first) == tenSeconds)
        #expect(timeline.hasStarted)
        #expect(timeline.firstVideoCapture == first)
        #expect(timeline.delta == tenSeconds - first)
        #expect(timeline.delta == ns(10_000_000_000 - 123_456_789_012))
    }

    @Test func customStartIsHonoured() {
        var timeline = SampleTimeline(start: MediaTime(value: 3, timescale: 2))
        #expect(timeline.video(ns(42)) == MediaTime(value: 1_500, timescale: 1_000))
        #expect(timeline.video(ns(42 + 1_000_000_000)) == MediaTime(value: 5, timescale: 2))
    }

    @Test func oneDeltaForVideoAndAudioPreservesTheOffset() throws {
        var timeline = SampleTimeline()
        let firstVideo = ns(5_000_000_000)
        _ = timeline.video(firstVideo)
        // Audio 12.345 ms after the first video frame keeps exactly that offset.
        let audioResult = timeline.audio(ns(5_012_345_000))
        let audio = try #require(audioResult)
        #expect(audio == ns(10_012_345_000))
        // A later video frame uses the same delta.
        #expect(timeline.video(ns(5_033_333_333)) == ns(10_033_333_333))
        // Audio late in the stream: still exact (3 days of uptime in nanoseconds).
        var longRunning = SampleTimeline()
        let uptime: Int64 = 3 * 86_400 * 1_000_000_000
        _ = longRunning.video(ns(uptime))
        #expect(longRunning.audio(ns(uptime + 7)) == ns(10_000_000_007))
    }

    @Test func captureTimesAfterTheStartGiveANegativeDeltaAndEarlierOnesAPositiveOne() {
        var late = SampleTimeline()
        _ = late.video(ns(25_000_000_000))
        #expect(late.delta == ns(-15_000_000_000))
        var early = SampleTimeline()
        _ = early.video(ns(2_000_000_000))
        #expect(early.delta == ns(8_000_000_000))
        #expect(early.audio(ns(2_500_000_000)) == ns(10_500_000_000))
    }

    @Test func audioBeforeAnyVideoIsDropped() {
        var timeline = SampleTimeline()
        #expect(timeline.audio(ns(1_000)) == nil)
        #expect(timeline.audio(ns(2_000)) == nil)
        #expect(timeline.droppedAudioSamples == 2)
        #expect(timeline.delta == nil, "audio must not start the stream")
        // Even audio captured after the first video frame, but delivered before it, is gone;
        // the first video frame still defines the start.
        #expect(timeline.video(ns(500)) == tenSeconds)
    }

    @Test func audioCapturedBeforeTheFirstVideoSampleIsDroppedAndAtItIsKept() {
        var timeline = SampleTimeline()
        _ = timeline.video(ns(1_000_000))
        #expect(timeline.audio(ns(999_999)) == nil)
        #expect(timeline.droppedAudioSamples == 1)
        #expect(timeline.audio(ns(1_000_000)) == tenSeconds)
        #expect(timeline.audio(ns(1_000_001)) == ns(10_000_000_001))
        #expect(timeline.droppedAudioSamples == 1)
    }

    @Test func laterVideoNeverMovesTheDelta() {
        var timeline = SampleTimeline()
        _ = timeline.video(ns(1_000_000_000))
        let delta = timeline.delta
        // An out-of-order video frame is mapped, not re-based (dropping it is the cut policy's job).
        #expect(timeline.video(ns(900_000_000)) == ns(9_900_000_000))
        #expect(timeline.delta == delta)
        #expect(timeline.firstVideoCapture == ns(1_000_000_000))
    }

    @Test func otherTimesMapOnlyAfterTheStart() {
        var timeline = SampleTimeline()
        #expect(timeline.stream(ns(5)) == nil)
        _ = timeline.video(ns(100))
        // A DTS before the first PTS is still mapped (no drop, no count).
        #expect(timeline.stream(ns(50)) == ns(9_999_999_950))
        #expect(timeline.droppedAudioSamples == 0)
    }

    @Test func ninetyKilohertzCapturesStayExact() {
        var timeline = SampleTimeline()
        let first = MediaTime(value: 123_457, timescale: 90_000)
        #expect(timeline.video(first) == tenSeconds)
        let next = timeline.video(MediaTime(value: 123_457 + 3_003, timescale: 90_000))
        #expect(next == MediaTime(value: 900_000 + 3_003, timescale: 90_000))
        #expect(next.timescale == 90_000)
    }
}
