import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy
import ReelRuntime
import ReelVision

/// Faces hidden in the live stream before it is encoded (`reel live --privacy mosaic|mask`):
/// the export's detector and tracker (``FaceFinder``) run on the live picture on a thread of
/// their own, and every picture waits in the gate until detections after it have confirmed
/// or cleared its faces (``LiveFaceHold``: the export's look-back, at most 1 s), then leaves
/// covered, towards the encoder. Nothing leaves bare: a picture that cannot wait longer
/// leaves with the last boxes widened, or covered whole; after the detector fails, every
/// picture is covered whole.
///
/// Each captured picture is first copied into a picture of the live size that only the gate
/// holds (the archive reads the captured one), and the detector gets a copy of its own, so
/// covering never races the detection. Sound waits in order with the pictures, so the
/// segments keep sound and pictures together. The hold is bounded in pictures and bytes
/// (``LiveFaceHold/Rules``); a detection asked for while the detector is still busy replaces
/// the one waiting (the newest picture is the one worth looking at), so a slow detector
/// never holds capture up: the pictures it could not confirm in time leave covered
/// conservatively, counted.
///
/// A source delivered as fast as it can be read (`--fast`) does not run against a clock: there
/// the gate waits for the detector instead (`waitsForDetections`), as the export does, so
/// every picture leaves with the faces of the detections after it, never widened or covered
/// whole because the file outran the detector.
///
/// Runs on the live branch's thread (then, at the end, on the session's); `@unchecked
/// Sendable` for ``counts``, which the status line reads from its own thread under a lock.
final class LivePrivacyGate: @unchecked Sendable {
    private let converter: PictureConverter
    private let finder: FaceFinder
    private let covers: FaceCovers
    private let compositor = FrameCompositor()
    private var hold: LiveFaceHold
    private var cadence: DetectionCadence
    private var held: [CaptureSample] = []
    private var heldPictures = 0
    private var newest: MediaTime?
    private let pictureBytes: Int
    private let jobs: ConsumerQueue<FaceFinder.Job>
    private let results: ConsumerQueue<FaceFinder.Result>
    private let thread: WorkerThread
    private let onFailure: @Sendable (String) -> Void
    private let waitsForDetections: Bool
    /// Detections asked for and replaced by a newer one before the detector could take them.
    private(set) var detectionsSkipped = 0
    /// Detections made.
    private(set) var detections = 0
    /// Pictures that left with widened boxes, or covered whole.
    var widenedPictures: Int { hold.widenedPictures }
    var wholePictures: Int { hold.wholePictures }
    /// The same, and whether the detector has failed, for another thread.
    private let shared = Locked((late: 0, whole: 0, failed: false))
    var counts: (late: Int, whole: Int, failed: Bool) { shared.withLock { $0 } }
    /// Why the detector stopped, once it has.
    private(set) var failure: String?

    /// A gate covering `width` × `height` pictures (the live size) at `framesPerSecond` with
    /// `detector`'s faces; `onFailure` is told once when the detector stops. With
    /// `waitsForDetections` (a source not in real time) no detection is skipped and no picture
    /// leaves before its detections: the capture waits for the detector instead.
    init(detector: any FaceDetector, covers: FaceCovers, width: Int, height: Int, framesPerSecond: Double,
         waitsForDetections: Bool = false, onFailure: @escaping @Sendable (String) -> Void) {
        converter = PictureConverter(width: width, height: height)
        let settings = DetectingBoxes.settings
        let finder = FaceFinder(detector: detector, search: nil, settings: settings)
        self.finder = finder
        self.covers = covers
        self.onFailure = onFailure
        self.waitsForDetections = waitsForDetections
        pictureBytes = width * height * 3 / 2
        hold = LiveFaceHold(rules: .live(framesPerSecond: framesPerSecond, pictureBytes: pictureBytes),
                            lookBack: FaceLookBack(depth: 2, shortLookBack: 2, entryReach: settings.newTrackMatchDistance))
        cadence = DetectionCadence(interval: settings.cadence)
        let jobs = ConsumerQueue<FaceFinder.Job>(name: "reel.live.detect", capacity: 1, policy: waitsForDetections ? .neverDrop : .dropOldest,
                                                 isDroppable: { _ in !waitsForDetections })
        let results = ConsumerQueue<FaceFinder.Result>(name: "reel.live.detected", capacity: 64, policy: .neverDrop,
                                                       isDroppable: { _ in false })
        (self.jobs, self.results) = (jobs, results)
        thread = finder.start(name: "reel.live.detect", jobs: jobs, results: results)
    }

    deinit {
        jobs.cancel()
        results.cancel()
        thread.join()
    }

    /// Takes the next captured sample; hands every sample whose picture is now covered to
    /// `emit`, in capture order.
    func handle(_ sample: CaptureSample, emit: (CaptureSample) throws -> Void) throws {
        switch sample {
        case .audio:
            held.append(sample)
        case .video(let frame):
            let picture = try converter.convert(frame)
            let time = picture.captureTime
            newest = max(newest ?? time, time)
            if failure == nil, cadence.isDue(at: time) {
                cadence.record(time)
                let copy = try converter.convert(picture)
                if jobs.push(FaceFinder.Job(picture: copy, time: time, wholeSearch: false)) == .enqueuedDroppingOldest {
                    detectionsSkipped += 1
                }
            }
            held.append(.video(picture))
            heldPictures += 1
        }
        collectResults()
        try release(emit)
        if waitsForDetections { try awaitDetections(emit) }
    }

    /// Not in real time: while more pictures wait than the hold allows, waits for the next
    /// detection and lets go what it settles (the detector ending stops the wait: then
    /// every picture is covered whole).
    private func awaitDetections(_ emit: (CaptureSample) throws -> Void) throws {
        while heldPictures > hold.rules.mostPictures, failure == nil {
            guard let result = results.pop() else {
                thread.join()
                noteFailure()
                break
            }
            record(result)
            try release(emit)
        }
        try release(emit)
    }

    /// The end of the stream: waits for the detections asked for, then lets every picture go
    /// with its boxes.
    func finish(emit: (CaptureSample) throws -> Void) throws {
        jobs.close()
        while let result = results.pop() { record(result) }
        thread.join()
        noteFailure()
        if failure == nil, let newest { hold.finish(time: newest, boxes: finder.projected(to: newest)) }
        try release(emit)
    }

    /// The detections done so far, in order.
    private func collectResults() {
        while true {
            switch results.tryPop() {
            case .element(let result): record(result)
            case .empty: return
            case .endOfStream:
                thread.join()
                noteFailure()
                return
            }
        }
    }

    private func record(_ result: FaceFinder.Result) {
        detections += 1
        hold.record(time: result.time, boxes: result.boxes)
    }

    /// Once the detection thread has ended with an error: every picture from now on is
    /// covered whole.
    private func noteFailure() {
        guard failure == nil, let error = thread.error else { return }
        let reason = "face detection failed: \(ErrorSentence.reason(error))"
        failure = reason
        hold.recordDetectorFailure()
        shared.withLock { $0.failed = true }
        onFailure(reason)
    }

    /// Emits, in order, the samples before the first picture that still waits.
    private func release(_ emit: (CaptureSample) throws -> Void) throws {
        var count = 0
        defer {
            held.removeFirst(count)
            shared.withLock { [hold] in $0.late = hold.widenedPictures; $0.whole = hold.wholePictures }
        }
        for sample in held {
            if case .video(let picture) = sample {
                // Not in real time, a picture never leaves before its detections (the wait
                // above bounds the hold instead).
                let now = waitsForDetections ? picture.captureTime : newest ?? picture.captureTime
                let pictures = waitsForDetections ? 1 : heldPictures
                guard let cover = hold.release(pictureAt: picture.captureTime, now: now,
                                               pictures: pictures, bytes: pictures * pictureBytes) else { break }
                try draw(cover, on: picture)
                heldPictures -= 1
            }
            count += 1
            try emit(sample)
        }
    }

    private func draw(_ cover: LiveFaceHold.Cover, on picture: VideoFrame) throws {
        let boxes: [FaceBox]
        switch cover {
        case .faces(let found), .widened(let found): boxes = found
        case .wholePicture:
            try picture.withYUVPicture { MaskCompositor().fillWhole($0) }
            return
        }
        guard !boxes.isEmpty else { return }
        let faceCovers = try covers.covers(for: PrivacyEdits().regions(for: boxes))
        try picture.withYUVPicture { try compositor.composite($0, covers: faceCovers, caption: nil) }
    }
}
