import Foundation
import ReelCinematic
import ReelCore
import ReelMedia
import ReelRuntime

/// The cinematic camera in the studio: the chosen source seen through a
/// ``ReelCinematic/CinematicCamera`` (vision on its own thread, as `reel cinematic` in real
/// time), its pictures with the blur shown as a preview; the page's taps, presses, subjects,
/// lock and aperture are ``ReelCore/CinematicControl`` commands, as on `reel cinematic`'s
/// standard input. The record button writes a clip into ``StudioSettings/cinematicFolder``
/// (editable by default: the pictures unblurred with the sidecar, so the refocus editor can
/// change the focus later; the preview still shows the blur), the still button a JPEG of the
/// next picture with the blur.
///
/// The source is borrowed from the record page's camera while the preview is watched, a clip
/// records or a still waits, and given back when none is the case. A source that ends or
/// vanishes ends the clip with every picture written kept.
final class StudioCinematic: CaptureBorrower {
    private struct State {
        /// Whether the capture runs (on the borrowed source).
        var running = false
        /// The camera and the source around it, once the capture has opened them.
        var camera: CinematicCamera?
        var cinematicSource: CinematicSource?
        /// The source the capture has (lent by the record page's camera).
        var source: String?
        var problem: String?
        /// What the vision said when it opened (a model missing and its stand-in used).
        var warning: String?
        var format: CaptureFormat?
        /// The newest picture's result, and pictures since the capture started.
        var latest: CinematicFrame?
        var frames = 0
        /// The aperture a new camera starts with (the page's slider, kept across captures).
        var aperture = Aperture.standard
        /// Clips and stills waiting for the capture to give a picture.
        var waiting = 0
        var lastPublished = Date.distantPast
        var closed = false
    }

    let feed = PreviewFeed()
    private let state = Locked(State())
    private let borrowed: BorrowedCapture
    let clip = ClipSlot()
    private let shutter = HandOff<VideoFrame>()
    private let camera: StudioCamera
    let settings: StudioSettings
    let events: StudioEvents

    init(camera: StudioCamera, settings: StudioSettings, events: StudioEvents) {
        self.camera = camera
        borrowed = BorrowedCapture(.cinematic, from: camera)
        self.settings = settings
        self.events = events
    }

    // MARK: Capture

    /// Starts the capture when the preview is watched, a clip records or a still waits; stops it
    /// (and gives the source back) when none (``BorrowedCapture``); a source that failed is
    /// tried again after 2 s. Called every status tick, when the preview opens and when a clip
    /// or still starts.
    func tick() {
        borrowed.step(wanted: {
            let recording = clip.isRecording
            return state.withLock { !$0.closed && ($0.waiting > 0 || feed.watcherCount > 0 || recording) }
        }, for: self)
    }

    /// Opens the borrowed source through a new camera (the models are loaded on the capture
    /// thread: a missing model is the capture's failure, said on the page).
    func capture(_ source: SourceSpec) -> any BorrowedRun {
        let branch = PreviewBranch(feed: feed)
        let open = settings.openSource, models = settings.visionModels, state = self.state
        let aperture = state.withLock { $0.aperture }
        return IdlePreview(source: source, branches: [branch], open: { [weak self] spec in
            let camera = try CinematicCamera.make(models: models, aperture: aperture, focus: .automatic, pace: .ownThread) { warning in
                state.withLock { $0.warning = warning }
            }
            let inner = try open(spec)
            let cinematic = CinematicSource(inner, camera: camera, realTime: true, renders: false) { [weak self] frame in self?.decided(frame) }
            state.withLock { state in
                state.camera = camera
                state.cinematicSource = cinematic
                state.format = cinematic.format
            }
            return cinematic
        }, shape: { [weak self] frame in self?.shown(frame) }, tap: { [weak self] frame in self?.shutter.offer { frame } })
    }

    func captureStarted(source: String) {
        state.withLock { state in
            state.running = true
            state.source = source
            state.problem = nil
            state.frames = 0
            state.latest = nil
        }
        publish()
    }

    /// A clip being recorded ends with the capture, keeping every picture recorded.
    func captureStopped(problem: String?) {
        let why = state.withLock { state -> String in
            state.running = false
            state.camera = nil
            state.cinematicSource = nil
            if let problem { state.problem = problem }
            return state.problem ?? "the source ended"
        }
        if clip.isRecording { endClip(because: "the source stopped (\(why)): the clip keeps every picture recorded") }
        publish()
    }

    func borrowRefused(_ problem: String) {
        state.withLock { $0.problem = problem }
        publish()
    }

    /// A picture's decisions (capture thread, just before the picture itself comes to ``shown(_:)``).
    private func decided(_ frame: CinematicFrame) {
        let publishing = state.withLock { state -> Bool in
            state.latest = frame
            state.frames += 1
            guard Date().timeIntervalSince(state.lastPublished) >= 0.2 else { return false }
            state.lastPublished = Date()
            return true
        }
        if publishing { publish() }
    }

    /// The picture the preview and the stills show: with the blur. An editable clip records the
    /// picture unblurred first and the blur goes into a copy; any other clip records it blurred.
    private func shown(_ frame: VideoFrame) -> VideoFrame? {
        guard let (camera, result) = state.withLock({ state in state.camera.flatMap { c in state.latest.map { (c, $0) } } }) else { return frame }
        do {
            return try clip.record(frame, result: result) { picture in try camera.render(picture, as: result) }
        } catch {
            state.withLock { $0.problem = "the blur could not be drawn: \(error)" }
            return frame
        }
    }

    /// Stops the capture (ending a clip) and gives the source back.
    func shutdown() {
        if clip.isRecording { endClip(because: "the studio is stopping") }
        state.withLock { $0.closed = true }
        tick()
        feed.close()
    }

    // MARK: Controls

    /// Applies a command typed as on `reel cinematic`'s standard input (`tap 0.4 0.5`,
    /// `aperture 2.8`, …). An aperture is kept for the next capture too; any other command
    /// needs the camera running (409 otherwise), and one it cannot follow (no such subject,
    /// nothing to lock) is 409 with the reason.
    func command(_ line: String) throws(StudioRefusal) -> CinematicSnapshot {
        let control: CinematicControl
        do { control = try CinematicControl(parsing: line) } catch { throw StudioRefusal(status: 400, message: error.description) }
        let running = state.withLock { state -> CinematicCamera? in
            if case let .aperture(aperture) = control { state.aperture = aperture }
            return state.camera
        }
        guard let running else {
            if case .aperture = control { return publish() }
            throw StudioRefusal(status: 409, message: "the cinematic camera is not running: open its page (the preview starts it)")
        }
        if let reason = running.apply(control) { throw StudioRefusal(status: 409, message: reason) }
        return publish()
    }

    // MARK: Clips and stills

    /// Starts a clip into ``StudioSettings/cinematicFolder``; the capture is started for it when
    /// it does not run. 409 when one records or the source gives no picture within
    /// ``StudioSettings/shutterTimeout`` seconds; 507 for a full disk.
    func startClip(editable: Bool) throws(StudioRefusal) -> CinematicSnapshot {
        guard !clip.isRecording else { throw StudioRefusal(status: 409, message: "a clip is being recorded: stop it first") }
        let format = try waitForFormat()
        let folder = settings.cinematicFolder
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw StudioRefusal(status: 500, message: "cannot make \(folder): \(error.localizedDescription)")
        }
        let name = CinematicFileName.free(CinematicFileName.stem(at: Date()), kind: .clip) { name in
            FileManager.default.fileExists(atPath: folder + "/" + name)
                || FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: folder + "/" + name))
        }
        var silent = format
        silent.audio = nil  // the preview's capture hands on pictures only
        let started: Bool
        do { started = try clip.start(path: folder + "/" + name, format: silent, editable: editable) } catch {
            throw ClipSlot.isNoSpace(error) ? StudioRefusal(status: 507, message: "the disk is full: no clip was started") : StudioOverlay.refusal(error)
        }
        guard started else { throw StudioRefusal(status: 409, message: "a clip is being recorded: stop it first") }
        events.publish(.cinematicClips, data: "{}")
        return publish()
    }

    /// Ends the clip: the MP4 (and sidecar) closed; 409 when none records.
    func stopClip() throws(StudioRefusal) -> CinematicSnapshot {
        guard clip.isRecording else { throw StudioRefusal(status: 409, message: "no clip is being recorded") }
        endClip(because: nil)
        tick()
        return publish()
    }

    private func endClip(because reason: String?) {
        clip.finish(problem: reason)
        events.publish(.cinematicClips, data: "{}")
    }

    /// A JPEG of the next picture with the blur, whole size, into ``StudioSettings/cinematicStillsFolder``.
    func still() throws(StudioRefusal) -> StillAnswer {
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1 } }
        tick()
        guard let frame = shutter.next(timeout: settings.shutterTimeout) else { throw noPicture("no still was taken") }
        let saved: (name: String, bytes: Int)
        let camera = state.withLock { $0.source } ?? "camera"
        do {
            saved = try CinematicStill.save(frame, in: settings.cinematicStillsFolder, camera: camera, software: "reel \(settings.version)")
        } catch let error as FFmpegError {
            throw StudioRefusal(status: 500, message: "the still could not be encoded: \(error)")
        } catch {
            throw StudioOverlay.refusal(error)
        }
        events.publish(.cinematicClips, data: "{}")
        let focus = state.withLock { $0.latest?.statusText }
        return StillAnswer(name: saved.name, width: frame.width, height: frame.height, bytes: saved.bytes, focus: focus)
    }

    /// The format of the running capture, starting it and waiting for its first picture when needed.
    private func waitForFormat() throws(StudioRefusal) -> CaptureFormat {
        if let format = state.withLock({ $0.running && $0.latest != nil ? $0.format : nil }) { return format }
        state.withLock { $0.waiting += 1 }
        defer { state.withLock { $0.waiting -= 1 } }
        tick()
        guard shutter.next(timeout: settings.shutterTimeout) != nil, let format = state.withLock({ $0.format }) else {
            throw noPicture("no clip was started")
        }
        return format
    }

    private func noPicture(_ what: String) -> StudioRefusal {
        let why = state.withLock { $0.problem } ?? "is the camera still connected?"
        return StudioRefusal(status: 503, message: "the source gave no picture within \(Int(settings.shutterTimeout)) s (\(why)); \(what)")
    }

    // MARK: State

    func snapshot() -> CinematicSnapshot {
        let (source, problem, running, frames, latest, aperture, dropped, format) = state.withLock {
            ($0.source, $0.problem, $0.running, $0.frames, $0.latest, $0.aperture, $0.cinematicSource?.droppedPictures ?? 0, $0.format)
        }
        var snapshot = CinematicSnapshot(running: running, source: running ? source : nil, problem: problem, frames: frames, dropped: dropped,
                                         latest: running ? latest : nil, aperture: running ? latest?.aperture ?? aperture : aperture, clip: clip.answer)
        if running, let format { snapshot.pictureSize = [format.width, format.height] }
        snapshot.warning = state.withLock { $0.warning }
        return snapshot
    }

    /// Tells the pages the state, and returns it.
    @discardableResult
    func publish() -> CinematicSnapshot {
        let now = snapshot()
        events.publish(.cinematic, data: StudioJSON.line(now))
        return now
    }
}

/// The clip being recorded, shared by the capture thread (pictures) and the requests (start,
/// stop): one lock, held while a picture is recorded and drawn, so a stop waits for at most one
/// picture and never closes the file under a write.
final class ClipSlot: @unchecked Sendable {
    // Every field is touched only with `lock` held.
    private let lock = NSLock()
    private var writer: CinematicClipWriter?
    private var last: ClipAnswer?
    private let copier = Locked<PictureConverter?>(nil)

    var isRecording: Bool { lock.withLock { writer != nil } }

    /// The file name of the clip recording now (nil when none records).
    var recordingName: String? { lock.withLock { writer.map { URL(fileURLWithPath: $0.path).lastPathComponent } } }

    /// The clip recording now, or the last one (with why it ended early, if it did).
    var answer: ClipAnswer? {
        lock.withLock {
            guard let writer else { return last }
            return ClipAnswer(writer, recording: true, problem: nil)
        }
    }

    /// Starts a clip at `path`; false when one records already.
    func start(path: String, format: CaptureFormat, editable: Bool) throws -> Bool {
        try lock.withLock {
            guard writer == nil else { return false }
            writer = try CinematicClipWriter(path: path, format: format, editable: editable)
            last = nil
            return true
        }
    }

    /// Whether `error` says the disk is full (from the encoder's muxer, a durable write or the
    /// sidecar's file).
    static func isNoSpace(_ error: any Error) -> Bool {
        if let error = error as? FFmpegError { return error.code == -ENOSPC || error.code == -EDQUOT }
        if (error as? CocoaError)?.code == .fileWriteOutOfSpace { return true }
        return (error as? DurableFile.Error)?.isNoSpace == true
    }

    /// Records `frame` into the clip (if one records) and returns the picture to show, `draw`n
    /// on: an editable clip gets the picture as it is and the drawing goes into a copy. A write
    /// that fails ends the clip (what was written stays) and the picture is still shown.
    func record(_ frame: VideoFrame, result: CinematicFrame, draw: (VideoFrame) throws -> Void) throws -> VideoFrame {
        try lock.withLock {
            guard let writer else {
                try draw(frame)
                return frame
            }
            var shown = frame
            do {
                let pts = writer.time(of: frame.captureTime)
                if writer.editable {
                    try writer.appendVideo(frame, pts: pts, result: result)
                    shown = try copy(frame)
                    try draw(shown)
                } else {
                    try draw(frame)
                    try writer.appendVideo(frame, pts: pts, result: nil)
                }
            } catch {
                end(problem: nil, failure: error)
            }
            return shown
        }
    }

    /// Closes the clip; `problem` says why it ended early.
    func finish(problem: String?) {
        lock.withLock { end(problem: problem) }
    }

    // With `lock` held. `failure` is the write that ended the clip early. A clip without a whole
    // fragment is removed with its sidecar, as `reel cinematic` does.
    private func end(problem: String?, failure: (any Error)? = nil) {
        guard let writer else { return }
        var closing: (any Error)?
        do { try writer.finish() } catch {
            writer.abandon()
            closing = error
        }
        let kept = writer.holdsPictures
        if !kept { writer.remove() }
        var said = kept ? problem : "the clip ended before its first picture: nothing was written"
        if let closing {
            said = kept && !Self.isNoSpace(closing) ? problem ?? "the clip could not be closed cleanly (\(closing)): what was written stays playable"
                                                    : Self.problem(writing: closing, kept: kept)
        }
        if let failure { said = Self.problem(writing: failure, kept: kept) }
        last = ClipAnswer(writer, recording: false, problem: said)
        self.writer = nil
    }

    /// Why a clip ended early on a write that failed, and what it keeps.
    private static func problem(writing error: any Error, kept: Bool) -> String {
        let kept = kept ? "the clip keeps what was written before" : "nothing was written"
        return isNoSpace(error) ? "the disk is full: \(kept)" : "the clip could not be written (\(error)): \(kept)"
    }

    private func copy(_ frame: VideoFrame) throws -> VideoFrame {
        let converter = copier.withLock { current -> PictureConverter in
            if let current, current.width == frame.width, current.height == frame.height { return current }
            let made = PictureConverter(width: frame.width, height: frame.height)
            current = made
            return made
        }
        return try converter.convert(frame)
    }
}

/// `GET /api/cinematic` and the `cinematic` event.
struct CinematicSnapshot: Encodable {
    var running: Bool
    /// The source being shown, while the capture runs.
    var source: String?
    /// Why there is no picture (a missing model, a source that failed).
    var problem: String?
    var frames: Int
    /// Pictures dropped because the camera's work fell behind real time.
    var dropped: Int
    var pictureSize: [Int]?
    var subjects: [SubjectAnswer] = []
    /// none, weak or strong.
    var mode = "none"
    /// The status line of `reel cinematic` (subjects, focus, aperture, light).
    var focus: String?
    /// The rendered focus's distance in metres (nil: infinity or nothing focused).
    var focusMetres: Double?
    var fNumber: Double
    var apertureRange = [Aperture.minimum, Aperture.maximum, Aperture.standard.fNumber]
    var lowLight = false
    var clip: ClipAnswer?
    /// What the vision said when it opened (a model missing, its stand-in used).
    var warning: String?

    init(running: Bool, source: String?, problem: String?, frames: Int, dropped: Int, latest: CinematicFrame?, aperture: Aperture, clip: ClipAnswer?) {
        self.running = running
        self.source = source
        self.problem = problem
        self.frames = frames
        self.dropped = dropped
        self.fNumber = aperture.fNumber
        self.clip = clip
        guard let latest else { return }
        subjects = latest.subjects.map { subject in
            SubjectAnswer(id: subject.id, kind: subject.kind.label,
                          box: [subject.bounds.x, subject.bounds.y, subject.bounds.width, subject.bounds.height],
                          style: latest.styles[subject.id]?.rawValue ?? "none", focused: latest.decision.target == .subject(subject.id))
        }
        mode = latest.decision.mode.rawValue
        focus = latest.statusText
        focusMetres = latest.focalDioptres.flatMap { $0 > 0 ? 1 / $0 : nil }
        lowLight = latest.lowLight
    }
}

/// A subject as the page draws it: its box (x, y, width, height in shares of the picture),
/// dashed when weak, solid when strong, highlighted when focused.
struct SubjectAnswer: Encodable {
    var id: Int
    var kind: String
    var box: [Double]
    var style: String
    var focused: Bool
}

/// The clip recording or last recorded.
struct ClipAnswer: Encodable, Sendable {
    var name: String
    var editable: Bool
    var recording: Bool
    var seconds: Double
    var pictures: Int
    /// Why it ended early (the source vanished, the disk filled up).
    var problem: String?

    init(_ writer: CinematicClipWriter, recording: Bool, problem: String?) {
        name = (writer.path as NSString).lastPathComponent
        editable = writer.editable
        self.recording = recording
        seconds = writer.seconds
        pictures = writer.pictures
        self.problem = problem
    }
}

/// `POST /api/cinematic/still`'s answer.
struct StillAnswer: Encodable {
    var name: String
    var width: Int
    var height: Int
    var bytes: Int
    /// The focus it was taken with.
    var focus: String?
}

/// The body of `POST /api/cinematic`.
struct CinematicCommand: Decodable {
    var command: String
}

/// The body of `POST /api/cinematic/record`.
struct CinematicRecordRequest: Decodable {
    init(editable: Bool? = nil) { self.editable = editable }

    var editable: Bool?
}
