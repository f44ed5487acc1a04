import Foundation

/// A count of things under way (requests in flight, uploads) that a stopping owner can wait on:
/// ``wait(untilZeroOr:)`` is woken by the last ``leave()``, never by polling.
public final class InFlightCounter: @unchecked Sendable {
    // @unchecked: `count` is only touched with `condition` held.
    private let condition = NSCondition()
    private var count = 0

    /// A counter at zero.
    public init() {}

    /// How many are under way now.
    public var value: Int { condition.withLock { count } }

    /// One more under way.
    public func enter() { condition.withLock { count += 1 } }

    /// One fewer under way; the last one wakes the waiters.
    public func leave() {
        condition.withLock {
            count -= 1
            if count <= 0 { condition.broadcast() }
        }
    }

    /// Waits until nothing is under way or `seconds` have passed; true when nothing is.
    @discardableResult
    public func wait(untilZeroOr seconds: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: seconds)
        return condition.withLock {
            while count > 0 {
                if !condition.wait(until: deadline) { return count <= 0 }
            }
            return true
        }
    }
}
