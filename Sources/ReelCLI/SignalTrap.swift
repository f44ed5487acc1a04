import Dispatch
import Foundation

/// Turns SIGINT/SIGTERM (and friends) into a callback on a dispatch queue instead of the
/// default "die at once", so commands can stop cleanly. A second signal of the same kind
/// restores the default action, so a stuck shutdown can still be interrupted — unless
/// `escalates` is false (a signal that means "toggle", such as SIGUSR1, calls the handler
/// every time). `beforeEscalating` runs just before that default action (on the trap's queue,
/// not in a signal handler): the last chance to remove temporary files.
/// `@unchecked Sendable`: its dispatch sources are made in `init` and cancelled by the owner; the handlers run on its one serial queue.
final class SignalTrap: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "reel.signals")

    init(signals: [Int32], escalates: Bool = true, beforeEscalating: (@Sendable () -> Void)? = nil,
         handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            var seen = false
            source.setEventHandler {
                if seen && escalates {
                    beforeEscalating?()
                    signal(number, SIG_DFL)
                    kill(getpid(), number)
                    return
                }
                seen = true
                handler(number)
            }
            source.resume()
            sources.append(source)
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
        sources.removeAll()
    }

    /// For a server command: waits for SIGINT or SIGTERM, then runs `stop` with it while the
    /// trap is still in place (a second Ctrl-C during a stuck stop ends the process).
    static func serveUntilStopped(_ stop: (Int32) async -> Void) async {
        let stopped = AsyncStream<Int32>.makeStream()
        let trap = SignalTrap(signals: [SIGINT, SIGTERM]) { signal in stopped.continuation.yield(signal) }
        defer { trap.cancel() }
        var received: Int32 = SIGTERM
        for await signal in stopped.stream {
            received = signal
            break
        }
        await stop(received)
    }
}
