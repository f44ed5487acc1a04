/// The export's look-back (docs/privacy.md, Recall first): when a file is exported with faces
/// found as it goes, every picture waits until two more detections (0.4 s of video) have been
/// made after it, so that what those detections found also covers it. The rules, recall first:
///
/// - **Between detections**: a face's boxes are interpolated between the detections that saw
///   it (``FaceTrackTimeline``; the tracker's segments and ids).
/// - **A face first found at a detection** was probably in the picture a little before
///   (turned away, too small, half out, not yet found): its first box covers it from
///   ``depth`` detections earlier.
/// - **A face first found near an edge** (within ``entryReach`` of its own size) may have
///   walked in from there during that time: boxes of its size are also placed along the
///   way from each such edge (its box centred on the edge) to where it was found, at most
///   half a box apart, over the same look-back time. A box sliding from the edge would lead or trail
///   a face that came in faster or slower than evenly; boxes along the whole way cover it
///   however it came.
/// - **A track that ends** (a lost face given up, or walked out) keeps its last box until the
///   detection that ended it.
///
/// Pure rules over detections already made: the exporter feeds each detection's boxes with
/// ``record(time:samples:)`` and emits the pictures before ``settledBefore`` with
/// ``boxes(at:)``. Stand-in subjects (the boxes along the way in) have negative ids, so they
/// never mix with a tracked face.
public struct FaceLookBack: Sendable {
    /// How many detections a picture waits for after it; a new face is covered from this many
    /// detections before it was found.
    public let depth: Int
    /// How many detections back a face first found is covered by default.
    public let shortLookBack: Int
    /// How near an edge a newly found face must be, in its box's size, to get boxes along the
    /// way in from there.
    public let entryReach: Double
    private var ticks: [(time: MediaTime, samples: [FaceTrackSample])] = []
    private var extras: [FaceTrackSample] = []
    private var timeline = FaceTrackTimeline(FaceTrack())
    private var finished = false

    /// Pictures wait for `depth` detections (2: 0.4 s at the 0.2 s cadence); new faces are
    /// covered from `shortLookBack` detections before unless ``record(time:samples:lookBack:)``
    /// says otherwise; boxes along the way in for faces found within `entryReach` box sizes
    /// of an edge.
    public init(depth: Int = 2, shortLookBack: Int = 2, entryReach: Double = 2.5) {
        precondition(depth >= 1, "the look-back needs at least one detection")
        self.depth = depth
        self.shortLookBack = min(depth, max(1, shortLookBack))
        self.entryReach = entryReach
    }

    /// Pictures captured before this time have their final boxes; nil: none yet (or, after
    /// ``finish()``, every picture has).
    public var settledBefore: MediaTime? {
        guard !finished else { return nil }
        return ticks.count >= depth ? ticks[ticks.count - depth].time : nil
    }

    /// When the last detection recorded was made.
    public var lastTime: MediaTime? { ticks.last?.time }

    /// Whether every picture has its final boxes (after ``finish()``).
    public var isFinished: Bool { finished }

    /// Records the boxes the tracker gave at the detection made at `time` (in time order).
    /// Emit the pictures before ``settledBefore`` after each record, before the next: only the
    /// detections those still waiting need are kept.
    /// Faces first found here are covered from `lookBack` detections before (at most
    /// ``depth``; nil: ``shortLookBack``): a closer look that runs every few detections
    /// (small faces) looks back to its previous run.
    public mutating func record(time: MediaTime, samples: [FaceTrackSample], lookBack: Int? = nil) {
        let last = ticks.last?.samples ?? []
        let after = Set(samples.map(\.subject))
        let seen = Set(last.map { FaceSegmentID(subject: $0.subject, segment: $0.segment) })
        let back = min(depth, max(1, lookBack ?? shortLookBack))
        let lookBackStart = ticks.count >= back ? ticks[ticks.count - back].time : ticks.first?.time ?? time
        // A new face, or a face found again after an estimate (a new segment).
        for arrival in samples where !seen.contains(FaceSegmentID(subject: arrival.subject, segment: arrival.segment)) {
            extras += FaceLookBack.held(arrival, from: lookBackStart)
            extras += FaceLookBack.wayIn(for: arrival, from: lookBackStart, reach: entryReach)
        }
        for ended in last where !after.contains(ended.subject) { extras.append(ended.at(time)) }
        ticks.append((time, samples))
        // Keep what the pictures still waiting can need: the last depth + 2 detections.
        if ticks.count > depth + 2 { ticks.removeFirst(ticks.count - depth - 2) }
        // Pictures still waiting are at or after ticks[1]; what they need starts at ticks[0].
        let oldest = ticks[0].time
        extras.removeAll { $0.time < oldest }
        rebuild()
    }

    /// The end of the video: every waiting picture is settled (tracks hold their last boxes).
    public mutating func finish() {
        finished = true
    }

    /// The boxes for the picture captured at `time`.
    public func boxes(at time: MediaTime) -> [FaceBox] {
        timeline.boxes(at: time).filter { $0.subject != FaceLookBack.anchor }
    }

    /// The subject of the empty samples that mark each detection's time, so the timeline
    /// starts and ends with the detections, not with the first and last face (which it would
    /// otherwise hold before and after them).
    static let anchor = Int.min

    private mutating func rebuild() {
        let marks = ticks.map { FaceTrackSample(time: $0.time, segment: 0, kind: .face, box: NormalizedRect(x: 0, y: 0, width: 0, height: 0),
                                                subject: FaceLookBack.anchor) }
        let samples = ticks.flatMap(\.samples) + extras + marks
        timeline = FaceTrackTimeline(FaceTrack(samples: samples.sorted { $0.time < $1.time }))
    }

    /// The stand-in subject for `subject`'s `index`-th extra box (0…15: along the way in;
    /// 15: the box held before the face was found).
    static func standIn(for subject: Int, _ index: Int) -> Int { -1 - (subject * 16 + index) }

    /// `sample`'s box from `start` to the sample's time, as a stand-in subject (the real
    /// subject may have an estimate's segment there, which must stay as it is).
    static func held(_ sample: FaceTrackSample, from start: MediaTime) -> [FaceTrackSample] {
        guard start < sample.time else { return [] }
        let id = standIn(for: sample.subject, 15)
        return [FaceTrackSample(time: start, segment: sample.segment, kind: sample.kind, box: sample.box, subject: id),
                FaceTrackSample(time: sample.time, segment: sample.segment, kind: sample.kind, box: sample.box, subject: id)]
    }

    /// Boxes of `sample`'s size from each edge within `reach` box sizes of it (its box
    /// centred on that edge) to where it was found, at most half a box apart, each held from
    /// `start` to the sample's time. Every such edge, not only the nearest: in a 720p picture
    /// a 150 px face is nearly as near the top as the side it came from.
    static func wayIn(for sample: FaceTrackSample, from start: MediaTime, reach: Double) -> [FaceTrackSample] {
        let box = sample.box
        guard box.width > 0, box.height > 0, start < sample.time else { return [] }
        let edges: [(distance: Double, entry: NormalizedRect, steps: Double)] = [
            (box.x / box.width, box.offsetBy(dx: -box.midX, dy: 0), box.midX / box.width),
            ((1 - box.maxX) / box.width, box.offsetBy(dx: 1 - box.midX, dy: 0), (1 - box.midX) / box.width),
            (box.y / box.height, box.offsetBy(dx: 0, dy: -box.midY), box.midY / box.height),
            ((1 - box.maxY) / box.height, box.offsetBy(dx: 0, dy: 1 - box.midY), (1 - box.midY) / box.height),
        ]
        var result: [FaceTrackSample] = []
        var index = 0
        for edge in edges where edge.distance <= reach {
            let count = max(1, Int((edge.steps / 0.5).rounded(.up)))
            for i in 0..<count where index < 15 {
                let along = edge.entry.interpolated(to: box, fraction: Double(i) / Double(count))
                let ghost = standIn(for: sample.subject, index)
                index += 1
                result.append(FaceTrackSample(time: start, segment: sample.segment, kind: sample.kind, box: along, subject: ghost))
                result.append(FaceTrackSample(time: sample.time, segment: sample.segment, kind: sample.kind, box: along, subject: ghost))
            }
        }
        return result
    }
}

extension FaceTrackSample {
    /// The same sample at another time.
    public func at(_ time: MediaTime) -> FaceTrackSample {
        FaceTrackSample(time: time, segment: segment, kind: kind, box: box, subject: subject)
    }
}
