import Foundation
import ReelCore
import ReelRuntime

/// A capture a view runs on its own (its ``IdlePreview``): what ``BorrowedCapture`` stops.
protocol BorrowedRun: Sendable {
    /// Whether it ended by itself (the source failed, vanished or ran out).
    var hasEnded: Bool { get }
    /// Why it ended, when it said.
    var failureReason: String? { get }
    /// Stops it and waits for its thread.
    func stop()
}

extension IdlePreview: BorrowedRun {
    var failureReason: String? { failure.withLock { $0 } }
}

/// Who lends the chosen source: the record page's camera (``StudioCamera``), one borrower at a time.
protocol SourceLender: Sendable {
    /// The chosen source, lent to `borrower`; refused while it is busy or lent already.
    func borrow(for borrower: StudioCamera.Borrower) throws(StudioRefusal) -> (text: String, spec: SourceSpec)
    /// `borrower` has stopped with the source.
    func giveBack(by borrower: StudioCamera.Borrower)
}

extension StudioCamera: SourceLender {
    func borrow(for borrower: Borrower) throws(StudioRefusal) -> (text: String, spec: SourceSpec) {
        let source = try liveSource(nil)
        try lend(source.text, to: borrower)
        return source
    }

    func giveBack(by borrower: Borrower) { returned(by: borrower) }
}

/// What a view does at each step of its borrowed capture (the overlay camera, the cinematic camera).
protocol CaptureBorrower: Sendable {
    /// Opens the capture of the borrowed `source`.
    func capture(_ source: SourceSpec) -> any BorrowedRun
    /// The capture of `source` runs.
    func captureStarted(source: String)
    /// The capture stopped and the source went back: `problem` says why when it ended by itself
    /// (nil when it was no longer wanted).
    func captureStopped(problem: String?)
    /// The source could not be borrowed (none chosen, busy, lent to another); tried again
    /// after ``BorrowedCapture/retryDelay``.
    func borrowRefused(_ problem: String)
}

/// The record page's source borrowed for a view's own capture while the view wants it, and
/// given back when it no longer does or the capture ends: one lifecycle for the overlay and the
/// cinematic camera. A capture that ended or a loan that was refused is tried again no sooner
/// than ``retryDelay`` later, so a source that keeps failing costs one attempt per delay; one
/// view holds at most one capture, and the lender lends to one borrower at a time.
final class BorrowedCapture: Sendable {
    private struct State {
        var run: (any BorrowedRun)?
        /// No new loan before this (after a capture ended or a loan was refused).
        var retry: Date?
    }

    /// The wait before borrowing again after a failure.
    let retryDelay: TimeInterval
    let borrower: StudioCamera.Borrower
    private let lender: any SourceLender
    private let now: @Sendable () -> Date
    private let state = Locked(State())
    /// One step at a time (a step may stop a capture and wait for it).
    private let stepping = NSLock()

    init(_ borrower: StudioCamera.Borrower, from lender: any SourceLender, retryDelay: TimeInterval = 2,
         now: @escaping @Sendable () -> Date = { Date() }) {
        self.borrower = borrower
        self.lender = lender
        self.retryDelay = retryDelay
        self.now = now
    }

    /// Whether a capture runs on the borrowed source.
    var isRunning: Bool { state.withLock { $0.run != nil } }

    /// One step: a capture that is not `wanted` any more, or that ended, is stopped and its
    /// source given back; then, when `wanted` and no failure is too recent, the source is
    /// borrowed and `view` opens a capture of it. `wanted` is read inside the step.
    func step(wanted: () -> Bool, for view: some CaptureBorrower) {
        stepping.withLock {
            let wanted = wanted()
            let stale = state.withLock { state -> (run: any BorrowedRun, problem: String?)? in
                guard let run = state.run, !wanted || run.hasEnded else { return nil }
                state.run = nil
                guard run.hasEnded else { return (run, nil) }
                state.retry = now().addingTimeInterval(retryDelay)
                return (run, run.failureReason ?? "the source ended")
            }
            if let stale {
                stale.run.stop()
                lender.giveBack(by: borrower)
                view.captureStopped(problem: stale.problem)
            }
            guard wanted, state.withLock({ state in state.run == nil && state.retry.map { now() >= $0 } ?? true }) else { return }
            let source: (text: String, spec: SourceSpec)
            do throws(StudioRefusal) { source = try lender.borrow(for: borrower) } catch {
                state.withLock { $0.retry = now().addingTimeInterval(retryDelay) }
                view.borrowRefused(error.message)
                return
            }
            let run = view.capture(source.spec)
            state.withLock { $0.run = run }
            view.captureStarted(source: source.text)
        }
    }

    /// Stops the running capture (its source given back, no failure) and, when still `wanted`,
    /// opens a new one at once: for a view whose capture must be built anew (the overlay
    /// camera's frame shape changed). Not to be called from the capture's own thread.
    func restart(wanted: () -> Bool, for view: some CaptureBorrower) {
        step(wanted: { false }, for: view)
        step(wanted: wanted, for: view)
    }
}
