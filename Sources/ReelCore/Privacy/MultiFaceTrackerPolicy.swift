/// The tracker for arbitrary videos (`reel export FILE`, `--all-faces`): every face is tracked,
/// each with its own stable subject id and segments, with the single-subject tracker's
/// expansion, smoothing and hold (``FaceTrackerPolicy``, docs/behaviour.md §1). A value-type
/// state machine on capture time; the caller runs the face detector when ``action(at:)`` says
/// so and hands the faces to ``update(with:at:)``.
///
/// Per detection:
/// - **Association** (greedy, deterministic): a face belongs to a live track when its
///   expanded box overlaps where the track's face should be now (its last detection, not
///   smoothed, moved on by its motion between its last two detections, for at most 0.4 s),
///   or where it was last detected (a face that stops), with IoU ≥ 0.3, or,
///   failing any overlap that good, when the two centres are within one box size (widths
///   across, heights up and down: a fast move, or a change of speed) — 2.5 box sizes for a
///   track seen only once, whose motion is not known yet (a face crossing the picture in 1 s).
///   Candidate pairs are taken best first (higher IoU, then nearer centre, then lower track
///   id); each track and each face is used once.
/// - **Matched**: expanded (rolled faces: ``FaceTrackerSettings/expanded(face:)-(Detection)``)
///   and smoothed (`lerp(previous, new, 0.6)`) within the segment; the box keeps at least
///   ``FaceTrackerSettings/shrinkLimit`` of its previous width and height (a face turning
///   away is detected smaller than its head); a face found more than a quarter of a box away
///   from where its motion put it gets the box round both places (either may be right). A track coming back from its widened estimate
///   starts a new segment and is neither smoothed nor held to its old size.
/// - **Unmatched track walking out** (``FaceMotion``): its box moves on with its velocity,
///   growing, same segment, until it has wholly left the picture (that box is still handed
///   out once, so the pictures before it follow the face out); then the track ends.
/// - **Other unmatched tracks**: held (kind `.face`, same segment) up to 1.5 s after it was
///   last seen, widening over the hold towards the estimate's width and growing by
///   ``FaceTrackerSettings/holdGrowth`` a second in height (a face that turned away is near
///   where it was, not exactly there); a face whose motion is known gets the box whose
///   ellipse holds both that box's and the one where its motion has taken it since (a small
///   face crossing a large one at 190 px/s was lost in front of it and came out of its held
///   box, shown for 11 pictures); then the last face box widened × 2 sideways (kind
///   `.widenedFace`, a new segment) for ``FaceTrackerSettings/lostTrackEstimate`` (3 s); then
///   the track ends and gives no more boxes. A track seen at one detection only (most often a
///   detector's false find) ends after the hold, without the widened estimate. Upper bodies are not used here: with several
///   people a body cannot be told to belong to a face.
/// - **Unmatched face**: a new track with the next subject id (0, 1, 2, … never reused),
///   taken left to right.
/// - **No default region**: an arbitrary video may show nobody, so nothing is covered before
///   the first face.
/// - **Segments**: numbers are unique across all subjects of the track (one counter), so a
///   segment number alone names it in `reel review`.
/// - Boxes handed out are not clamped: a face at the edge keeps its whole box (the mosaic's
///   ellipse keeps its shape, and the part outside draws nothing).
public struct MultiFaceTrackerPolicy: Sendable, Equatable {
    /// One face being tracked.
    private struct Track: Sendable, Equatable {
        var subject: Int
        var segment: Int
        var kind: FaceTrackSample.Kind
        /// The unclamped box of the current segment.
        var box: NormalizedRect
        /// The unclamped box at the last detection.
        var lastFaceBox: NormalizedRect
        var lastSeen: MediaTime
        /// The expanded box as detected last (not smoothed) and the face's motion (from its
        /// last two detections; zero for a new face).
        var motion: FaceMotion
        /// Whether the motion was measured (the face was matched at two detections at most
        /// ``MultiFaceTrackerPolicy/predictionHorizon`` apart).
        var motionKnown = false
        /// How many detections found this face. One: perhaps no face at all (a false find).
        /// Counted apart from ``motionKnown``, which a real face loses when it is found again
        /// after a gap.
        var sightings = 1

        /// Where the face should be at `time` if it kept moving as it did (for at most
        /// ``MultiFaceTrackerPolicy/predictionHorizon``: an old velocity says little).
        func predicted(at time: MediaTime) -> NormalizedRect {
            motion.estimate(after: min((time - lastSeen).seconds, MultiFaceTrackerPolicy.predictionHorizon), growth: 0)
        }
    }

    /// How far ahead a track's motion is trusted when matching faces (two detections).
    static let predictionHorizon = 0.4

    /// The rules' numbers.
    public let settings: FaceTrackerSettings
    /// The boxes of the live tracks for the frames since the last detection, by subject.
    public private(set) var current: [FaceBox] = []
    private var cadence: DetectionCadence
    private var tracks: [Track] = []
    private var nextSubject = 0
    private var nextSegment = 0

    /// A tracker that has seen nothing yet.
    public init(settings: FaceTrackerSettings = .default) {
        self.settings = settings
        self.cadence = DetectionCadence(interval: settings.cadence)
    }

    /// Whether a face detection is due for the frame captured at `time` (every 0.2 s, the
    /// first frame always). Does not change the state.
    public func isDetectionDue(at time: MediaTime) -> Bool {
        cadence.isDue(at: time)
    }

    /// Applies the rules to the faces found in the frame captured at `time` (other kinds are
    /// ignored) and returns the live tracks' boxes, by subject (also in ``current``).
    @discardableResult
    public mutating func update(with detections: [Detection], at time: MediaTime) -> [FaceBox] {
        cadence.record(time)
        let faces = detections.filter { $0.kind == .face && !$0.box.isEmpty }.map { settings.expanded(face: $0) }
        var faceUsed = Set<Int>()
        var live: [Track] = []
        let matches = associate(faces, at: time)
        for (t, var track) in tracks.enumerated() {
            if let f = matches[t] {
                faceUsed.insert(f)
                apply(faces[f], to: &track, at: time)
            } else if !age(&track, at: time) {
                continue
            }
            live.append(track)
        }
        // New faces, left to right.
        let newFaces = faces.indices.filter { !faceUsed.contains($0) }
            .sorted { (faces[$0].midX, faces[$0].midY) < (faces[$1].midX, faces[$1].midY) }
        for f in newFaces {
            live.append(Track(subject: nextSubject, segment: takeSegment(), kind: .face, box: faces[f], lastFaceBox: faces[f], lastSeen: time,
                              motion: FaceMotion(box: faces[f])))
            nextSubject += 1
        }
        tracks = live.sorted { $0.subject < $1.subject }
        current = tracks.map { FaceBox(subject: $0.subject, segment: $0.segment, kind: $0.kind, box: $0.box) }
        return current
    }

    /// Which face each track gets (track index → face index): candidate pairs best first
    /// (good overlaps by IoU, then centre distance, then subject), each used once.
    private func associate(_ faces: [NormalizedRect], at time: MediaTime) -> [Int: Int] {
        var pairs: [(track: Int, face: Int, iou: Double, distance: Double)] = []
        for (t, track) in tracks.enumerated() {
            // Compared with where the face should be now (its last detection moved on by its
            // motion), not with the smoothed box, which lags a moving face.
            // Also where it was last seen: a face that stops is not where its motion goes.
            let expected = track.predicted(at: time), last = track.motion.box
            // The reach in the track's box sizes (widths across, heights up and down).
            let reach = track.motionKnown ? settings.matchCentreDistance : settings.newTrackMatchDistance
            for (f, face) in faces.enumerated() {
                let iou = max(expected.intersectionOverUnion(face), last.intersectionOverUnion(face))
                let distance = min(expected.distanceInBoxes(to: face), last.distanceInBoxes(to: face))
                if iou >= settings.matchIoU || distance <= reach { pairs.append((t, f, iou, distance)) }
            }
        }
        pairs.sort { a, b in
            let (aGood, bGood) = (a.iou >= settings.matchIoU, b.iou >= settings.matchIoU)
            if aGood != bGood { return aGood }
            if aGood, a.iou != b.iou { return a.iou > b.iou }
            if a.distance != b.distance { return a.distance < b.distance }
            if a.track != b.track { return tracks[a.track].subject < tracks[b.track].subject }
            return a.face < b.face
        }
        var matches: [Int: Int] = [:], faceUsed = Set<Int>()
        for pair in pairs where matches[pair.track] == nil && !faceUsed.contains(pair.face) {
            matches[pair.track] = pair.face
            faceUsed.insert(pair.face)
        }
        return matches
    }

    /// A track found again: smoothed within its segment (and kept from shrinking too fast),
    /// or a new segment after an estimate; its motion measured.
    private mutating func apply(_ face: NormalizedRect, to track: inout Track, at time: MediaTime) {
        track.sightings += 1
        if track.kind == .face {
            var box = settings.smoothed(previous: track.box, new: face)
            // Found far from where its motion said (more than a quarter of a box): either may
            // be right (a face that stopped, or a false find beside it), so cover both.
            if track.motionKnown {
                let expected = track.predicted(at: time)
                if expected.centreDistance(to: face) > 0.25 * expected.width { box = box.union(expected) }
            }
            let least = settings.shrinkLimit
            if box.width < track.box.width * least || box.height < track.box.height * least {
                box = NormalizedRect(midX: box.midX, midY: box.midY,
                                     width: max(box.width, track.box.width * least), height: max(box.height, track.box.height * least))
            }
            track.box = box
        } else {
            // Back from an estimate: its old motion is stale.
            track.kind = .face
            track.segment = takeSegment()
            track.box = face
            track.motion = FaceMotion(box: face)
            track.motionKnown = false
            track.lastFaceBox = face
            track.lastSeen = time
            return
        }
        track.lastFaceBox = track.box
        let dt = (time - track.lastSeen).seconds
        if dt > 0, dt <= Self.predictionHorizon {
            track.motion = FaceMotion(box: face, dx: (face.midX - track.motion.box.midX) / dt, dy: (face.midY - track.motion.box.midY) / dt)
            track.motionKnown = true
        } else {
            // Seen again after a long gap: where it went in between says little of its speed now.
            track.motion = FaceMotion(box: face)
            track.motionKnown = false
        }
        track.lastSeen = time
    }

    /// A track not found at `time`: walking out, held, widened, or ended (false).
    private mutating func age(_ track: inout Track, at time: MediaTime) -> Bool {
        let lost = time - track.lastSeen
        if lost > settings.hold + settings.lostTrackEstimate { return false }
        if track.kind == .face, track.motion.isLeaving(within: settings.leavingHorizon.seconds) {
            // Reported once more when it has just left (drawing nothing), so the pictures since
            // the last detection follow it out instead of keeping its last box; then it ends.
            let wasIn = track.box.meetsPicture
            track.box = track.motion.estimate(after: lost.seconds, growth: settings.leavingGrowth)
            return wasIn
        }
        // Seen once and never again: most likely no face at all (a detector's false find);
        // held like any face, but not estimated further.
        if lost > settings.hold, track.kind == .face, track.sightings < 2 { return false }
        if lost <= settings.hold, track.kind == .face {
            // Held, widening over the hold to the estimate's width (no jump when it takes
            // over), and growing a little in height.
            let share = lost.seconds / settings.hold.seconds
            let held = track.lastFaceBox.scaled(width: 1 + (settings.widenFactor - 1) * share, height: 1 + settings.holdGrowth * lost.seconds)
            // A face that was moving may move on where the detector cannot see it (crossing
            // another face, turned, blurred): the box reaches from where it was to where its
            // motion takes it, so it covers the face whether it stopped or went on.
            track.box = track.motionKnown ? held.ellipseUnion(track.motion.estimate(after: lost.seconds, growth: 0)) : held
            return true
        }
        if lost > settings.hold, track.kind == .face {
            track.kind = .widenedFace
            track.segment = takeSegment()
            track.box = settings.widened(lastFace: track.lastFaceBox)
        }
        return true
    }

    /// The live tracks' boxes carried on to `time` after the last detection, for pictures
    /// past it that no later detection will cover (the end of a video): a face whose motion
    /// is known moves on with it, growing as a leaving face does; any other is held.
    public func projected(to time: MediaTime) -> [FaceBox] {
        tracks.compactMap { track in
            var box = track.box
            if track.kind == .face, track.motionKnown, let last = cadence.lastDetection, time > last {
                box = track.motion.estimate(after: (time - track.lastSeen).seconds, growth: settings.leavingGrowth)
            }
            guard box.meetsPicture else { return nil }
            return FaceBox(subject: track.subject, segment: track.segment, kind: track.kind, box: box)
        }
    }

    /// The boxes where the live tracks' faces should be at `time`, for the tracks whose face
    /// box is lower than `height` (normalized): where a closer look may find a small face
    /// the whole-picture detection cannot see.
    public func smallFaces(below height: Double, at time: MediaTime) -> [NormalizedRect] {
        tracks.filter { $0.kind == .face && $0.motion.box.height < height }.map { $0.predicted(at: time) }
    }

    /// When a detection is due, calls `detect` and applies its faces; returns the live
    /// tracks' boxes for the frame captured at `time`.
    public mutating func advance(at time: MediaTime, detect: () throws -> [Detection]) rethrows -> [FaceBox] {
        guard isDetectionDue(at: time) else { return current }
        return update(with: try detect(), at: time)
    }

    private mutating func takeSegment() -> Int {
        defer { nextSegment += 1 }
        return nextSegment
    }
}
