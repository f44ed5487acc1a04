import Testing
@testable import ReelCore

@Suite struct RetryPolicyTests {
    @Test func defaultPolicyHasThreeQuickAttemptsThenCappedBackoff() {
        let policy = RetryPolicy.default
        #expect(policy.quickAttempts == 3)
        let delays = (1...9).map { policy.delay(afterFailures: $0).seconds }
        #expect(delays == [0.25, 0.5, 1, 2, 4, 8, 8, 8, 8])
        #expect(!policy.isBackingOff(afterFailures: 2))
        #expect(policy.isBackingOff(afterFailures: 3))
    }

    @Test func hugeFailureCountsStayAtTheCap() {
        #expect(RetryPolicy.default.delay(afterFailures: 10_000) == MediaTime(value: 8, timescale: 1))
    }

    @Test func capBelowInitialIsRaisedAndNoQuickDelaysMeansBackoffAtOnce() {
        let policy = RetryPolicy(quickDelays: [], backoffInitial: MediaTime(value: 3, timescale: 1), backoffCap: MediaTime(value: 1, timescale: 1))
        #expect(policy.quickAttempts == 1)
        #expect(policy.isBackingOff(afterFailures: 1))
        #expect(policy.delay(afterFailures: 1) == MediaTime(value: 3, timescale: 1))
        #expect(policy.delay(afterFailures: 5) == MediaTime(value: 3, timescale: 1))
    }

    @Test func nonPowerOfTwoCapIsReachedExactly() {
        let policy = RetryPolicy(quickDelays: [MediaTime(value: 1, timescale: 10)], backoffInitial: MediaTime(value: 1, timescale: 1), backoffCap: MediaTime(value: 5, timescale: 1))
        #expect((1...6).map { policy.delay(afterFailures: $0).seconds } == [0.1, 1, 2, 4, 5, 5])
    }
}
