import Foundation

/// Runs `body`, which blocks (curl, a socket exchange), on a thread of its own and awaits its
/// result. Blocking calls on the concurrency pool's few threads would starve the test's own
/// awaits (a sleep, the next PUT) while they wait — with a held request, for seconds.
public func onItsOwnThread<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        Thread { continuation.resume(with: Result { try body() }) }.start()
    }
}
