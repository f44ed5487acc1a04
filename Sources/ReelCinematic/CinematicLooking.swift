import Foundation
import ReelCore
import ReelMedia
import ReelRuntime
import ReelVision

/// How the cinematic camera's vision (detectors, the people's matte) keeps pace with the pictures.
public enum VisionPace: Sendable, Equatable {
    /// On every picture, before it is rendered: each picture's layers are its own (a file
    /// processed as fast as it goes, the tests).
    case everyPicture
    /// On a thread of its own, at its own rate, on the newest picture (a smaller copy); each
    /// picture is rendered with the newest layers there are, made from a picture up to a few
    /// frames older. What real time needs on two cores: the vision costs about as much as
    /// everything else together.
    case ownThread
}

/// What the vision saw in the picture at `time`: the subjects, how fast each moves, and the
/// people's matte at the layer map's size (nil when nothing was looked at yet).
struct Look: Sendable {
    var time: MediaTime?
    var subjects: [CinematicSubject] = []
    var velocities: [Int: NormalizedOffset] = [:]
    var matte: [UInt8]?

    /// The subjects and how far each moved, carried to a picture at `time` (``SubjectMotion``):
    /// in line the look is the picture's own and nothing moves.
    func carried(to time: MediaTime) -> (subjects: [CinematicSubject], shifts: [Int: NormalizedOffset]) {
        guard let lookTime = self.time else { return (subjects, [:]) }
        return SubjectMotion.carry(subjects, velocities: velocities, lead: time - lookTime)
    }
}

/// Where a detection's small faces (``SmallFaceLook``) come from.
enum SmallFaceSource {
    /// None (the cascade fallback, or a search that has found nothing new).
    case none
    /// Looked for in this picture (the one looked at, at full resolution), in line.
    case inline(DetectorPicture)
    /// Found by the search on its own thread, taken at the detection (``SmallFaceWorker/take(at:)``).
    case worker(SmallFaceWorker)
}

/// The vision's state, used by one thread: the face detector every
/// ``CinematicCamera/detectionInterval`` and the cascades every ``CinematicCamera/cascadeEvery``
/// of those into the tracker, the subjects' boxes followed by optical flow on the looks between (so a
/// person's layer keeps up with a person who moves), their velocities from that flow (on every
/// look: at a detection it measures the move and the detector places the box), the matte on
/// every call. A detection adds the small faces of its ``SmallFaceSource``.
final class Looker: @unchecked Sendable {
    private let vision: CinematicVision
    private let flow: FlowTracker
    private var tracker = SubjectTracker()
    private var motion = SubjectMotion()
    private var subjects: [CinematicSubject] = []
    private var lastDetection: MediaTime?
    private var detections = 0

    init(vision: CinematicVision) throws {
        self.vision = vision
        flow = try FlowTracker()
    }

    func look(at picture: DetectorPicture, time: MediaTime, cells: (width: Int, height: Int), small: SmallFaceSource) throws -> Look {
        let moved = try flow.track(picture, boxes: subjects.map(\.bounds))
        let moves = Dictionary(subjects.indices.map { i in
            (subjects[i].id, NormalizedOffset(dx: moved[i].midX - subjects[i].bounds.midX, dy: moved[i].midY - subjects[i].bounds.midY))
        }, uniquingKeysWith: { first, _ in first })
        let velocities = motion.update(moves, at: time)
        if lastDetection.map({ time - $0 >= CinematicCamera.detectionInterval || time < $0 }) ?? true {
            let cascades = detections % CinematicCamera.cascadeEvery == 0
            let smallFaces: [SubjectObservation] = switch small {
            case .none: []
            case let .inline(full):
                try vision.smallFaces(in: full, plan: SmallFaceLook().plan(detection: detections, subjects: subjects,
                                                                         width: full.width, height: full.height))
            case let .worker(worker): worker.take(at: time)
            }
            subjects = tracker.update(try vision.observe(picture, cascades: cascades, smallFaces: smallFaces),
                                      lookedFor: cascades ? nil : [.face], at: time)
            lastDetection = time
            detections += 1
        } else {
            for i in subjects.indices { subjects[i].bounds = moved[i] }
        }
        return Look(time: time, subjects: subjects, velocities: velocities,
                    matte: try vision.matte(picture, width: cells.width, height: cells.height))
    }
}

/// The small-face search in real time, on a thread of its own ("reel.cinematic.small-faces", at
/// a lower priority): the vision's looks must not wait for it (a whole search at 1080p took
/// 0.6 s of wall time beside the renderer and the encoder on this project's 2-core machine, and
/// the looks it held up left a moving person's layer behind). A copy of the picture at full resolution is handed over at most once
/// per ``CinematicCamera/detectionInterval`` and only while the search is idle; it plans as
/// ``SmallFaceLook`` says from the newest look's subjects and its own last faces, and its faces
/// go to the next detection, once, while they are at most ``SmallFaceLook/maximumAge`` old. A
/// far face found again after a slow search takes its id back (``SubjectTracker/recallTime``).
final class SmallFaceWorker: @unchecked Sendable {
    private struct Job {
        var picture: VideoFrame
        var subjects: [CinematicSubject]
    }

    private let vision: CinematicVision
    private let slot = ConsumerQueue<Job>(name: "cinematic small faces", capacity: 1, policy: .dropOldest) { _ in true }
    private let busy = Locked(false)
    private let found = Locked<(time: MediaTime, faces: [SubjectObservation])?>(nil)
    private let failure = Locked<(any Error)?>(nil)
    private var copier: PictureConverter?
    private var lastHanded: MediaTime?
    private var thread: WorkerThread?

    init(vision: CinematicVision) {
        self.vision = vision
    }

    /// Hands a copy of `frame` over when the search is idle and the last was handed at least
    /// ``SmallFaceLook/searchInterval`` ago; `subjects` are the newest look's. Rethrows the
    /// search's failure.
    func offer(_ frame: VideoFrame, subjects: [CinematicSubject]) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        let time = frame.captureTime
        if let lastHanded, time >= lastHanded, time - lastHanded < SmallFaceLook.searchInterval { return }
        guard !busy.withLock({ $0 }) else { return }
        startIfNeeded()
        lastHanded = time
        if copier?.width != frame.width || copier?.height != frame.height { copier = PictureConverter(width: frame.width, height: frame.height) }
        busy.withLock { $0 = true }
        _ = slot.push(Job(picture: try copier!.convert(frame), subjects: subjects))
    }

    /// The faces found since the last call, when at most ``SmallFaceLook/maximumAge`` older than
    /// `time` (any thread).
    func take(at time: MediaTime) -> [SubjectObservation] {
        guard let result = found.withLock({ value in defer { value = nil }; return value }),
              time >= result.time, time - result.time <= SmallFaceLook.maximumAge else { return [] }
        return result.faces
    }

    func stop() {
        slot.close()
        thread?.join()
    }

    private func startIfNeeded() {
        guard thread == nil else { return }
        let slot = self.slot, vision = self.vision, busy = self.busy, found = self.found, failure = self.failure
        thread = WorkerThread.run(name: "reel.cinematic.small-faces") {
            _ = WorkerThread.lowerCurrentPriority(nice: 10)
            var searches = 0
            // The search's own small faces last found: looked round again whether or not the
            // tracker has taken them yet (their ids are the tracker's, not these).
            var own: [CinematicSubject] = []
            while let job = slot.pop() {
                do {
                    let frame = job.picture
                    let faces = try frame.withWritablePlanes { planes in
                        let picture = DetectorPicture(planes, width: frame.width, height: frame.height)
                        let plan = SmallFaceLook().plan(detection: searches, subjects: SmallFaceLook.unseen(own, among: job.subjects) + job.subjects,
                                                        width: frame.width, height: frame.height)
                        return try vision.smallFaces(in: picture, plan: plan)
                    }
                    own = faces.map { CinematicSubject(id: 0, kind: .face, bounds: $0.bounds, prominence: 0) }
                    searches += 1
                    found.withLock { $0 = (frame.captureTime, faces) }
                    busy.withLock { $0 = false }
                } catch {
                    failure.withLock { $0 = error }
                    return
                }
            }
        }
    }
}

/// The vision on its own thread ("reel.cinematic.vision"): at most 15 pictures a second are
/// handed over (``offer(_:cells:)``); the newest waits in a slot of one (an older one is
/// replaced), is reduced to at most 640 wide, looked at, and its look kept with the few before
/// it (``LookHistory``). A picture is rendered with the look nearest its time: the real-time
/// source holds each picture until a look at or after it exists (``LookHold``), so that is
/// seldom more than a picture or two away; a caller that does not hold gets the newest, one to
/// six pictures older. The first picture waits for the first look in any case (at most
/// ``firstLookWait``): with nothing looked at yet there is no focus, so the first pictures went
/// out sharp and the blur came in one step a few pictures later.
final class VisionWorker: @unchecked Sendable {
    /// The widest picture the vision looks at (its models work at 256 and 320; the matte's
    /// guide at the map's size, a quarter of the picture's width).
    static let maxWidth = 640
    /// The shortest time between two looks: 1/15 s at first (half of 30 fps: more would take
    /// the CPU the pictures need), longer while the pictures do not keep up (``VisionRate``).
    /// Used by the picture thread only.
    var minimumInterval = VisionRate().interval

    private let looker: Looker
    /// The small-face search beside it (nil with the cascade fallback).
    private let smallFaces: SmallFaceWorker?
    private let slot = ConsumerQueue<(VideoFrame, (width: Int, height: Int))>(name: "cinematic vision", capacity: 1, policy: .dropOldest) { _ in true }
    private let looks = LookHistory()
    private var waitedForFirst = false
    /// The longest the first picture waits for its look.
    static let firstLookWait: TimeInterval = 0.5
    private let failure = Locked<(any Error)?>(nil)
    private var reducer: PictureConverter?
    private var thread: WorkerThread?
    private var lastHanded: MediaTime?
    /// The newest picture offered (handed over or not).
    private var lastOffered: MediaTime?

    init(vision: CinematicVision) throws {
        looker = try Looker(vision: vision)
        smallFaces = vision.looksForSmallFaces ? SmallFaceWorker(vision: vision) : nil
    }

    /// Hands `frame` over (a reduced copy) when the vision is due to look again; rethrows the
    /// vision's failure. A picture held for a later look (``LookHold``) is offered as it comes.
    func offer(_ frame: VideoFrame, cells: (width: Int, height: Int)) throws {
        if let error = failure.withLock({ $0 }) { throw error }
        startIfNeeded()
        let time = frame.captureTime
        lastOffered = time
        if let lastHanded, time >= lastHanded, time - lastHanded < minimumInterval { return }
        lastHanded = time
        let width = min(frame.width, Self.maxWidth) & ~1
        let height = max(2, Int((Double(frame.height) * Double(width) / Double(frame.width) / 2).rounded()) * 2)
        if reducer?.width != width || reducer?.height != height { reducer = PictureConverter(width: width, height: height) }
        // The small-face search pauses while the vision is slowed: the pictures come first.
        if minimumInterval <= VisionRate().interval { try smallFaces?.offer(frame, subjects: looks.newest.subjects) }
        _ = slot.push((try reducer!.convert(frame), cells))
    }

    /// Whether a look of a picture at or after `time` exists.
    func hasLook(atOrAfter time: MediaTime) -> Bool { looks.newestTime.map { $0 >= time } ?? false }

    /// Waits for a look of a picture at or after `time`, at most `timeout` seconds.
    func waitForLook(atOrAfter time: MediaTime, timeout: TimeInterval) -> Bool {
        looks.wait(forAtOrAfter: time, until: Date(timeIntervalSinceNow: timeout))
    }

    /// The look for `frame`: offered first if it was not (a caller that does not hold its
    /// pictures), the first picture waiting for the first look, then the look nearest its time.
    func look(at frame: VideoFrame, cells: (width: Int, height: Int)) throws -> Look {
        if lastOffered.map({ frame.captureTime > $0 }) ?? true { try offer(frame, cells: cells) }
        if !waitedForFirst {
            waitedForFirst = true
            looks.waitForAny(until: Date(timeIntervalSinceNow: Self.firstLookWait))
        }
        if let error = failure.withLock({ $0 }) { throw error }
        return looks.nearest(to: frame.captureTime)
    }

    func stop() {
        slot.close()
        thread?.join()
        smallFaces?.stop()
    }

    private func startIfNeeded() {
        guard thread == nil else { return }
        let slot = self.slot, looker = self.looker, looks = self.looks, failure = self.failure
        let smallFaces = self.smallFaces
        thread = WorkerThread.run(name: "reel.cinematic.vision") {
            defer { looks.close() }
            while let (frame, cells) = slot.pop() {
                do {
                    let look = try frame.withWritablePlanes { planes in
                        try looker.look(at: DetectorPicture(planes, width: frame.width, height: frame.height), time: frame.captureTime,
                                        cells: cells, small: smallFaces.map { .worker($0) } ?? .none)
                    }
                    looks.add(look)
                } catch {
                    failure.withLock { $0 = error }
                    return
                }
            }
        }
    }
}

/// The vision's recent looks (a few, oldest first), added on its thread and read on the
/// picture thread; a wait for the first one ends when the vision stops or fails.
final class LookHistory: @unchecked Sendable {
    /// Looks kept: enough to span the longest hold (``LookHold/maximum``) at 15 looks a second.
    static let kept = 8
    private let condition = NSCondition()
    private var looks: [Look] = []
    private var closed = false

    func add(_ look: Look) {
        condition.lock()
        looks.append(look)
        if looks.count > Self.kept { looks.removeFirst(looks.count - Self.kept) }
        condition.broadcast()
        condition.unlock()
    }

    /// No more looks come (the vision stopped or failed).
    func close() {
        condition.lock()
        closed = true
        condition.broadcast()
        condition.unlock()
    }

    var newest: Look {
        condition.lock()
        defer { condition.unlock() }
        return looks.last ?? Look()
    }

    var newestTime: MediaTime? {
        condition.lock()
        defer { condition.unlock() }
        return looks.last?.time
    }

    /// The look nearest `time` (``LookHold/nearest(_:to:)``); an empty look before the first.
    func nearest(to time: MediaTime) -> Look {
        condition.lock()
        defer { condition.unlock() }
        return LookHold.nearest(looks.map { $0.time ?? .zero }, to: time).map { looks[$0] } ?? Look()
    }

    /// Waits until there is a look, the vision stopped, or `deadline`.
    func waitForAny(until deadline: Date) {
        condition.lock()
        defer { condition.unlock() }
        while looks.isEmpty && !closed {
            if !condition.wait(until: deadline) { return }
        }
    }

    /// Waits until there is a look of a picture at or after `time`; false when the vision
    /// stopped or `deadline` came first.
    func wait(forAtOrAfter time: MediaTime, until deadline: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !(looks.last?.time.map { $0 >= time } ?? false) {
            if closed || !condition.wait(until: deadline) { return looks.last?.time.map { $0 >= time } ?? false }
        }
        return true
    }
}

/// Where the camera's looks come from.
enum Looking {
    /// In line; with `smallFaces`, each detection looks for them in the picture.
    case inline(Looker, smallFaces: Bool)
    case worker(VisionWorker)

    func look(at picture: DetectorPicture, frame: VideoFrame, cells: (width: Int, height: Int)) throws -> Look {
        switch self {
        case let .inline(looker, smallFaces):
            try looker.look(at: picture, time: frame.captureTime, cells: cells, small: smallFaces ? .inline(picture) : .none)
        case let .worker(worker): try worker.look(at: frame, cells: cells)
        }
    }

    /// Hands `frame` to the vision's thread when it is due (in line: nothing to do).
    func offer(_ frame: VideoFrame, cells: (width: Int, height: Int)) throws {
        if case let .worker(worker) = self { try worker.offer(frame, cells: cells) }
    }

    /// Whether a look of a picture at or after `time` exists (in line: always).
    func hasLook(atOrAfter time: MediaTime) -> Bool {
        switch self {
        case .inline: true
        case let .worker(worker): worker.hasLook(atOrAfter: time)
        }
    }
}

extension DetectorPicture {
    /// The yuv420p picture of three writable planes (``VideoFrame/withWritablePlanes(_:)``'s).
    init(_ planes: [(base: UnsafeMutablePointer<UInt8>, stride: Int)], width: Int, height: Int) {
        self.init(yuv420p: (.init(base: planes[0].base, stride: planes[0].stride), .init(base: planes[1].base, stride: planes[1].stride),
                            .init(base: planes[2].base, stride: planes[2].stride)), width: width, height: height)
    }
}
