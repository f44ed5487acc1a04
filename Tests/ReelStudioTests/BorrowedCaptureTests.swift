import Foundation
import ReelCore
@testable import ReelStudio
import Testing

/// The borrowed capture's lifecycle (``BorrowedCapture``): borrowed when wanted, given back
/// when not wanted any more or when the capture ends, tried again no sooner than the delay, one
/// borrower at a time. The lender, the capture and the clock are stand-ins: no source, no thread.
@Suite("Studio borrowed capture")
struct BorrowedCaptureTests {
    /// Lends one source to one borrower at a time, as the record page's camera does.
    final class Lender: SourceLender {
        let lent = Guarded<StudioCamera.Borrower?>(nil)
        let loans = Guarded(0), returns = Guarded(0)
        let refusal = Guarded<String?>(nil)

        func borrow(for borrower: StudioCamera.Borrower) throws(StudioRefusal) -> (text: String, spec: SourceSpec) {
            try lent.withLock { lent throws(StudioRefusal) in
                if let reason = refusal.withLock({ $0 }) { throw StudioRefusal(status: 409, message: reason) }
                if let holder = lent { throw StudioRefusal(status: 409, message: "lent to \(holder)") }
                lent = borrower
            }
            loans.withLock { $0 += 1 }
            return ("test", .test(width: 320, height: 180, framesPerSecond: 15))
        }

        func giveBack(by borrower: StudioCamera.Borrower) {
            lent.withLock { if $0 == borrower { $0 = nil } }
            returns.withLock { $0 += 1 }
        }
    }

    final class Run: BorrowedRun {
        let ended = Guarded(false), stopped = Guarded(false)
        var hasEnded: Bool { ended.withLock { $0 } }
        var failureReason: String? { hasEnded ? "the camera was unplugged" : nil }
        func stop() { stopped.withLock { $0 = true } }
    }

    /// Records what the component told it.
    final class View: CaptureBorrower {
        let steps = Guarded<[String]>([])
        let runs = Guarded<[Run]>([])

        func capture(_ source: SourceSpec) -> any BorrowedRun {
            let run = Run()
            runs.withLock { $0.append(run) }
            return run
        }

        func captureStarted(source: String) { steps.withLock { $0.append("started \(source)") } }
        func captureStopped(problem: String?) { steps.withLock { $0.append("stopped" + (problem.map { ": \($0)" } ?? "")) } }
        func borrowRefused(_ problem: String) { steps.withLock { $0.append("refused: \(problem)") } }
        var said: [String] { steps.withLock { $0 } }
        var last: Run? { runs.withLock { $0.last } }
    }

    /// A clock the test moves.
    final class Clock: Sendable {
        let time = Guarded(Date(timeIntervalSince1970: 1_000))
        func advance(_ seconds: TimeInterval) { time.withLock { $0 += seconds } }
    }

    @Test("borrowed once while wanted, given back when not wanted any more")
    func borrowAndGiveBack() throws {
        let lender = Lender(), view = View()
        let borrowed = BorrowedCapture(.overlay, from: lender)
        borrowed.step(wanted: { false }, for: view)
        #expect(view.said.isEmpty && lender.loans.withLock { $0 } == 0, "nothing borrowed while nobody wants it")
        borrowed.step(wanted: { true }, for: view)
        borrowed.step(wanted: { true }, for: view)
        #expect(view.said == ["started test"] && lender.loans.withLock { $0 } == 1 && borrowed.isRunning, "one capture, one loan")
        #expect(lender.lent.withLock { $0 } == .overlay)
        borrowed.step(wanted: { false }, for: view)
        #expect(view.said == ["started test", "stopped"])
        #expect(try #require(view.last).stopped.withLock { $0 } && !borrowed.isRunning)
        #expect(lender.lent.withLock { $0 } == nil && lender.returns.withLock { $0 } == 1)
    }

    @Test("a capture that ended is stopped and given back with its reason, and tried again only after the delay")
    func endedCaptureRetries() throws {
        let lender = Lender(), view = View(), clock = Clock()
        let borrowed = BorrowedCapture(.cinematic, from: lender, retryDelay: 2, now: { clock.time.withLock { $0 } })
        borrowed.step(wanted: { true }, for: view)
        try #require(view.last).ended.withLock { $0 = true }
        borrowed.step(wanted: { true }, for: view)
        #expect(view.said == ["started test", "stopped: the camera was unplugged"])
        #expect(lender.lent.withLock { $0 } == nil && !borrowed.isRunning, "given back at once")
        clock.advance(1.9)
        borrowed.step(wanted: { true }, for: view)
        #expect(lender.loans.withLock { $0 } == 1, "not again before the delay")
        clock.advance(0.1)
        borrowed.step(wanted: { true }, for: view)
        #expect(lender.loans.withLock { $0 } == 2 && view.said.last == "started test" && borrowed.isRunning)
    }

    @Test("a refused loan is said and tried again only after the delay; the capture is never opened meanwhile")
    func refusedLoanRetries() {
        let lender = Lender(), view = View(), clock = Clock()
        lender.refusal.withLock { $0 = "a recording is running" }
        let borrowed = BorrowedCapture(.overlay, from: lender, retryDelay: 2, now: { clock.time.withLock { $0 } })
        borrowed.step(wanted: { true }, for: view)
        borrowed.step(wanted: { true }, for: view)
        #expect(view.said == ["refused: a recording is running"] && view.runs.withLock { $0.isEmpty })
        lender.refusal.withLock { $0 = nil }
        clock.advance(2)
        borrowed.step(wanted: { true }, for: view)
        #expect(view.said.last == "started test" && lender.returns.withLock { $0 } == 0)
    }

    @Test("two views on one source: never both borrow; the second gets it once the first gives it back")
    func oneBorrowerAtATime() {
        let lender = Lender(), overlayView = View(), cinematicView = View(), clock = Clock()
        let overlay = BorrowedCapture(.overlay, from: lender, now: { clock.time.withLock { $0 } })
        let cinematic = BorrowedCapture(.cinematic, from: lender, now: { clock.time.withLock { $0 } })
        overlay.step(wanted: { true }, for: overlayView)
        cinematic.step(wanted: { true }, for: cinematicView)
        #expect(overlay.isRunning && !cinematic.isRunning)
        #expect(cinematicView.said == ["refused: lent to overlay"])
        overlay.step(wanted: { false }, for: overlayView)
        clock.advance(2)
        cinematic.step(wanted: { true }, for: cinematicView)
        #expect(cinematic.isRunning && lender.lent.withLock { $0 } == .cinematic)
        overlay.step(wanted: { true }, for: overlayView)
        #expect(!overlay.isRunning && overlayView.said.last == "refused: lent to cinematic")
    }
}

/// A value behind a lock, for the stand-ins above (the test target does not import ReelRuntime).
final class Guarded<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<Result, Failure: Error>(_ body: (inout Value) throws(Failure) -> Result) throws(Failure) -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
