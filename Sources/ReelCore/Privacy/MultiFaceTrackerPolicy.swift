/// The tracker for arbitrary videos (`reel export FILE`, `--all-faces`): every face is
/// tracked, each with its own stable subject id and segments, with the single-subject
/// tracker's expansion, smoothing and hold (``FaceTrackerPolicy``, spec §1). A value-type
/// state machine on capture time; the caller runs the face detector when ``action(at:)``
/// says so and hands the faces to ``update(with:at:)``.
///
/// Per detection:
/// - **Association** (greedy, deterministic): a face belongs to a live track when its
///   expanded box overlaps where the track's face should be now (its last detection, not
///   smoothed, moved on by its motion between its last two detections) with IoU ≥ 0.3, or,
///   failing any overlap that good, when the two centres are within one box width (a fast
///   move, or a change of speed).
///   Candidate pairs are taken best first (higher IoU, then nearer centre, then lower track
///   id); each track and each face is used once.
/// - **Matched**: expanded and smoothed (`lerp(previous, new, 0.6)`) within the segment; a
///   track coming back from its widened estimate starts a new segment and is not smoothed.
/// - **Unmatched track**: held unchanged (kind `.face`, same segment) up to 1.5 s after it
///   was last seen; then the last face box widened × 2 sideways (kind `.widenedFace`, a new
///   segment) for ``FaceTrackerSettings/lostTrackEstimate`` (3 s); then the track ends and
///   gives no more boxes. Upper bodies are not used here: with several people a body cannot
///   be told to belong to a face.
/// - **Unmatched face**: a new track with the next subject id (0, 1, 2, … never reused),
///   taken left to right.
/// - **No default region**: an arbitrary video may show nobody, so nothing is covered before
///   the first face.
/// - **Segments**: numbers are unique across all subjects of the track (one counter), so a
///   segment number alone names it in `reel review`.
/// - Boxes handed out are clamped to the picture.
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
        /// The expanded box as detected last (not smoothed), and the face's motion in picture
        /// widths and heights per second (from its last two detections; zero for a new face).
        var detected: NormalizedRect
        var velocity: (dx: Double, dy: Double) = (0, 0)

        /// Where the face should be at `time` if it kept moving as it did.
        func predicted(at time: MediaTime) -> NormalizedRect {
            let dt = max(0, (time - lastSeen).seconds)
            return detected.offsetBy(dx: velocity.dx * dt, dy: velocity.dy * dt)
        }

        static func == (a: Track, b: Track) -> Bool {
            a.subject == b.subject && a.segment == b.segment && a.kind == b.kind && a.box == b.box && a.lastFaceBox == b.lastFaceBox
                && a.lastSeen == b.lastSeen && a.detected == b.detected && a.velocity == b.velocity
        }
    }

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
        let faces = detections.filter { $0.kind == .face && !$0.box.isEmpty }.map { settings.expanded(face: $0.box) }

        // Candidate pairs, best first.
        var pairs: [(track: Int, face: Int, iou: Double, distance: Double)] = []
        for (t, track) in tracks.enumerated() {
            // Compared with where the face should be now (its last detection moved on by its
            // motion), not with the smoothed box, which lags a moving face.
            let expected = track.predicted(at: time)
            for (f, face) in faces.enumerated() {
                let iou = expected.intersectionOverUnion(face)
                let distance = expected.centreDistance(to: face)
                if iou >= settings.matchIoU || distance <= settings.matchCentreDistance * expected.width {
                    pairs.append((t, f, iou, distance))
                }
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
        var trackUsed = Set<Int>(), faceUsed = Set<Int>()
        for pair in pairs where !trackUsed.contains(pair.track) && !faceUsed.contains(pair.face) {
            trackUsed.insert(pair.track)
            faceUsed.insert(pair.face)
            var track = tracks[pair.track]
            let face = faces[pair.face]
            if track.kind == .face {
                track.box = settings.smoothed(previous: track.box, new: face)
            } else {
                track.kind = .face
                track.segment = takeSegment()
                track.box = face
            }
            track.lastFaceBox = track.box
            let dt = (time - track.lastSeen).seconds
            if dt > 0 {
                track.velocity = ((face.midX - track.detected.midX) / dt, (face.midY - track.detected.midY) / dt)
            }
            track.detected = face
            track.lastSeen = time
            tracks[pair.track] = track
        }

        // Lost tracks: hold, then the widened estimate, then the end.
        var live: [Track] = []
        for (t, var track) in tracks.enumerated() {
            if !trackUsed.contains(t) {
                let lost = time - track.lastSeen
                if lost > settings.hold + settings.lostTrackEstimate { continue }
                if lost > settings.hold, track.kind == .face {
                    track.kind = .widenedFace
                    track.segment = takeSegment()
                    track.box = settings.widened(lastFace: track.lastFaceBox)
                }
            }
            live.append(track)
        }

        // New faces, left to right.
        let newFaces = faces.indices.filter { !faceUsed.contains($0) }
            .sorted { (faces[$0].midX, faces[$0].midY) < (faces[$1].midX, faces[$1].midY) }
        for f in newFaces {
            live.append(Track(subject: nextSubject, segment: takeSegment(), kind: .face, box: faces[f], lastFaceBox: faces[f], lastSeen: time,
                              detected: faces[f]))
            nextSubject += 1
        }
        tracks = live.sorted { $0.subject < $1.subject }
        current = tracks.map { FaceBox(subject: $0.subject, segment: $0.segment, kind: $0.kind, box: $0.box.clamped()) }
        return current
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
