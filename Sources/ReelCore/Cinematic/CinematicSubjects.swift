/// What the cinematic camera can focus on (docs/behaviour.md §3: human faces and bodies, cat
/// heads).
public enum SubjectKind: String, Sendable, Hashable, CaseIterable, Codable {
    /// A human face.
    case face
    /// A human upper body (head and shoulders), found when the face is not.
    case upperBody
    /// A cat's face (OpenCV's cat-face cascade).
    case catFace

    /// How much a subject of this kind draws the eye, all else equal (faces first: the
    /// original's default focuses the main face).
    public var weight: Double {
        switch self {
        case .face: 1.0
        case .catFace: 0.8
        case .upperBody: 0.6
        }
    }

    /// The share of the box a head takes: prominence compares heads, so a body's large box
    /// does not outweigh a face of the same size (a face box is the face; an upper body's head
    /// is about a third of its width and 0.4 of its height).
    public var headShare: Double {
        switch self {
        case .face, .catFace: 1.0
        case .upperBody: 0.4 / 3
        }
    }
}

/// One thing a detector saw in one picture.
public struct SubjectObservation: Sendable, Hashable {
    /// Its kind.
    public var kind: SubjectKind
    /// Its box, normalized, origin top-left.
    public var bounds: NormalizedRect
    /// The detector's confidence, 0…1.
    public var score: Double

    /// An observation.
    public init(kind: SubjectKind, bounds: NormalizedRect, score: Double = 1) {
        self.kind = kind
        self.bounds = bounds
        self.score = score
    }
}

/// A subject with an identity that lasts across pictures (the metadata the preview draws and
/// the focus controller follows).
public struct CinematicSubject: Sendable, Hashable, Identifiable {
    /// Stable while the subject is tracked; never reused.
    public var id: Int
    /// Its kind.
    public var kind: SubjectKind
    /// Its box, normalized, origin top-left.
    public var bounds: NormalizedRect
    /// How much it draws the eye (``SubjectTracker/prominence(of:kind:score:)``).
    public var prominence: Double

    /// A subject.
    public init(id: Int, kind: SubjectKind, bounds: NormalizedRect, prominence: Double) {
        self.id = id
        self.kind = kind
        self.bounds = bounds
        self.prominence = prominence
    }
}

/// Gives detections stable ids: each tracked subject's box is predicted to the new picture's
/// time from its last two sightings (constant velocity), and each observation joins the
/// subject of its kind whose prediction — or whose last sighting — it is nearest to, within
/// one box size (``NormalizedRect/distanceInBoxes(to:)`` ≤ ``maxJump``), nearest pairs first.
/// The last sighting counts too because a still subject's "velocity" is the detector's jitter:
/// carried over a gap of several detections it could move the prediction more than a box
/// away. Observations left over are new subjects; a subject not seen is kept, at its
/// prediction, for ``holdTime`` and through at least ``holdLooks`` looks for its kind (a missed
/// detection or a turned head must not change the id; the cascades for bodies and cats look
/// less often than the face detector, so one missed look of theirs outlasts the time), then
/// dropped from the subjects — but remembered for ``recallTime``: an observation of its
/// kind within one box size of where it was last seen, of a like size, takes its id back. A
/// small or far face that the detector finds in one detection and not the next keeps one id for
/// the whole clip, whatever the gaps.
public struct SubjectTracker: Sendable, Equatable {
    /// How long an unseen subject keeps its id.
    public static let holdTime = MediaTime(value: 1, timescale: 2)
    /// How many looks for its kind an unseen subject must miss, too, before it is dropped.
    public static let holdLooks = 2
    /// How long a dropped subject's id can be taken back by an observation where it was last seen.
    public static let recallTime = MediaTime(value: 3, timescale: 1)
    /// How far (in box sizes) from its prediction a subject may be found again.
    public static let maxJump = 1.0
    /// How much larger or smaller (either side) an observation may be than a dropped subject's
    /// last box to take its id back.
    public static let recallSizeRatio = 1.5

    struct Track: Sendable, Equatable {
        /// The subject as reported (between sightings, at its prediction).
        var subject: CinematicSubject
        /// Where and when it was last seen, and the sighting before.
        var seen: Sighting
        var previous: Sighting?
        /// Looks for its kind since it was last seen.
        var misses = 0

        func expired(at time: MediaTime) -> Bool {
            time - seen.time > SubjectTracker.holdTime && misses >= SubjectTracker.holdLooks
        }

        func predicted(at time: MediaTime) -> NormalizedRect {
            guard let previous, previous.time < seen.time else { return seen.bounds }
            let fraction = (time - seen.time).seconds / (seen.time - previous.time).seconds
            let b = seen.bounds
            return b.offsetBy(dx: (b.midX - previous.bounds.midX) * fraction, dy: (b.midY - previous.bounds.midY) * fraction)
        }

        /// How far `observation` is from this subject: from its prediction or from where it was
        /// last seen, whichever is nearer, in the observation's box sizes.
        func distance(to observation: SubjectObservation, at time: MediaTime) -> Double {
            min(observation.bounds.distanceInBoxes(to: predicted(at: time)), observation.bounds.distanceInBoxes(to: seen.bounds))
        }

        /// Whether `observation` may take this dropped subject's id back: its kind, within one box
        /// size of where it was last seen, and of a like size.
        func recalls(_ observation: SubjectObservation) -> Bool {
            let ratio = (observation.bounds.area / max(seen.bounds.area, 1e-12)).squareRoot()
            return observation.kind == subject.kind && observation.bounds.distanceInBoxes(to: seen.bounds) <= SubjectTracker.maxJump
                && ratio <= SubjectTracker.recallSizeRatio && ratio >= 1 / SubjectTracker.recallSizeRatio
        }
    }

    struct Sighting: Sendable, Equatable {
        var bounds: NormalizedRect
        var time: MediaTime
    }

    private(set) var tracks: [Track] = []
    /// Subjects dropped less than ``recallTime`` ago, newest last.
    private(set) var dropped: [Track] = []
    private var nextID = 1

    /// An empty tracker; ids start at 1.
    public init() {}

    /// The prominence rule: the box's area (its share of the picture), more near the middle
    /// (×1 at the centre down to ×0.5 at a corner), times the kind's head share and weight and the score.
    public static func prominence(of bounds: NormalizedRect, kind: SubjectKind, score: Double) -> Double {
        let dx = bounds.midX - 0.5, dy = bounds.midY - 0.5
        let offCentre = min(1, (dx * dx + dy * dy).squareRoot() / 0.5.squareRoot())
        return bounds.area * kind.headShare * (1 - 0.5 * offCentre) * kind.weight * max(0, min(1, score))
    }

    /// The subjects after the picture at `time`, in which `observations` were made by looking
    /// for the kinds `lookedFor` (nil: every kind); most prominent first. A subject of a kind not
    /// looked for is carried at its prediction and does not age.
    public mutating func update(_ observations: [SubjectObservation], lookedFor: Set<SubjectKind>? = nil,
                                at time: MediaTime) -> [CinematicSubject] {
        var pairs: [(track: Int, observation: Int, distance: Double)] = []
        for (t, track) in tracks.enumerated() {
            for (o, observation) in observations.enumerated() where observation.kind == track.subject.kind {
                let distance = track.distance(to: observation, at: time)
                if distance <= Self.maxJump { pairs.append((t, o, distance)) }
            }
        }
        pairs.sort { ($0.distance, $0.track, $0.observation) < ($1.distance, $1.track, $1.observation) }
        var trackTaken = Set<Int>(), observationTaken = Set<Int>()
        for pair in pairs where !trackTaken.contains(pair.track) && !observationTaken.contains(pair.observation) {
            trackTaken.insert(pair.track)
            observationTaken.insert(pair.observation)
            let observation = observations[pair.observation]
            var track = tracks[pair.track]
            track.previous = track.seen
            track.seen = Sighting(bounds: observation.bounds, time: time)
            track.misses = 0
            track.subject.bounds = observation.bounds
            track.subject.prominence = Self.prominence(of: observation.bounds, kind: observation.kind, score: observation.score)
            tracks[pair.track] = track
        }
        for (t, track) in tracks.enumerated() where !trackTaken.contains(t) {
            tracks[t].subject.bounds = track.predicted(at: time)
            if lookedFor?.contains(track.subject.kind) ?? true { tracks[t].misses += 1 }
        }
        dropped += tracks.filter { $0.expired(at: time) }
        tracks.removeAll { $0.expired(at: time) }
        dropped.removeAll { time - $0.seen.time > Self.recallTime || time < $0.seen.time }
        let recalled = recall(observations.indices.filter { !observationTaken.contains($0) }, of: observations)
        var back: [Track] = []
        for o in observations.indices where !observationTaken.contains(o) {
            let observation = observations[o]
            let prominence = Self.prominence(of: observation.bounds, kind: observation.kind, score: observation.score)
            let sighting = Sighting(bounds: observation.bounds, time: time)
            if let d = recalled[o] {
                var track = dropped[d]
                track.subject.bounds = observation.bounds
                track.subject.prominence = prominence
                // Its motion from before the gap says nothing about now.
                (track.seen, track.previous, track.misses) = (sighting, nil, 0)
                back.append(track)
                continue
            }
            let subject = CinematicSubject(id: nextID, kind: observation.kind, bounds: observation.bounds, prominence: prominence)
            nextID += 1
            tracks.append(Track(subject: subject, seen: sighting, previous: nil))
        }
        dropped.removeAll { track in back.contains { $0.subject.id == track.subject.id } }
        tracks += back
        return subjects
    }

    /// Which dropped subject each of `candidates` (indices into `observations`) takes the id of:
    /// those it may take back (``Track/recalls(_:)``), nearest pairs first, each id once.
    private func recall(_ candidates: [Int], of observations: [SubjectObservation]) -> [Int: Int] {
        var pairs: [(observation: Int, dropped: Int, distance: Double)] = []
        for o in candidates {
            for (d, track) in dropped.enumerated() where track.recalls(observations[o]) {
                pairs.append((o, d, observations[o].bounds.distanceInBoxes(to: track.seen.bounds)))
            }
        }
        pairs.sort { ($0.distance, $0.observation, $0.dropped) < ($1.distance, $1.observation, $1.dropped) }
        var taken: [Int: Int] = [:], used = Set<Int>()
        for pair in pairs where taken[pair.observation] == nil && !used.contains(pair.dropped) {
            taken[pair.observation] = pair.dropped
            used.insert(pair.dropped)
        }
        return taken
    }

    /// The subjects tracked now, most prominent first (ties: the older id).
    public var subjects: [CinematicSubject] {
        tracks.map(\.subject).sorted { ($1.prominence, $0.id) < ($0.prominence, $1.id) }
    }
}
