import Foundation

/// The test tiers. `make test` runs the default tier (every rule, edge and failure path; about
/// 20 minutes here); `make test-long` also runs the long tier (`REEL_TEST_LONG=1`): repeats of
/// an acceptance at another size, which take minutes and add no rule the default tier lacks.
public enum TestTier {
    /// Whether the long tier runs.
    public static let long = ProcessInfo.processInfo.environment["REEL_TEST_LONG"] == "1"
    /// Why a long-tier test did not run.
    public static let reason = "long tier: run make test-long (REEL_TEST_LONG=1)"
}
