/// A face's box at its last detection and how fast it was moving then: what the trackers
/// know of a face they have just lost, and the rule for a face that walks out of the picture.
///
/// **Leaving** (docs/privacy.md, Recall first): a face moving towards an edge whose box, moved
/// on at that speed for ``FaceTrackerSettings/leavingHorizon`` (0.4 s), would be at least
/// partly outside the picture is walking out. While it is lost, its box moves on with the
/// measured velocity and grows by ``FaceTrackerSettings/leavingGrowth`` of its size per second
/// about its centre, until the box has wholly left the picture (the face is gone) or a
/// detection says where it is. A box held where the face was last seen instead shows the half
/// face still in the picture for the last few tenths of a second, when the detector no longer
/// sees a face there.
public struct FaceMotion: Sendable, Equatable {
    /// The expanded box at the last detection (not clamped).
    public var box: NormalizedRect
    /// Motion in picture widths per second.
    public var dx: Double
    /// Motion in picture heights per second.
    public var dy: Double

    /// A face at `box` moving by (`dx`, `dy`) per second.
    public init(box: NormalizedRect, dx: Double = 0, dy: Double = 0) {
        self.box = box
        self.dx = dx
        self.dy = dy
    }

    /// Whether the face is walking out: moving towards an edge that its box, moved on for
    /// `horizon` seconds, crosses. A face standing still is never leaving.
    public func isLeaving(within horizon: Double) -> Bool {
        let ahead = box.offsetBy(dx: dx * horizon, dy: dy * horizon)
        return (dx < 0 && ahead.x < 0) || (dx > 0 && ahead.maxX > 1) || (dy < 0 && ahead.y < 0) || (dy > 0 && ahead.maxY > 1)
    }

    /// The box `seconds` after the last detection: moved on with the velocity, grown by
    /// `growth` × `seconds` of its size about its centre.
    public func estimate(after seconds: Double, growth: Double) -> NormalizedRect {
        let t = max(0, seconds)
        let scale = 1 + growth * t
        return box.offsetBy(dx: dx * t, dy: dy * t).scaled(width: scale, height: scale)
    }
}

extension NormalizedRect {
    /// Whether any of the rectangle lies in the picture (0…1 on both axes): a box wholly
    /// outside covers nothing and is not handed out.
    public var meetsPicture: Bool { !clamped().isEmpty }
}
