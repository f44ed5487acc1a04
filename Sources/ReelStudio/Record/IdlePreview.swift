import Foundation
import ReelCore
import ReelMedia
import ReelRuntime

/// The preview while nothing records: the chosen source opened for the preview alone, its
/// frames offered to ``PreviewBranch``es (the record page's one; the overlay camera's
/// unfiltered and filtered ones, branches of the one capture). A recording takes the source over (this stops first,
/// so a camera is never opened twice); when it ends, a new idle preview starts.
final class IdlePreview: Sendable {
    let source: SourceSpec
    /// The open source; `stopped` once ``stop()`` was called (a source still opening then
    /// is stopped as soon as it opens).
    private let capture: Locked<(source: (any CaptureSource)?, stopped: Bool)>
    private let branches: [PreviewBranch]
    private let thread: WorkerThread
    /// Why the source could not be opened or stopped delivering (nil: it delivers).
    let failure: Locked<String?>

    /// Opens `source` on a capture thread, offering its frames to `branches`, and showing each
    /// to `tap` (a barcode scan, a shutter; it must be quick, it runs on the capture thread).
    /// `shape` gives the picture offered for each frame (the cinematic camera's copy with the
    /// blur; nil offers nothing), on the capture thread too.
    init(source: SourceSpec, branches: [PreviewBranch], open: @escaping @Sendable (SourceSpec) throws -> any CaptureSource,
         shape: @escaping @Sendable (VideoFrame) -> VideoFrame? = { $0 }, tap: @escaping @Sendable (VideoFrame) -> Void = { _ in }) {
        self.source = source
        self.branches = branches
        let capture = Locked<(source: (any CaptureSource)?, stopped: Bool)>((nil, false)), failure = Locked<String?>(nil)
        self.capture = capture
        self.failure = failure
        for branch in branches { branch.start() }
        thread = WorkerThread.run(name: "reel.studio.preview") {
            do {
                let opened = try open(source)
                capture.withLock { state in
                    state.source = opened
                    if state.stopped { opened.stop() }
                }
                try opened.run { sample in
                    if case .video(let captured) = sample, let frame = shape(captured) {
                        for branch in branches { branch.offer(frame) }
                        tap(frame)
                    }
                }
                if !capture.withLock({ $0.stopped }) { failure.withLock { $0 = "the source ended" } }
            } catch {
                failure.withLock { $0 = "\(error)" }
            }
        }
    }

    /// Whether the capture has ended (stopped, failed or the source ended).
    var hasEnded: Bool { thread.isFinished }

    /// Stops the capture and waits until the source is closed.
    func stop() {
        capture.withLock { state -> (any CaptureSource)? in
            state.stopped = true
            return state.source
        }?.stop()
        thread.join()
        for branch in branches { branch.stop() }
    }
}
