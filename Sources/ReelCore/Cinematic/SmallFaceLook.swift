/// The cinematic camera's closer look for small, far faces: the face detector looks at the
/// picture shrunk to 320 wide, where a face under about 80 px at 1080p (40 px at 720p) is too
/// few pixels to be found. So at some detections a finer detector also looks at the picture at
/// full resolution:
/// - every ``every``-th detection (once a second at 5 detections a second), the whole picture at
///   the finer detector's width (960: a 30 px face at 1080p is 15 px there);
/// - at the detections between, only round the small faces already tracked (a square crop of
///   ``cropSide`` pixels about each, at most ``maximumCrops`` of them, the largest faces first), so
///   a far face found by the whole search is found again every 0.2 s and keeps its id
///   (``SubjectTracker`` holds an unseen subject 0.5 s, less than the second between whole
///   searches).
/// The rule of ReelPrivacy's small-face search for the privacy export, with a cap on the crops:
/// the camera runs in real time beside the renderer and the encoder. In line (`--fast`) each
/// detection looks; in real time the search runs beside the vision on a thread of its own at a
/// lower priority, at most every ``searchInterval``, and a detection takes the faces it found
/// (at most ``maximumAge`` old).
public struct SmallFaceLook: Sendable, Equatable {
    /// Detections from one whole-picture search to the next.
    public var every = 5
    /// A tracked face lower than this share of the picture's height is small: about what the
    /// 320-wide pass no longer finds reliably (80 px of 1080).
    public var smallHeight = 0.075
    /// The tallest face the finer look reports (a share of the picture's height): a little over
    /// ``smallHeight``, so the two passes overlap; larger faces are the usual pass's, whose boxes
    /// are the picture's own (a search's may be a second old).
    public static let largestSearched = 0.09
    /// A crop round a small face is a square this many pixels a side, at full resolution: four
    /// times the largest small face, and always the same size, so the detector's network keeps
    /// its shape (OpenCV sets a network up again, at 100 ms and more, whenever its input's size
    /// changes: crops of each face's own size made every detection with crops cost 160–250 ms
    /// at 1080p instead of about 50).
    public static let cropSide = 320
    /// The most crops at one detection: each costs about a fifth of a whole search.
    public var maximumCrops = 3

    /// In real time, the shortest time between two searches (every other detection: a whole
    /// search every 2 s, crops between; the tracker keeps a far face's id over the gaps, see
    /// ``SubjectTracker/recallTime``). Each search costs 35–130 ms of CPU at 1080p, and the
    /// camera has little to spare at 1080p30 on two cores.
    public static let searchInterval = MediaTime(value: 2, timescale: 5)

    /// The oldest a search's faces may be when a detection takes them (a search beside real-time
    /// work can take a second and more at 1080p on two cores): a small face is far, and moves
    /// little across the picture in that time.
    public static let maximumAge = MediaTime(value: 3, timescale: 2)

    /// The default look.
    public init() {}

    /// What the finer detector looks at, at one detection.
    public enum Plan: Sendable, Equatable {
        /// Nothing more than the usual pass.
        case none
        /// The whole picture.
        case whole
        /// These parts of the picture (normalized, within it), each at full resolution.
        case crops([NormalizedRect])
    }

    /// The plan for detection number `detection` (0 first) of a picture `width` × `height`
    /// pixels, with `subjects` tracked.
    public func plan(detection: Int, subjects: [CinematicSubject], width: Int, height: Int) -> Plan {
        if detection % every == 0 { return .whole }
        let small = subjects.filter { $0.kind == .face && $0.bounds.height < smallHeight }
            .sorted { ($0.bounds.height, $0.id) > ($1.bounds.height, $1.id) }
            .prefix(maximumCrops)
        guard !small.isEmpty, width > 0, height > 0 else { return .none }
        return .crops(small.map { crop(round: $0.bounds, width: width, height: height) })
    }

    /// The crop round `face`: ``cropSide`` pixels a side about its middle, moved inside the
    /// picture where it would cross an edge (the whole side when the picture is smaller).
    func crop(round face: NormalizedRect, width: Int, height: Int) -> NormalizedRect {
        let w = min(1, Double(Self.cropSide) / Double(width)), h = min(1, Double(Self.cropSide) / Double(height))
        let x = min(max(face.midX - w / 2, 0), 1 - w), y = min(max(face.midY - h / 2, 0), 1 - h)
        return NormalizedRect(x: x, y: y, width: w, height: h)
    }

    /// The faces of `found` that none of `tracked` is (their middles apart: ``merge(_:_:)``'s rule).
    public static func unseen(_ found: [CinematicSubject], among tracked: [CinematicSubject]) -> [CinematicSubject] {
        found.filter { face in !tracked.contains { same($0.bounds, face.bounds) } }
    }

    /// The faces of the usual pass (`faces`) with those of the finer look (`small`) that are not
    /// one of them already (a small face whose middle lies in a usual face's box, or the reverse).
    public static func merge(_ faces: [SubjectObservation], _ small: [SubjectObservation]) -> [SubjectObservation] {
        var merged = faces
        for face in small where !merged.contains(where: { same($0.bounds, face.bounds) }) {
            merged.append(face)
        }
        return merged
    }

    private static func same(_ a: NormalizedRect, _ b: NormalizedRect) -> Bool {
        a.contains(x: b.midX, y: b.midY) || b.contains(x: a.midX, y: a.midY)
    }
}
