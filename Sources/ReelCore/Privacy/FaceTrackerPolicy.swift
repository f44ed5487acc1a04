/// The study-cam's face tracker (docs/behaviour.md §1, Face tracker) as a value-type state
/// machine: one subject, positions only, on capture time. No pixels: the caller runs the
/// detectors.
///
/// Per captured frame the caller asks ``action(at:)``. When it says `.detect(request)`, it
/// runs the detectors the request names on that picture and hands their results to
/// ``update(with:at:)``, which applies the rules and returns the new ``current`` box; when it
/// says `.keepCurrent`, the frame gets ``current`` unchanged. ``advance(at:detect:)`` does
/// both in one call.
///
/// The rules, in order, at each detection:
/// - **Cadence**: detect every 0.2 s of capture time, the first frame always
///   (``DetectionCadence``).
/// - **Largest face**: of several faces the largest by area (equal areas: the higher score).
/// - **Expansion**: its box × 1.5 wide, × 1.7 high, centre moved up by 0.1 × the face's
///   height (``FaceTrackerSettings/expanded(face:)``).
/// - **Smoothing**: what is smoothed is the expanded, unclamped box:
///   `box = lerp(previous, expanded, 0.6)` on x, y, width and height, where `previous` is the
///   box of the same segment (also one being held). The first box of a segment (the first
///   detection ever, or a face found again after an estimate) is taken as it is: never
///   smoothed across segments, so a box never flies in from an estimate. Upper-body head
///   estimates are smoothed the same way within their segment.
/// - **Hold**: no face for up to 1.5 s after the last detected face (inclusive) keeps the last
///   box, kind `.face`, same segment — unless the face was walking out of the picture
///   (``FaceMotion``: its box moves on with its velocity from its last two detections,
///   growing, until it has left; a session exported later is as safe at the edges as a file
///   exported now).
/// - **Upper body**: beyond the hold, the request includes upper bodies; the one whose head
///   is nearest the last face is taken, and its head is its top 50 % and middle 75 % of the
///   width (kind `.upperBody`).
/// - **Widened face**: beyond the hold and no upper body: the last face box, width × 2 about
///   its centre, same top and height (kind `.widenedFace`).
/// - **Default region**: no face seen yet: x 0.15, y 0, w 0.7, h 0.45 (kind
///   `.defaultRegion`). Upper bodies are not looked for then (docs/behaviour.md §1 estimates
///   from a body only once a face was lost).
/// - **Stop just below the face** (so notes on the desk stay visible): no estimate reaches
///   below the face it stands for. The head estimate is only the body's top half (it ends at
///   the body's middle, however far down the body box reaches), and the widened box keeps the
///   bottom of the last face box (widened sideways only, never downwards). The face box itself
///   ends 0.25 face heights below the detected chin (the ×1.7 with the centre moved up).
/// - **No clamping**: boxes are handed out whole, also when partly outside the picture (the
///   mosaic's ellipse keeps the face's shape; what lies outside draws nothing), so a face at
///   the border is smoothed like any other. Rolled faces are expanded round their roll
///   (``FaceTrackerSettings/expanded(face:)-(Detection)``).
/// - **Segments**: every change of kind starts a new segment number (0, 1, 2, …); the first
///   box is segment 0.
///
/// Upper-body detections handed in while no body was asked for are ignored, as are face
/// boxes without area.
public struct FaceTrackerPolicy: Sendable, Equatable {
    /// What to do with one frame.
    public enum Action: Sendable, Equatable {
        /// Run the detectors `request` names on this frame, then call ``update(with:at:)``.
        case detect(DetectionRequest)
        /// No detection due: the frame gets ``current``.
        case keepCurrent
    }

    /// The rules' numbers.
    public let settings: FaceTrackerSettings
    /// The box for the frames since the last detection; nil before the first detection.
    public private(set) var current: FaceBox?
    private var cadence: DetectionCadence
    /// The unclamped box of the current segment (what smoothing starts from).
    private var segmentBox: NormalizedRect?
    /// The unclamped box that covered the face at its last detection.
    private var lastFaceBox: NormalizedRect?
    /// Capture time of the last detected face.
    private var lastFaceTime: MediaTime?
    /// The last detected face's expanded box (not smoothed) and its motion.
    private var motion: FaceMotion?

    /// A tracker that has seen nothing yet.
    public init(settings: FaceTrackerSettings = .default) {
        self.settings = settings
        self.cadence = DetectionCadence(interval: settings.cadence)
    }

    /// What to do with the frame captured at `time`: detect (and what to look for), or keep
    /// the current box. Does not change the state.
    public func action(at time: MediaTime) -> Action {
        guard cadence.isDue(at: time) else { return .keepCurrent }
        return .detect(isBeyondHold(at: time) ? .facesAndUpperBodies : .faces)
    }

    /// Applies the rules to what the detectors found in the frame captured at `time` and
    /// returns the new current box (also in ``current``). Counts as the detection for the
    /// cadence, whether or not ``action(at:)`` asked for one.
    @discardableResult
    public mutating func update(with detections: [Detection], at time: MediaTime) -> FaceBox {
        let beyondHold = isBeyondHold(at: time)
        cadence.record(time)
        let faces = detections.filter { $0.kind == .face && !$0.box.isEmpty }
        if let face = FaceTrackerPolicy.largest(faces) {
            let expanded = settings.expanded(face: face)
            lastFaceBox = enter(.face, measured: expanded)
            motion = measuredMotion(of: expanded, at: time)
            lastFaceTime = time
            return current!
        }
        guard let lastFaceBox else {
            enter(.defaultRegion, measured: settings.defaultRegion)
            return current!
        }
        guard beyondHold else {
            // The hold: the last box, kind face, same segment; or, walking out, the box moving on.
            if let motion, let lastFaceTime, current?.kind == .face, motion.isLeaving(within: settings.leavingHorizon.seconds) {
                current!.box = motion.estimate(after: (time - lastFaceTime).seconds, growth: settings.leavingGrowth)
            }
            return current!
        }
        let bodies = detections.filter { $0.kind == .upperBody && !$0.box.isEmpty }.map { settings.head(upperBody: $0.box) }
        if let head = bodies.min(by: { a, b in
            let (da, db) = (a.centreDistance(to: lastFaceBox), b.centreDistance(to: lastFaceBox))
            return da != db ? da < db : a.area > b.area
        }) {
            enter(.upperBody, measured: head)
        } else {
            enter(.widenedFace, measured: settings.widened(lastFace: lastFaceBox))
        }
        return current!
    }

    /// Asks ``action(at:)``; when a detection is due, calls `detect` with the request and
    /// applies its result. Returns the box for the frame captured at `time`.
    public mutating func advance(at time: MediaTime, detect: (DetectionRequest) throws -> [Detection]) rethrows -> FaceBox {
        switch action(at: time) {
        case .keepCurrent where current != nil:
            return current!
        case .keepCurrent:
            return update(with: try detect(.faces), at: time)
        case .detect(let request):
            return update(with: try detect(request), at: time)
        }
    }

    /// The face at `expanded` now, moving as it did since the last detected face (if that was
    /// within the hold; otherwise standing still).
    private func measuredMotion(of expanded: NormalizedRect, at time: MediaTime) -> FaceMotion {
        guard let previous = motion, let lastFaceTime, time > lastFaceTime, time - lastFaceTime <= settings.hold else {
            return FaceMotion(box: expanded)
        }
        let dt = (time - lastFaceTime).seconds
        return FaceMotion(box: expanded, dx: (expanded.midX - previous.box.midX) / dt, dy: (expanded.midY - previous.box.midY) / dt)
    }

    /// Whether the face has been lost for longer than the hold at `time`.
    private func isBeyondHold(at time: MediaTime) -> Bool {
        guard let lastFaceTime else { return false }
        return time - lastFaceTime > settings.hold
    }

    /// Moves to `kind` with the measured box `measured`: smoothed with the segment's box when
    /// the kind stays, taken as it is (and a new segment) when it changes. Returns the
    /// unclamped box.
    @discardableResult
    private mutating func enter(_ kind: FaceTrackSample.Kind, measured: NormalizedRect) -> NormalizedRect {
        let box: NormalizedRect
        let segment: Int
        if let current, current.kind == kind, let previous = segmentBox {
            box = settings.smoothed(previous: previous, new: measured)
            segment = current.segment
        } else {
            box = measured
            segment = current.map { $0.segment + 1 } ?? 0
        }
        segmentBox = box
        current = FaceBox(segment: segment, kind: kind, box: box)
        return box
    }

    /// The largest face by area; equal areas: the higher score, then the first.
    static func largest(_ faces: [Detection]) -> Detection? {
        faces.enumerated().max { a, b in
            if a.element.box.area != b.element.box.area { return a.element.box.area < b.element.box.area }
            if a.element.score != b.element.score { return a.element.score < b.element.score }
            return a.offset > b.offset
        }?.element
    }
}
