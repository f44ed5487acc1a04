import Foundation
import ReelCore
import ReelMedia
import ReelRuntime
import ReelVision

/// A detector that can also look at part of a picture at its full resolution (CenterFace):
/// what finds faces too small for the whole-picture pass.
public protocol RegionFaceDetector: FaceDetector {
    /// Faces in `rect` of `picture`, boxes normalized to the whole picture.
    func detect(_ picture: DetectorPicture, in rect: DetectorPicture.PixelRect) throws -> [Detection]
}

extension CenterFaceDetector: RegionFaceDetector {}

/// The closer look for small faces (faces down to ~20 px high at 720p, which the whole picture
/// shrunk to 320 wide cannot show the detector): every ``every`` detections the fine detector
/// searches the whole picture at its own width (1280: 20 px faces stay 20 px), and at every
/// other detection it looks only round the small faces already tracked (a crop six times their
/// box, at least 256 px, at full resolution: a few per cent of the whole search's cost). A face
/// the search finds is covered from the search before (``FaceLookBack``'s long look-back).
public struct SmallFaceSearch {
    /// The fine detector (CenterFace at 1280 wide).
    public var detector: any RegionFaceDetector
    /// Detections between two whole-picture searches (5: once a second of video).
    public var every: Int = 5
    /// Face boxes lower than this (normalized, the tracker's expanded box) count as small:
    /// about what the whole-picture pass no longer finds reliably.
    public var smallHeight: Double
    /// A crop round a small face is this many times its box, at least ``minimumCrop`` pixels
    /// (the network sees the face with its surroundings; smaller crops missed the 20 px face).
    public var cropScale: Double = 6
    /// The least side of a crop, in pixels. 160 missed the 20 px face of the small clip at its
    /// second detection (its box stayed behind while it moved on, and under a mosaic one block
    /// across it showed); 256 found it at every detection (a crop is 7 % of a 720p picture).
    public var minimumCrop: Int = 256

    /// A search with `detector` for faces lower than `smallHeight`.
    public init(detector: any RegionFaceDetector, smallHeight: Double) {
        self.detector = detector
        self.smallHeight = smallHeight
    }
}

/// Every face, found while exporting: the detector runs on the picture at each 0.2 s tick of
/// video time (``MultiFaceTrackerPolicy``), with a closer look for small faces
/// (``SmallFaceSearch``), and each picture waits for the detections after it (``FaceLookBack``:
/// 2, or with the small-face search, its period) to get its boxes: interpolated between
/// detections, a new face covered from two detections before it was found (from the previous
/// whole-picture search when a search found it) and, near an edge, along its way in, an ended
/// track until the detection that ended it.
///
/// The detections run on their own thread (``FaceFinder``), one at a time and in order, while
/// this thread goes on decoding and covering the pictures already settled: the pictures wait
/// for later detections anyway, so a long detection (the whole-picture search) no longer
/// stalls the encoder. At most three detections wait beside the one running (then the decoder
/// waits), which bounds the pictures held: 18 more at 30 fps. The boxes do not depend on the
/// threads' timing: the results are applied in detection order, each followed by the pictures
/// it settles. Measured at 1080p (the single clip with caption and watermark, 5 paired runs):
/// 0.92× the wall time of detecting in line and 0.94× the CPU time, 80 MB more at the peak.
/// OpenCV keeps its own threads: on one thread a 1280 × 736 pass costs 324 ms of CPU instead
/// of 481, but at 720p the detection thread then holds the export up (the small clip: 7.3 s
/// instead of 6.2 s).
public final class DetectingBoxes: FaceBoxSource {
    private let finder: FaceFinder
    private let every: Int?
    private var cadence: DetectionCadence
    private var lookBack: FaceLookBack
    private var pending: [VideoFrame] = []
    private let jobs: ConsumerQueue<FaceFinder.Job>
    private let results: ConsumerQueue<FaceFinder.Result>
    private let thread: WorkerThread
    /// Every sample taken (the track of the export).
    public private(set) var track = FaceTrack()
    public private(set) var detections = 0
    public private(set) var subjects = Set<Int>()
    private var requested = 0

    public init(detector: any FaceDetector, search: SmallFaceSearch? = nil, settings: FaceTrackerSettings = DetectingBoxes.settings) {
        let finder = FaceFinder(detector: detector, search: search, settings: settings)
        self.finder = finder
        every = search?.every
        cadence = DetectionCadence(interval: settings.cadence)
        lookBack = FaceLookBack(depth: max(2, search?.every ?? 2), shortLookBack: 2, entryReach: settings.newTrackMatchDistance)
        let jobs = ConsumerQueue<FaceFinder.Job>(name: "reel.export.detect", capacity: 3, policy: .neverDrop, isDroppable: { _ in false })
        let results = ConsumerQueue<FaceFinder.Result>(name: "reel.export.detected", capacity: 4, policy: .neverDrop,
                                                       isDroppable: { _ in false })
        (self.jobs, self.results) = (jobs, results)
        thread = finder.start(name: "reel.export.detect", jobs: jobs, results: results)
    }

    /// The detection thread ended before the detection could be queued.
    public struct Stopped: Swift.Error, CustomStringConvertible {
        public var description: String { "face detection stopped" }
    }

    deinit {
        // Ended early (a failure elsewhere): the thread drops what is queued and stops.
        jobs.cancel()
        results.cancel()
        thread.join()
    }

    /// The tracker numbers of docs/behaviour.md §1 without the smoothing: §1 smooths (`lerp 0.6`)
    /// because a live tracker knows only the past and must not jitter; here the pictures between
    /// two detections wait for the next ones and are interpolated between them, which is smooth
    /// already, while a smoothed box trails a moving face by about two thirds of its motion per
    /// tick. Measured on the privacy clips: with the smoothing, a face gliding 170 px per 0.2 s at
    /// 720p leaked in 14 frames; without it, none.
    public static var settings: FaceTrackerSettings {
        var settings = FaceTrackerSettings.default
        settings.smoothing = 1
        return settings
    }

    public func push(_ picture: VideoFrame, emit: (VideoFrame, [FaceBox]) throws -> Void) throws {
        let time = picture.captureTime
        pending.append(picture)
        if cadence.isDue(at: time) {
            cadence.record(time)
            let wholeSearch = every.map { requested % $0 == 0 } ?? false
            requested += 1
            guard jobs.push(FaceFinder.Job(picture: picture, time: time, wholeSearch: wholeSearch)).isEnqueued else {
                // The detection thread failed: its error says why.
                thread.join()
                throw thread.error ?? Stopped()
            }
        }
        // Each result is followed by the pictures it settles, as FaceLookBack needs (it lets go
        // of the detections that the pictures still waiting no longer need).
        while case .element(let result) = results.tryPop() {
            record(result)
            try emitSettled(emit)
        }
    }

    /// One detection's boxes, in detection order.
    private func record(_ result: FaceFinder.Result) {
        detections += 1
        let samples = result.boxes.map { $0.sample(at: result.time) }
        for box in result.boxes { subjects.insert(box.subject) }
        for sample in samples { track.append(sample) }
        lookBack.record(time: result.time, samples: samples, lookBack: result.wholeSearch ? every : nil)
    }

    public func finish(emit: (VideoFrame, [FaceBox]) throws -> Void) throws {
        jobs.close()
        while let result = results.pop() {
            record(result)
            try emitSettled(emit)
        }
        thread.join()
        if let error = thread.error { throw error }
        // Pictures after the last detection: the faces carried on by their motion to the last one.
        if let last = pending.last, let detected = lookBack.lastTime, last.captureTime > detected {
            lookBack.record(time: last.captureTime, samples: finder.projected(to: last.captureTime).map { $0.sample(at: last.captureTime) })
        }
        lookBack.finish()
        try emitSettled(emit)
    }

    /// Emits, in order, the waiting pictures whose boxes are final.
    private func emitSettled(_ emit: (VideoFrame, [FaceBox]) throws -> Void) throws {
        let limit = lookBack.settledBefore
        var count = 0
        for picture in pending {
            if !lookBack.isFinished {
                guard let limit, picture.captureTime < limit else { break }
            }
            try emit(picture, lookBack.boxes(at: picture.captureTime))
            count += 1
        }
        pending.removeFirst(count)
    }
}

/// The detection side of ``DetectingBoxes``: the detectors and the tracker, used by the
/// detection thread alone (and by ``projected(to:)`` once that thread has ended), which is
/// why it can be `@unchecked Sendable`. A picture in a job is only read: it is covered only
/// after the detections after it, so nobody writes it meanwhile.
public final class FaceFinder: @unchecked Sendable {
    /// Runs the detections of `jobs` in order on a thread named `name`, each result into
    /// `results` (closed when the thread ends); a failing detection cancels `jobs` and ends
    /// the thread with its error.
    public func start(name: String, jobs: ConsumerQueue<Job>, results: ConsumerQueue<Result>) -> WorkerThread {
        WorkerThread.run(name: name) { [self] in
            defer { results.close() }
            do {
                while let job = jobs.pop() {
                    guard results.push(try detect(job)).isEnqueued else { return }
                }
            } catch {
                jobs.cancel()
                throw error
            }
        }
    }

    /// A detection to run.
    public struct Job: Sendable {
        public var picture: VideoFrame
        public var time: MediaTime
        /// Whether the small-face search looks at the whole picture this time.
        public var wholeSearch: Bool

        /// A detection of `picture` at `time`.
        public init(picture: VideoFrame, time: MediaTime, wholeSearch: Bool) {
            self.picture = picture
            self.time = time
            self.wholeSearch = wholeSearch
        }
    }

    /// A detection's outcome: the live tracks' boxes.
    public struct Result: Sendable {
        public var time: MediaTime
        public var boxes: [FaceBox]
        public var wholeSearch: Bool
    }

    private let detector: any FaceDetector
    private let search: SmallFaceSearch?
    private var policy: MultiFaceTrackerPolicy

    public init(detector: any FaceDetector, search: SmallFaceSearch?, settings: FaceTrackerSettings) {
        self.detector = detector
        self.search = search
        policy = MultiFaceTrackerPolicy(settings: settings)
    }

    public func detect(_ job: Job) throws -> Result {
        let picture = job.picture
        let faces = try picture.withWritablePlanes { planes in
            let view = DetectorPicture(yuv420p: (y: .init(base: planes[0].base, stride: planes[0].stride),
                                                 u: .init(base: planes[1].base, stride: planes[1].stride),
                                                 v: .init(base: planes[2].base, stride: planes[2].stride)),
                                       width: picture.width, height: picture.height)
            return try find(in: view, at: job.time, wholeSearch: job.wholeSearch)
        }
        return Result(time: job.time, boxes: policy.update(with: faces, at: job.time), wholeSearch: job.wholeSearch)
    }

    /// The live tracks carried on to `time` (``MultiFaceTrackerPolicy/projected(to:)``).
    public func projected(to time: MediaTime) -> [FaceBox] {
        policy.projected(to: time)
    }

    /// The faces of one detection: the whole picture, plus the small-face search (the whole
    /// picture at full resolution, or crops round the small faces tracked), each face once.
    private func find(in view: DetectorPicture, at time: MediaTime, wholeSearch: Bool) throws -> [Detection] {
        var faces = try detector.detect(view)
        guard let search else { return faces }
        if wholeSearch {
            faces += try search.detector.detect(view)
        } else {
            for box in policy.smallFaces(below: search.smallHeight, at: time) {
                let w = max(Double(search.minimumCrop), box.width * Double(view.width) * search.cropScale)
                let h = max(Double(search.minimumCrop), box.height * Double(view.height) * search.cropScale)
                let rect = DetectorPicture.PixelRect(x: Int((box.midX * Double(view.width) - w / 2).rounded()),
                                                     y: Int((box.midY * Double(view.height) - h / 2).rounded()),
                                                     width: Int(w.rounded()), height: Int(h.rounded()))
                faces += try search.detector.detect(view, in: rect)
            }
        }
        return Detection.suppressingOverlaps(faces)
    }
}
