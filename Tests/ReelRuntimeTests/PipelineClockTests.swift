import Foundation
import ReelCore
import Synchronization
import ReelTestSupport
import Testing
@testable import ReelRuntime

@Suite("Pipeline clocks and threads")
struct PipelineClockTests {
    @Test("a virtual clock runs due ticks on the thread that moves it, in time order, each at its own time")
    func virtualTicks() {
        let clock = VirtualClock(start: MediaTime(seconds: 10))
        let seen = Locked<[String]>([])
        let fast = clock.every(MediaTime(seconds: 0.1), name: "fast") { now in seen.withLock { $0.append("f\(now.seconds.formattedShort)") } }
        let slow = clock.every(MediaTime(seconds: 0.25), name: "slow") { now in seen.withLock { $0.append("s\(now.seconds.formattedShort)") } }
        clock.sleep(until: MediaTime(seconds: 10.5))
        #expect(seen.withLock { $0 } == ["f10.1", "f10.2", "s10.25", "f10.3", "f10.4", "f10.5", "s10.5"])
        #expect(clock.now() == MediaTime(seconds: 10.5))
        slow.stop()
        seen.withLock { $0 = [] }
        clock.advance(by: MediaTime(seconds: 0.2))
        #expect(seen.withLock { $0 } == ["f10.6", "f10.7"])
        fast.stop()
        clock.advance(by: MediaTime(seconds: 1))
        #expect(seen.withLock { $0 } == ["f10.6", "f10.7"], "a stopped ticker never ticks again")
        clock.advance(to: MediaTime(seconds: 1))
        #expect(clock.now() == MediaTime(seconds: 11.7), "time never goes back")
    }

    @Test("a tick that sleeps moves the time further and the ticks it passes run too, without deadlock")
    func tickThatSleeps() {
        let clock = VirtualClock()
        let times = Locked<[Double]>([])
        let ticker = clock.every(MediaTime(seconds: 1), name: "t") { now in
            times.withLock { $0.append(now.seconds) }
            if now == MediaTime(seconds: 1) { clock.sleep(until: MediaTime(seconds: 2.5)) }
        }
        clock.advance(to: MediaTime(seconds: 3))
        ticker.stop()
        #expect(times.withLock { $0 } == [1, 2, 3])
    }

    @Test("a real clock's ticker ticks about every period and stops at once when asked (no waiting out the period)")
    func realTicker() async throws {
        let clock = RealClock()
        let count = Atomic<Int>(0)
        let ticker = clock.every(MediaTime(seconds: 0.02), name: "test.tick") { _ in count.add(1, ordering: .relaxed) }
        _ = try await eventually("three ticks") { count.load(ordering: .relaxed) >= 3 ? true : nil }
        let slow = clock.every(MediaTime(seconds: 3600), name: "test.hour") { _ in Issue.record("an hour cannot have passed") }
        let before = clock.now()
        slow.stop()
        ticker.stop()
        #expect((clock.now() - before).seconds < 1, "stop wakes the ticker's thread instead of waiting out its period")
        let after = count.load(ordering: .relaxed)
        // Real time passing is the scenario: three periods in which a tick must not come.
        try await Task.sleep(for: .milliseconds(60))
        #expect(count.load(ordering: .relaxed) == after, "no tick after stop returned")
    }

    /// What a tick captures, to see when it is released.
    final class Held: Sendable {}

    @Test("a stopped real ticker lets go of its tick and what the tick holds (a recorder, its encoder and the encoder's threads)")
    func aStoppedTickerReleasesItsTick() async throws {
        weak var weakHeld: Held?
        weak var weakTicker: AnyObject?
        do {
            let held = Held()
            weakHeld = held
            let ticks = Atomic<Int>(0)
            let ticker = RealClock().every(MediaTime(seconds: 0.01), name: "test.release") { _ in _ = held; ticks.add(1, ordering: .relaxed) }
            weakTicker = ticker as AnyObject
            _ = try await eventually("two ticks") { ticks.load(ordering: .relaxed) >= 2 ? true : nil }
            ticker.stop()
            ticker.stop()  // a second stop returns at once
        }
        // The ticker's thread lets go of it as it ends; Foundation drops the thread right after.
        _ = try await eventually("the stopped ticker and its tick's captures released") { weakHeld == nil && weakTicker == nil ? true : nil }
    }

    @Test("a worker thread is waited for by async code and joined by threads, with its error")
    func workerThread() async {
        struct Boom: Error {}
        let gate = DispatchSemaphore(value: 0)
        let worker = WorkerThread.run(name: "test.worker") {
            gate.wait()
            throw Boom()
        }
        #expect(!worker.isFinished)
        let waiter = Task { await worker.wait(); return worker.error is Boom }
        gate.signal()
        #expect(await waiter.value)
        worker.join()
        worker.join()
        await worker.wait()
        #expect(worker.isFinished)
    }

    @Test("a stop signal keeps the first reason and runs its handlers once, also those registered late")
    func stopSignal() {
        let signal = StopSignal()
        let calls = Locked<[String]>([])
        signal.onStop { reason in calls.withLock { $0.append("a:" + reason) } }
        #expect(!signal.isRequested)
        #expect(signal.request("key"))
        #expect(!signal.request("signal"))
        signal.onStop { reason in calls.withLock { $0.append("b:" + reason) } }
        #expect(signal.reason == "key")
        #expect(calls.withLock { $0 } == ["a:key", "b:key"])
    }
}
