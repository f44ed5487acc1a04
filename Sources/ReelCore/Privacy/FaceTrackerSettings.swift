import Foundation

/// The numbers of the face tracker's rules (docs/behaviour.md §1, Face tracker; "§1" below),
/// shared by ``FaceTrackerPolicy`` (one subject, study sessions) and ``MultiFaceTrackerPolicy``
/// (every face, arbitrary videos). `.default` holds §1's values; tests and experiments may
/// change them, the recorder and the exporter use `.default`.
public struct FaceTrackerSettings: Sendable, Equatable {
    /// Detect every this much capture time, not every frame (§1: 0.2 s).
    public var cadence: MediaTime
    /// The expanded box's width over the face's (§1: ×1.5).
    public var widthScale: Double
    /// The expanded box's height over the face's (§1: ×1.7).
    public var heightScale: Double
    /// How far the expanded box's centre moves up, in face heights (§1: 0.1, hair and chin).
    public var centreLift: Double
    /// Weight of the new box when smoothing: `lerp(previous, new, smoothing)` (§1: 0.6).
    public var smoothing: Double
    /// How long the last box is held after the face is lost (§1: 1.5 s).
    public var hold: MediaTime
    /// The head's share of an upper body's height, from its top (§1: 50 %).
    public var headHeightFraction: Double
    /// The head's share of an upper body's width, centred (§1: 75 %).
    public var headWidthFraction: Double
    /// How much wider the box around the last face is when no upper body is found (§1: ×2).
    public var widenFactor: Double
    /// What is covered before any face was seen (§1: x 0.15, y 0, w 0.7, h 0.45).
    public var defaultRegion: NormalizedRect
    /// Multi-face only: the least intersection over union between a track's last face box
    /// and a new face's expanded box for the two to be the same face.
    public var matchIoU: Double
    /// Multi-face only: a face whose centre is within this many track-box sizes of a track's
    /// last face box (widths across, heights up and down:
    /// ``NormalizedRect/distanceInBoxes(to:)``) also matches it (a fast move that leaves no
    /// overlap), ranked after every overlap.
    public var matchCentreDistance: Double
    /// Multi-face only: how long a lost track keeps its widened box after the hold before it
    /// ends.
    public var lostTrackEstimate: MediaTime
    /// Multi-face only: a track seen once (its motion unknown) also matches a face this many
    /// of its box sizes away, ranked after every overlap (a face crossing a 720p picture in
    /// 1 s moves about 1.6 box widths between two detections).
    public var newTrackMatchDistance: Double = 2.5
    /// A lost face that was walking out of the picture: its box moves on with its last
    /// measured velocity and grows by this share of its size per second of being lost
    /// (the further the guess, the wider it must be).
    public var leavingGrowth: Double = 0.5
    /// Multi-face only: a lost face's held box grows by this share of its height per second
    /// (and widens to ``widenFactor`` over the hold): a face that turned away or moved without
    /// being seen is near where it was, not exactly there. The single-subject tracker holds
    /// its box unchanged, as §1 says.
    public var holdGrowth: Double = 0.25
    /// A lost face is walking out when its box, moved on at its speed for this long, crosses
    /// the edge it moves towards: two detections. Longer would send away the box of a face
    /// that only turned (a face turning to profile is detected moving sideways, about 280 px
    /// a second at 720p on the profile clip) before it vanished in the middle of the picture.
    public var leavingHorizon = MediaTime(value: 2, timescale: 5)
    /// Multi-face only: a matched face's box keeps at least this share of the track's
    /// previous box size per detection (a face turning away or half hidden is detected
    /// smaller than the head it belongs to; the box shrinks to the detection over a few
    /// ticks instead of at once). 1: never shrinks; 0: follows the detection.
    public var shrinkLimit: Double = 0.85

    /// §1's numbers; the multi-face matching: IoU ≥ 0.3, or centres within one box width
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
    /// centre moved up by ``centreLift`` face heights. Not clamped: a face at the picture's
    /// edge keeps its whole box, so the ellipse inscribed in it keeps the face's shape.
    public func expanded(face: NormalizedRect) -> NormalizedRect {
        NormalizedRect(midX: face.midX, midY: face.midY - centreLift * face.height,
                       width: face.width * widthScale, height: face.height * heightScale)
    }

    /// The box that covers a detected face that may be rolled: the expanded box of the face
    /// upright (``expanded(face:)``), turned about the face's centre by its roll (the lift
    /// turns with it: towards the top of the head, not of the picture), and the axis-aligned
    /// box around that. The ellipse inscribed in those bounds holds the rolled face's own
    /// ellipse with room to spare (at 45°, semi-axes of about 1.1 face heights round a face
    /// 0.5 high), where the upright box's ellipse leaves the rolled face's chin and brow at
    /// its edge. `detection.box` is the face's axis-aligned box as the detector saw it; the
    /// upright face inside it is estimated by undoing the roll's growth of the bounds. Below
    /// 5° (the landmarks' noise on an upright face) the face counts as upright.
    public func expanded(face detection: Detection) -> NormalizedRect {
        let roll = detection.roll
        guard roll.isFinite, abs(roll) > 5 * Double.pi / 180 else { return expanded(face: detection.box) }
        let c = abs(cos(roll)), s = abs(sin(roll))
        // Upright face w × h rolled gives bounds W = w c + h s, H = w s + h c; solve for w, h
        // (below 45° the system is well conditioned; at 45° take a square face).
        let box = detection.box
        let det = c * c - s * s
        var w = box.width, h = box.height
        if abs(det) > 0.2 {
            w = max(box.width * 0.3, (box.width * c - box.height * s) / det)
            h = max(box.height * 0.3, (box.height * c - box.width * s) / det)
        } else {
            w = max(box.width, box.height) / (c + s); h = w
        }
        let ew = w * widthScale, eh = h * heightScale
        let lift = centreLift * h
        // The lift points to the top of the rolled head: (sin r, −cos r) in y-down coordinates.
        let midX = box.midX + lift * sin(roll), midY = box.midY - lift * cos(roll)
        let bw = ew * c + eh * s, bh = ew * s + eh * c
        return NormalizedRect(midX: midX, midY: midY, width: bw, height: bh)
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
