import ReelCore
import Testing

@Suite("ArchiveRatePolicy")
struct ArchiveRatePolicyTests {
    func t(_ frame: Int) -> MediaTime { MediaTime(value: Int64(frame), timescale: 30) }

    @Test("every frame is encoded while the queue keeps up")
    func keepsUp() {
        var policy = ArchiveRatePolicy()
        for i in 0..<1000 {
            let encode = policy.shouldEncode(at: t(i), depth: i % 40, capacity: 120)
            #expect(encode)
        }
        #expect(policy.skippedFrames == 0 && !policy.hasDegraded)
    }

    @Test("at 75 % full it halves the rate, alternating from the frame that crossed, and says when")
    func degradesAtHighWater() {
        var policy = ArchiveRatePolicy()
        let first = policy.shouldEncode(at: t(0), depth: 89, capacity: 120)
        #expect(first)
        let decisions = (1...6).map { policy.shouldEncode(at: t($0), depth: 90, capacity: 120) }
        #expect(decisions == [true, false, true, false, true, false])
        #expect(policy.factor == 2 && policy.skippedFrames == 3)
        #expect(policy.events == [.degraded(at: t(1), factor: 2)])
    }

    @Test("it restores the full rate only after 10 s continuously below 25 %")
    func restoresAfterRecovery() {
        var policy = ArchiveRatePolicy()
        _ = policy.shouldEncode(at: t(0), depth: 120, capacity: 120)
        // Low for 9 s, then a spike: the recovery clock starts again.
        for i in 1...270 { _ = policy.shouldEncode(at: t(i), depth: 10, capacity: 120) }
        _ = policy.shouldEncode(at: t(271), depth: 60, capacity: 120)
        #expect(policy.factor == 2)
        for i in 272...571 { _ = policy.shouldEncode(at: t(i), depth: 10, capacity: 120) }
        #expect(policy.factor == 2, "10 s after the spike have not passed yet at frame 571")
        let restored = policy.shouldEncode(at: t(572), depth: 10, capacity: 120)
        #expect(restored)
        #expect(policy.factor == 1)
        #expect(policy.events == [.degraded(at: t(0), factor: 2), .restored(at: t(572))])
        for i in 573...600 {
            let encode = policy.shouldEncode(at: t(i), depth: 10, capacity: 120)
            #expect(encode)
        }
    }

    @Test("depth between the marks changes nothing (hysteresis)")
    func hysteresis() {
        var policy = ArchiveRatePolicy()
        for i in 0..<100 { _ = policy.shouldEncode(at: t(i), depth: 80, capacity: 120) }  // 67 %
        #expect(policy.factor == 1)
        _ = policy.shouldEncode(at: t(100), depth: 100, capacity: 120)
        for i in 101..<1000 { _ = policy.shouldEncode(at: t(i), depth: 50, capacity: 120) }  // 42 %
        #expect(policy.factor == 2, "never below the low mark: stays degraded")
    }

    @Test("still full 2 s after a step: it halves again, down to 1 in 32 at most; recovery steps back up one at a time")
    func escalatesAndStepsBack() {
        var policy = ArchiveRatePolicy()
        for i in 0..<600 { _ = policy.shouldEncode(at: t(i), depth: 120, capacity: 120) }
        #expect(policy.factor == 32)
        #expect(policy.events == [2, 4, 8, 16, 32].enumerated().map { .degraded(at: t($0.offset * 60), factor: $0.element) })
        let kept = (600..<728).filter { policy.shouldEncode(at: t($0), depth: 120, capacity: 120) }.count
        #expect(kept == 4, "one frame in 32")
        for i in 728..<1100 { _ = policy.shouldEncode(at: t(i), depth: 0, capacity: 120) }
        #expect(policy.factor == 16, "one step back after 10 s low: \(policy.events)")
        for i in 1100..<3000 { _ = policy.shouldEncode(at: t(i), depth: 0, capacity: 120) }
        #expect(policy.factor == 1)
        // Five steps of 10 s each; the low clock restarts on the frame after each step.
        #expect(policy.events.last == .restored(at: t(728 + 5 * 300 + 4)))
    }
}
