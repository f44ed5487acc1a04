import Foundation

/// Hands the next value a producer offers to the threads waiting for one, and keeps nothing
/// otherwise: a shutter waiting for a camera's next picture (the picture is not held, or even
/// made, unless a shot waits).
public final class HandOff<Value>: @unchecked Sendable {
    // Every field is touched only with `condition` held.
    private let condition = NSCondition()
    private var waiting = 0
    private var value: Value?
    private var generation = 0

    public init() {}

    /// Whether a thread waits now (a producer can skip making the value otherwise).
    public var isWaited: Bool { condition.withLock { waiting > 0 } }

    /// Offers a value (from the producer's thread); made and kept only while a thread waits.
    public func offer(_ make: () throws -> Value) rethrows {
        try condition.withLock {
            guard waiting > 0 else { return }
            value = try make()
            generation += 1
            condition.broadcast()
        }
    }

    /// The first value offered after this call, or nil after `timeout` seconds.
    public func next(timeout: Double) -> Value? {
        condition.withLock {
            waiting += 1
            defer {
                waiting -= 1
                if waiting == 0 { value = nil }
            }
            let start = generation, deadline = Date(timeIntervalSinceNow: timeout)
            while generation == start {
                if !condition.wait(until: deadline) { break }
            }
            return generation == start ? nil : value
        }
    }
}
