/// The numbers of the face tracker's rules (spec §1, Face tracker), shared by
/// ``FaceTrackerPolicy`` (one subject, study sessions) and ``MultiFaceTrackerPolicy`` (every
/// face, arbitrary videos). `.default` holds the spec's values; tests and experiments may
/// change them, the recorder and the exporter use `.default`.
public struct FaceTrackerSettings: Sendable, Equatable {
    /// Detect every this much capture time, not every frame (spec: 0.2 s).
    public var cadence: MediaTime
    /// The expanded box's width over the face's (spec: ×1.5).
    public var widthScale: Double
    /// The expanded box's height over the face's (spec: ×1.7).
    public var heightScale: Double
    /// How far the expanded box's centre moves up, in face heights (spec: 0.1, hair and chin).
    public var centreLift: Double
    /// Weight of the new box when smoothing: `lerp(previous, new, smoothing)` (spec: 0.6).
    public var smoothing: Double
    /// How long the last box is held after the face is lost (spec: 1.5 s).
    public var hold: MediaTime
    /// The head's share of an upper body's height, from its top (spec: 50 %).
    public var headHeightFraction: Double
    /// The head's share of an upper body's width, centred (spec: 75 %).
    public var headWidthFraction: Double
    /// How much wider the box around the last face is when no upper body is found (spec: ×2).
    public var widenFactor: Double
    /// What is covered before any face was seen (spec: x 0.15, y 0, w 0.7, h 0.45).
    public var defaultRegion: NormalizedRect
    /// Multi-face only: the least intersection over union between a track's last face box
    /// and a new face's expanded box for the two to be the same face.
    public var matchIoU: Double
    /// Multi-face only: a face whose centre is within this many track-box widths of a track's
    /// last face box also matches it (a fast move that leaves no overlap), ranked after every
    /// overlap.
    public var matchCentreDistance: Double
    /// Multi-face only: how long a lost track keeps its widened box after the hold before it
    /// ends.
    public var lostTrackEstimate: MediaTime

    /// The spec's numbers; the multi-face matching: IoU ≥ 0.3, or centres within one box width
    /// of where the face should be; a lost track is estimated for 3 s after the hold (4.5 s
    /// after it was last seen).
    public static let `default` = FaceTrackerSettings(
        cadence: MediaTime(value: 1, timescale: 5), widthScale: 1.5, heightScale: 1.7, centreLift: 0.1, smoothing: 0.6,
        hold: MediaTime(value: 3, timescale: 2), headHeightFraction: 0.5, headWidthFraction: 0.75, widenFactor: 2,
        defaultRegion: NormalizedRect(x: 0.15, y: 0, width: 0.7, height: 0.45),
        matchIoU: 0.3, matchCentreDistance: 1.0, lostTrackEstimate: MediaTime(value: 3, timescale: 1))

    /// Settings with every number given.
    public init(cadence: MediaTime, widthScale: Double, heightScale: Double, centreLift: Double, smoothing: Double,
                hold: MediaTime, headHeightFraction: Double, headWidthFraction: Double, widenFactor: Double,
                defaultRegion: NormalizedRect, matchIoU: Double, matchCentreDistance: Double, lostTrackEstimate: MediaTime) {
        self.cadence = cadence
        self.widthScale = widthScale
        self.heightScale = heightScale
        self.centreLift = centreLift
        self.smoothing = smoothing
        self.hold = hold
        self.headHeightFraction = headHeightFraction
        self.headWidthFraction = headWidthFraction
        self.widenFactor = widenFactor
        self.defaultRegion = defaultRegion
        self.matchIoU = matchIoU
        self.matchCentreDistance = matchCentreDistance
        self.lostTrackEstimate = lostTrackEstimate
    }

    /// The box that covers a detected face: width × ``widthScale``, height × ``heightScale``,
    /// centre moved up by ``centreLift`` face heights. Not clamped (smoothing works on the
    /// whole box; the output is clamped).
    public func expanded(face: NormalizedRect) -> NormalizedRect {
        NormalizedRect(midX: face.midX, midY: face.midY - centreLift * face.height,
                       width: face.width * widthScale, height: face.height * heightScale)
    }

    /// The head estimated from an upper body: its top ``headHeightFraction``, the middle
    /// ``headWidthFraction`` of its width. It ends at the body's middle, so it stops just below
    /// the face and never reaches the shoulders or the desk.
    public func head(upperBody body: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: body.midX - body.width * headWidthFraction / 2, y: body.y,
                       width: body.width * headWidthFraction, height: body.height * headHeightFraction)
    }

    /// The box around the last face when no upper body is found: width × ``widenFactor`` about
    /// its centre; its top and height stay those of the last face box, so it stops just below
    /// the face (notes on the desk stay visible) and the hair the ×1.7 covered stays covered.
    public func widened(lastFace box: NormalizedRect) -> NormalizedRect {
        NormalizedRect(x: box.midX - box.width * widenFactor / 2, y: box.y, width: box.width * widenFactor, height: box.height)
    }

    /// `lerp(previous, new, smoothing)` on every edge.
    public func smoothed(previous: NormalizedRect, new: NormalizedRect) -> NormalizedRect {
        previous.interpolated(to: new, fraction: smoothing)
    }
}
