import Foundation

/// A thread running a throwing body once, observable from async code: a capture loop or a
/// writer that must keep its own thread (blocking I/O, FFmpeg pointers owned by one thread)
/// while the caller polls or waits for it.
public final class WorkerThread: Sendable {
    private let state = NSLockedValue<(finished: Bool, error: (any Error)?)>((false, nil))

    /// Whether the body has returned or thrown.
    public var isFinished: Bool { state.read { $0.finished } }
    /// What the body threw, once finished.
    public var error: (any Error)? { state.read { $0.error } }

    /// Starts `body` on a new thread named `name` (4 MiB stack).
    public static func run(name: String, _ body: @escaping @Sendable () throws -> Void) -> WorkerThread {
        let handle = WorkerThread()
        let thread = Thread {
            var failure: (any Error)?
            do { try body() } catch { failure = error }
            handle.state.write { $0 = (true, failure) }
        }
        thread.name = name
        thread.stackSize = 4 << 20
        thread.start()
        return handle
    }

    /// Waits (polling every 20 ms) until the body has finished.
    public func wait() async {
        while !isFinished { try? await Task.sleep(for: .milliseconds(20)) }
    }
}

/// A value behind an `NSLock` (Foundation only, for ReelCore).
/// `@unchecked Sendable`: the value is only reached through `lock`.
final class NSLockedValue<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func read<T>(_ body: (Value) -> T) -> T { lock.withLock { body(value) } }
    func write(_ body: (inout Value) -> Void) { lock.withLock { body(&value) } }
}
