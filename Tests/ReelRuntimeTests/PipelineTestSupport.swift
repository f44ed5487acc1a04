import Foundation
@testable import ReelRuntime

/// A queue item that is a video frame (droppable) or an audio block (not), with a byte cost.
struct TestSample: DroppableElement, Equatable, CustomStringConvertible {
    var id: Int
    var isDroppable: Bool
    var byteCost = 0
    static func video(_ id: Int, bytes: Int = 0) -> TestSample { TestSample(id: id, isDroppable: true, byteCost: bytes) }
    static func audio(_ id: Int, bytes: Int = 0) -> TestSample { TestSample(id: id, isDroppable: false, byteCost: bytes) }
    var description: String { "\(isDroppable ? "v" : "a")\(id)" }
}

/// A list appended to from other threads (NSLock rather than `Mutex`, whose Linux futex
/// hand-off ThreadSanitizer cannot see).
final class LockedList<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []  // guarded by `lock`
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var values: [Value] { lock.withLock { storage } }
    var count: Int { lock.withLock { storage.count } }
}

/// A gate threads wait at until it is opened (once, for everyone).
final class Gate: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false  // guarded by `condition`
    func wait() {
        condition.lock()
        while !isOpen { condition.wait() }
        condition.unlock()
    }
    func open() {
        condition.lock()
        isOpen = true
        condition.broadcast()
        condition.unlock()
    }
}

/// A thread running `body`, which can be joined with a generous deadline so a bug fails
/// the test instead of hanging it.
final class TestThread: Sendable {
    private let finished = DispatchSemaphore(value: 0)
    init(_ body: @escaping @Sendable () -> Void) {
        let finished = self.finished
        Thread {
            body()
            finished.signal()
        }.start()
    }
    /// Whether the thread ended within `seconds` (10 s: only a hang exceeds it).
    func join(within seconds: Double = 10) -> Bool {
        finished.wait(timeout: .now() + seconds) == .success
    }
    /// Whether the thread has already ended, without waiting.
    var hasFinished: Bool {
        guard finished.wait(timeout: .now()) == .success else { return false }
        finished.signal()
        return true
    }
}

/// Polls `condition` until it holds; false only if it never does within `seconds` (a bug).
/// This waits for a state, it never asserts on how long anything took.
func eventually(within seconds: Double = 10, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while !condition() {
        if Date() > deadline { return false }
        usleep(100)
    }
    return true
}
