import Foundation
import ReelCore
import ReelMaterials
import ReelMedia
import ReelRecord
import ReelRuntime

/// The record page's camera: the chosen source, its live preview, and the recording, one at a
/// time. The recording is a ``StudyRecorder``, the one `reel record` runs, with the preview as
/// a branch of its capture that drops freely (``PreviewBranch``); while nothing records, an
/// ``IdlePreview`` feeds the same ``PreviewFeed``, and only while someone watches.
///
/// A browser is only a window on it: closing a tab, or every tab, changes nothing; a second
/// tab sees the same state (the `recording` and `camera` events).
final class StudioCamera: Sendable {
    private struct State {
        var sourceText: String?
        var source: SourceSpec?
        /// The shape of the preview: the canvas of the last recording started (or 1920x1080).
        var canvas = VideoDimensions(width: 1920, height: 1080)
        var idle: IdlePreview?
        /// No new idle preview before this (after one failed to open or ended).
        var idleRetry: Date?
        var recorder: StudyRecorder?
        var reporter: StudioRecordReporter?
        /// The recording's run (the last one's, once it ended).
        var run: Task<Void, Never>?
        var last = RecordingSnapshot()
        var closed = false
        /// A barcode scan watching the idle preview's frames, and its end signal.
        var scan: (watcher: BarcodeWatcher, done: DispatchSemaphore)?
        /// The source lent to a live stream or the overlay camera (``lend(_:to:)``): no
        /// preview here, no recording.
        var lent: (source: String, to: Borrower)?

        /// Why the source cannot be taken now (a recording, a live stream or the overlay camera
        /// has it), or nil.
        var busy: String? {
            if recorder != nil { return "a recording is running" }
            if let lent { return lent.to.busy(lent.source) }
            return nil
        }
    }

    let feed = PreviewFeed()
    private let state = Locked(State())
    private let settings: StudioSettings
    private let events: StudioEvents

    init(settings: StudioSettings, events: StudioEvents) {
        self.settings = settings
        self.events = events
        if let text = settings.source, let spec = try? SourceSpec(parsing: text) {
            state.withLock { $0.sourceText = text; $0.source = spec }
        }
    }

    /// The recording's state now (the last one's, when none runs).
    var recording: RecordingSnapshot {
        state.withLock { $0.reporter?.current ?? $0.last }
    }

    /// The source and the preview now.
    var camera: CameraSnapshot {
        let (text, idle, recording, lent) = state.withLock { ($0.sourceText, $0.idle, $0.recorder != nil, $0.lent) }
        let problem = lent.map { $0.to.away($0.source) }
            ?? (recording ? nil : idle?.failure.withLock { $0 })
        return CameraSnapshot(source: text, previewing: recording || (idle.map { !$0.hasEnded } ?? false),
                              problem: problem, watchers: feed.watcherCount, busy: lent.map { $0.to.busy($0.source) })
    }

    // MARK: Source

    /// Chooses the source to preview and record from (refused while recording).
    func choose(_ text: String) throws(StudioRefusal) {
        let spec = try Self.parse(text)
        let old = try state.withLock { state throws(StudioRefusal) -> IdlePreview? in
            if let busy = state.busy { throw StudioRefusal(status: 409, message: busy + "; stop it before choosing another source") }
            state.sourceText = text
            state.source = spec
            state.idleRetry = nil
            defer { state.idle = nil }
            return state.idle
        }
        old?.stop()
        publishCamera()
    }

    /// A source as the API takes it: `test[:WxH[@FPS]]`, `file:/ABSOLUTE/PATH`, `v4l2:/dev/videoN`.
    static func parse(_ text: String) throws(StudioRefusal) -> SourceSpec {
        let spec: SourceSpec
        do { spec = try SourceSpec(parsing: text) } catch {
            throw StudioRefusal(status: 400, message: "source: \(error)")
        }
        if case .file(let path) = spec {
            guard path.hasPrefix("/") else { throw StudioRefusal(status: 400, message: "source: a file must be given by its absolute path (file:/…)") }
            guard FileManager.default.isReadableFile(atPath: path) else { throw StudioRefusal(status: 400, message: "source: \(path) does not exist or cannot be read") }
            try probe(path)
        }
        return spec
    }

    /// Opens a video file with the demuxer and decoder a recording would use and decodes its
    /// first picture; refused (400) with the reason when it is no media file, has no video
    /// stream, or no picture of it decodes.
    static func probe(_ path: String) throws(StudioRefusal) {
        func refusal(_ reason: String) -> StudioRefusal {
            StudioRefusal(status: 400, message: "source: \(path) is not a video Reel can record: \(reason)")
        }
        struct Seen: Error {}
        let source: any CaptureSource
        do { source = try CaptureSources.open(.file(path: path), realTime: false) } catch let error as CaptureError {
            throw refusal(error.reason)
        } catch {
            throw refusal("\(error)")
        }
        do {
            try source.run { sample in if case .video = sample { throw Seen() } }
        } catch is Seen {
            return
        } catch let error as CaptureError {
            throw refusal(error.reason)
        } catch {
            throw refusal("\(error)")
        }
        throw refusal("no picture in it could be decoded")
    }

    /// Starts or stops the idle preview: it runs while someone watches and nothing records; a
    /// source that failed is tried again after 2 s. Called every status tick.
    func tick() {
        let (stale, started) = state.withLock { state -> (IdlePreview?, Bool) in
            let wanted = !state.closed && state.busy == nil && state.source != nil && (feed.watcherCount > 0 || state.scan != nil)
            if let idle = state.idle, !wanted || idle.hasEnded {
                if idle.hasEnded { state.idleRetry = Date(timeIntervalSinceNow: 2) }
                state.idle = nil
                return (idle, false)
            }
            guard wanted, state.idle == nil, let source = state.source, state.idleRetry.map({ Date() >= $0 }) ?? true else { return (nil, false) }
            let size = PreviewBranch.size(for: state.canvas)
            state.idle = IdlePreview(source: source, branches: [PreviewBranch(feed: feed, width: size.width, height: size.height)],
                                     open: settings.openSource, tap: { [weak self] frame in self?.scanTap(frame) })
            return (nil, true)
        }
        stale?.stop()
        if stale != nil || started { publishCamera() }
    }

    // MARK: Barcode

    /// Looks for a book's barcode in the chosen source's picture (the idle preview's frames,
    /// about 5 a second) until one shows or `timeout` seconds pass; what was seen. Refused
    /// while recording (the recording's capture is not slowed for this) or with no source.
    func scanBarcode(timeout: Double) throws(StudioRefusal) -> BarcodeScan.Found {
        let watcher: BarcodeWatcher
        do { watcher = try BarcodeWatcher() } catch { throw StudioRefusal(status: 500, message: "the barcode reader could not start: \(error)") }
        let done = DispatchSemaphore(value: 0)
        try state.withLock { state throws(StudioRefusal) in
            guard !state.closed else { throw StudioRefusal(status: 503, message: "the studio is stopping") }
            if let busy = state.busy { throw StudioRefusal(status: 409, message: busy + "; scan when it has stopped") }
            guard state.source != nil else { throw StudioRefusal(status: 409, message: "no source chosen: choose the camera on the record page first") }
            guard state.scan == nil else { throw StudioRefusal(status: 409, message: "a scan is running already") }
            state.scan = (watcher, done)
        }
        tick()
        _ = done.wait(timeout: .now() + timeout)
        state.withLock { $0.scan = nil }
        tick()
        return watcher.found
    }

    /// A frame of the idle preview, shown to the scan when one runs.
    private func scanTap(_ frame: VideoFrame) {
        guard let scan = state.withLock({ $0.scan }) else { return }
        if (try? scan.watcher.look(at: frame))?.isbn != nil { scan.done.signal() }
    }

    /// Why the preview has no picture now (for a scan that saw nothing).
    var problem: String? { camera.problem }

    // MARK: Recording

    /// Starts a recording of `request` (the idle preview hands the source over first).
    func start(_ request: RecordRequest) throws(StudioRefusal) -> RecordingSnapshot {
        // A file given here is probed before the state is locked (that takes a moment).
        var given: (String, SourceSpec)?
        if let text = request.source { given = (text, try Self.parse(text)) }
        let (sourceText, source) = try state.withLock { state throws(StudioRefusal) -> (String, SourceSpec) in
            guard !state.closed else { throw StudioRefusal(status: 503, message: "the studio is stopping") }
            if let busy = state.busy { throw StudioRefusal(status: 409, message: busy + "; stop it first") }
            if let given { return given }
            guard let text = state.sourceText, let source = state.source else {
                throw StudioRefusal(status: 400, message: "no source chosen: give one (test, v4l2:/dev/video0, file:/path) or choose it first")
            }
            return (text, source)
        }
        var settings = try request.settings(source: source, folders: self.settings.folders, libraryPath: self.settings.libraryPath)
        if !self.settings.keepAwake { settings.keepAwakeCommand = nil }
        let conflicts = RecordingRecovery(stateFolder: settings.stateFolder, libraryPath: settings.libraryPath ?? "").conflicts(with: settings)
        if let refusal = conflicts.refusal { throw StudioRefusal(status: 409, message: refusal) }
        let tracking = self.settings.faceTracking(settings.facesRequested)
        var first = RecordingSnapshot(starting: settings, sourceText: sourceText)
        first.revision = recording.revision + 1
        let reporter = StudioRecordReporter(starting: first) { [events] snapshot in
            events.publish(.recording, data: snapshot.json)
        }
        for warning in conflicts.warnings + [tracking.warning].compactMap({ $0 }) { reporter.warning(warning) }
        let size = PreviewBranch.size(for: settings.dimensions)
        let recorder: StudyRecorder
        do {
            recorder = try StudyRecorder(settings: settings, reporter: reporter, tracker: tracking.make,
                                         openSource: self.settings.openSource, freeBytes: self.settings.freeBytes,
                                         preview: PreviewBranch(feed: feed, width: size.width, height: size.height))
        } catch {
            throw StudioRefusal(status: 400, message: "\(error)")
        }
        try claim(recorder: recorder, reporter: reporter, source: (sourceText, source), canvas: settings.dimensions)
        publishCamera()
        return reporter.current
    }

    /// Makes `recorder` the camera's recording, unless another got there first, and starts
    /// its run: the idle preview hands the source over (it stops first), then the recorder
    /// opens it. The run is in the state from the start, so a shutdown always waits for it.
    private func claim(recorder: StudyRecorder, reporter: StudioRecordReporter, source: (String, SourceSpec),
                       canvas: VideoDimensions) throws(StudioRefusal) {
        try state.withLock { state throws(StudioRefusal) in
            guard !state.closed else { throw StudioRefusal(status: 503, message: "the studio is stopping") }
            if let busy = state.busy { throw StudioRefusal(status: 409, message: busy + "; stop it first") }
            state.recorder = recorder
            state.reporter = reporter
            reporter.begin()
            (state.sourceText, state.source) = source
            state.canvas = canvas
            let idle = state.idle
            state.idle = nil
            state.run = Task.detached { [self] in
                idle?.stop()
                _ = await recorder.run()
                ended(recorder)
            }
        }
    }

    private func ended(_ recorder: StudyRecorder) {
        state.withLock { state in
            guard state.recorder === recorder else { return }
            state.last = state.reporter?.current ?? state.last
            state.recorder = nil
            state.reporter = nil
        }
        publishCamera()
    }

    // MARK: Live

    /// The source a live stream would take: `text` parsed as the record page's sources are,
    /// or the chosen one; nothing is taken yet.
    func liveSource(_ text: String?) throws(StudioRefusal) -> (text: String, spec: SourceSpec) {
        if let text { return (text, try Self.parse(text)) }
        guard let chosen = state.withLock({ state in state.sourceText.flatMap { text in state.source.map { (text, $0) } } }) else {
            throw StudioRefusal(status: 400, message: "no source chosen: give one (test, v4l2:/dev/video0, file:/path) or choose it first")
        }
        return chosen
    }

    /// Lends the source `text` to a live stream or the overlay camera: the idle preview stops
    /// and hands it over first. Refused while recording or lent already. Give it back with
    /// ``returned(by:)``.
    func lend(_ text: String, to borrower: Borrower) throws(StudioRefusal) {
        let idle = try state.withLock { state throws(StudioRefusal) -> IdlePreview? in
            guard !state.closed else { throw StudioRefusal(status: 503, message: "the studio is stopping") }
            if let busy = state.busy { throw StudioRefusal(status: 409, message: busy + "; stop it first") }
            state.lent = (text, borrower)
            state.scan?.done.signal()
            defer { state.idle = nil }
            return state.idle
        }
        idle?.stop()
        publishCamera()
    }

    /// `borrower`, which has the source, switched to `text` (the overlay camera's lens switch):
    /// it becomes the chosen source, and the loan's. Refused (409) when `borrower` does not
    /// have the source.
    func switched(to text: String, spec: SourceSpec, by borrower: Borrower) throws(StudioRefusal) {
        try state.withLock { state throws(StudioRefusal) in
            guard state.lent?.to == borrower else { throw StudioRefusal(status: 409, message: "the source is not lent to \(borrower)") }
            state.lent?.source = text
            state.sourceText = text
            state.source = spec
        }
        publishCamera()
    }

    /// `borrower` has stopped: the source is free again (unless someone else has it).
    func returned(by borrower: Borrower) {
        state.withLock { state in
            if state.lent?.to == borrower { state.lent = nil }
        }
        publishCamera()
    }

    /// Who may borrow the source.
    enum Borrower: Sendable, Equatable {
        /// `reel live` from the live page.
        case live
        /// The overlay camera's previews and shutter.
        case overlay
        /// The cinematic camera's preview, clips and stills.
        case cinematic

        /// Why the source cannot be taken while `source` is lent.
        func busy(_ source: String) -> String {
            switch self {
            case .live: "a live stream from \(source) is running (one source, one user)"
            case .overlay: "the overlay camera is using \(source) (one source, one user): close the overlay page"
            case .cinematic: "the cinematic camera is using \(source) (one source, one user): close the cinematic page (a clip being recorded must be stopped first)"
            }
        }

        /// What the record page says meanwhile.
        func away(_ source: String) -> String {
            switch self {
            case .live: "\(source) is streaming live: the preview comes back when the live stream stops"
            case .overlay: "the overlay camera is using \(source): the preview comes back when the overlay page is closed"
            case .cinematic: "the cinematic camera is showing \(source): the preview comes back when its page is closed"
            }
        }
    }

    /// Pause, resume, toggle or stop the recording (409 when none runs).
    func control(_ control: RecordingStateMachine.Control) throws(StudioRefusal) {
        guard let recorder = state.withLock({ $0.recorder }) else {
            throw StudioRefusal(status: 409, message: "no recording is running")
        }
        recorder.control(control)
    }

    /// Finishes a recording in progress as a stop would, waits for it, and ends the preview.
    func shutdown() async {
        let (recorder, run, idle) = state.withLock { state in
            state.closed = true
            state.scan?.done.signal()
            defer { state.idle = nil }
            return (state.recorder, state.run, state.idle)
        }
        recorder?.requestStop(reason: "the studio stopped")
        await run?.value
        idle?.stop()
        feed.close()
    }

    func publishCamera() {
        events.publish(.camera, data: StudioJSON.line(camera))
    }
}

/// The source and the preview: `GET /api/camera`, and the `camera` event.
struct CameraSnapshot: Codable, Sendable, Equatable {
    /// The chosen source, as given.
    var source: String?
    /// Whether pictures are coming (a recording, or the idle preview for a watcher).
    var previewing: Bool
    /// Why the idle preview has no picture (the source failed to open or ended).
    var problem: String?
    /// Previews open (tabs showing the picture).
    var watchers: Int
    /// Why the source cannot record now: a live stream or another camera view has it.
    var busy: String?
}
