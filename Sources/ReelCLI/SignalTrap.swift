import Dispatch
import Foundation

/// Turns SIGINT/SIGTERM (and friends) into a callback on a dispatch queue instead of the
/// default "die at once", so commands can stop cleanly. A second signal of the same kind
/// restores the default action, so a stuck shutdown can still be interrupted — unless
/// `escalates` is false (a signal that means "toggle", such as SIGUSR1, calls the handler
/// every time).
final class SignalTrap: @unchecked Sendable {
    private var sources: [DispatchSourceSignal] = []
    private let queue = DispatchQueue(label: "reel.signals")

    init(signals: [Int32], escalates: Bool = true, handler: @escaping @Sendable (Int32) -> Void) {
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            var seen = false
            source.setEventHandler {
                if seen && escalates {
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
}
