import Foundation
import Testing

/// The test tiers. `make test` runs the default tier: every rule, edge and failure path, the
/// pure and in-process suites in parallel, then the suites that need the machine one at a time
/// (Tests/serial-suites.txt; docs/testing.md). `make test-long` also runs the long tier
/// (`REEL_TEST_LONG=1`): the long real-time acceptance runs and the repeats of an acceptance at
/// another size, which take minutes and add no rule that the default tier lacks.
public enum TestTier {
    /// Whether the long tier runs.
    public static let long = ProcessInfo.processInfo.environment["REEL_TEST_LONG"] == "1"
    /// Why a long-tier test did not run.
    public static let reason = "long tier: run make test-long (REEL_TEST_LONG=1)"
}

extension Trait where Self == ConditionTrait {
    /// Runs the test only in the long tier (`make test-long`); the default tier reports it as
    /// skipped with ``TestTier/reason``.
    public static var longTier: Self { .enabled(if: TestTier.long, Comment(rawValue: TestTier.reason)) }
}
