/// The live stream's privacy hold (`reel live --privacy`; docs/privacy.md, Live streams): every
/// picture waits, before it is encoded, until detections made after it have confirmed or
/// cleared its faces (the export's look-back, ``FaceLookBack``), and never longer than
/// ``Rules/longestHold``. A picture that cannot wait any longer still leaves covered, never
/// bare: when a detection has looked at it or at a later picture, with the boxes it has,
/// widened; when none has (a face may have come into view since the last detection), or the
/// detector has failed, the whole picture is covered.
///
/// Pure rules over detections already made, on a virtual clock: `now` is the capture time of
/// the newest picture seen, so the hold is measured in the stream's own time and the rules
/// are the same whether they run in real time or in a test.
public struct LiveFaceHold: Sendable {
    /// How long and how much a picture may wait, and how a late picture is covered.
    public struct Rules: Sendable, Equatable {
        /// The longest a picture waits for its detections (1 s): the stream's latency grows by
        /// the hold only.
        public var longestHold: MediaTime
        /// The most pictures held at once (about a second of pictures and a few over).
        public var mostPictures: Int
        /// The most bytes of pictures held at once.
        public var mostBytes: Int
        /// How much a box grows on each side, in its own size, when a picture leaves before
        /// its detections have confirmed it (a face moves while the detector is behind).
        public var widening: Double
        /// Late pictures are covered whole until the detections have covered this much of the
        /// stream: at the start every face is new, and one the first detections missed is
        /// found a little later (the look-back covers it from before; a late picture cannot
        /// wait for that).
        public var warmUp: MediaTime

        /// Rules for `framesPerSecond` pictures of `pictureBytes` bytes each: a 1 s hold,
        /// room for that second and a quarter more, boxes widened by a quarter, and the whole
        /// picture covered for the first second of detections.
        public static func live(framesPerSecond: Double, pictureBytes: Int) -> Rules {
            let pictures = Int((max(framesPerSecond, 1) * 1.25).rounded(.up)) + 1
            return Rules(longestHold: MediaTime(value: 1, timescale: 1), mostPictures: pictures, mostBytes: pictures * max(pictureBytes, 1),
                         widening: 0.25, warmUp: MediaTime(value: 1, timescale: 1))
        }

        /// Rules as given.
        public init(longestHold: MediaTime, mostPictures: Int, mostBytes: Int, widening: Double, warmUp: MediaTime) {
            self.longestHold = longestHold
            self.mostPictures = mostPictures
            self.mostBytes = mostBytes
            self.widening = widening
            self.warmUp = warmUp
        }
    }

    /// What a released picture gets.
    public enum Cover: Sendable, Equatable {
        /// Its faces, confirmed or cleared by the detections after it (possibly none).
        case faces([FaceBox])
        /// It left before its detections had confirmed it, one of them having looked at it or
        /// at a later picture: the boxes it has, widened (possibly none, when that detection
        /// found no face).
        case widened([FaceBox])
        /// Nothing can be said of it: the whole picture is covered.
        case wholePicture
    }

    /// Whether the oldest picture waits or leaves now, and with what.
    public enum Decision: Sendable, Equatable {
        /// It waits for more detections.
        case hold
        /// It leaves with this cover.
        case release(Cover)
    }

    /// The rules in force.
    public let rules: Rules
    private var lookBack: FaceLookBack
    private var firstDetection: MediaTime?
    /// Whether the detector has failed (every picture from then on is covered whole).
    public private(set) var detectorFailed = false
    /// Pictures released with widened boxes, and with the whole picture covered.
    public private(set) var widenedPictures = 0, wholePictures = 0
    /// The time of the last detection recorded; nil before the first.
    public var lastDetection: MediaTime? { lookBack.lastTime }

    /// A hold under `rules`, with the export's look-back (`lookBack`: its depth is how many
    /// detections a picture waits for).
    public init(rules: Rules, lookBack: FaceLookBack = FaceLookBack()) {
        self.rules = rules
        self.lookBack = lookBack
    }

    /// Records a detection's boxes (in time order); `lookBack` as ``FaceLookBack/record(time:samples:lookBack:)``.
    public mutating func record(time: MediaTime, boxes: [FaceBox], lookBack back: Int? = nil) {
        if let last = lookBack.lastTime, time <= last { return }
        if firstDetection == nil { firstDetection = time }
        lookBack.record(time: time, samples: boxes.map { $0.sample(at: time) }, lookBack: back)
    }

    /// The end of the stream, every detection recorded: the pictures after the last one get
    /// `boxes` (the tracks carried on to `time`, the last picture's time), and every picture
    /// still held is settled.
    public mutating func finish(time: MediaTime, boxes: [FaceBox]) {
        if let last = lookBack.lastTime, time > last { lookBack.record(time: time, samples: boxes.map { $0.sample(at: time) }) }
        lookBack.finish()
    }

    /// The detector has stopped: nothing it has not confirmed leaves uncovered.
    public mutating func recordDetectorFailure() {
        detectorFailed = true
    }

    /// What happens to the oldest picture held, captured at `time`, when the newest picture
    /// seen was captured at `now` and `pictures` pictures of `bytes` bytes are held (this one
    /// among them).
    public func decide(pictureAt time: MediaTime, now: MediaTime, pictures: Int, bytes: Int) -> Decision {
        if detectorFailed { return .release(.wholePicture) }
        if lookBack.isFinished && lookBack.lastTime != nil { return .release(.faces(lookBack.boxes(at: time))) }
        if let settled = lookBack.settledBefore, time < settled { return .release(.faces(lookBack.boxes(at: time))) }
        let overdue = now - time >= rules.longestHold || pictures > rules.mostPictures || bytes > rules.mostBytes
        guard overdue else { return .hold }
        // Boxes say where the faces are only in a picture some detection has looked at or
        // after (a face that came into view after the last detection is in no box yet), and
        // only once the detections have looked for a while (a face the first ones missed is
        // found a little later; before that, nothing is known of it).
        guard let first = firstDetection, let last = lookBack.lastTime, last - first >= rules.warmUp, time <= last else {
            return .release(.wholePicture)
        }
        let grow = rules.widening
        return .release(.widened(lookBack.boxes(at: time).map { box in
            var wider = box
            // Not clamped to the picture: the cover's ellipse keeps its shape past the edge.
            wider.box = box.box.scaled(width: 1 + 2 * grow, height: 1 + 2 * grow)
            return wider
        }))
    }

    /// ``decide(pictureAt:now:pictures:bytes:)``, counting what leaves covered conservatively.
    public mutating func release(pictureAt time: MediaTime, now: MediaTime, pictures: Int, bytes: Int) -> Cover? {
        guard case .release(let cover) = decide(pictureAt: time, now: now, pictures: pictures, bytes: bytes) else { return nil }
        switch cover {
        case .faces: break
        case .widened: widenedPictures += 1
        case .wholePicture: wholePictures += 1
        }
        return cover
    }
}
