import Foundation

/// Waits for an event instead of for a time: polls `probe` every 20 ms until it gives a value,
/// for at most `seconds` (a bound, so a broken component fails the test instead of hanging it;
/// never a window the event must fall into). Throws a failure naming `what` when it never came.
public func eventually<T>(_ what: String, within seconds: Double = 15, _ probe: () -> T?) async throws -> T {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if let value = probe() { return value }
        try await Task.sleep(for: .milliseconds(20))
    }
    if let value = probe() { return value }
    throw EventNeverCame(description: "\(what) never came in \(seconds.formatted()) s")
}

/// What ``eventually(_:within:_:)`` throws.
public struct EventNeverCame: Error, CustomStringConvertible {
    public let description: String
}
