/// One box a tracker puts over a face at one moment: what the tracker policies answer, what a
/// face track's interpolation gives back for a frame, and what the review edits apply to.
public struct FaceBox: Sendable, Equatable {
    /// Whose face: 0 for a study session's single subject; one stable id per tracked face in
    /// arbitrary videos.
    public var subject: Int
    /// The segment number (unique within a track; every change of kind starts a new one).
    public var segment: Int
    /// How the box was found.
    public var kind: FaceTrackSample.Kind
    /// Where, normalized to the picture, origin top-left.
    public var box: NormalizedRect

    /// A box.
    public init(subject: Int = 0, segment: Int, kind: FaceTrackSample.Kind, box: NormalizedRect) {
        self.subject = subject
        self.segment = segment
        self.kind = kind
        self.box = box
    }

    /// The segment this box belongs to (the unit the review step edits).
    public var segmentID: FaceSegmentID { FaceSegmentID(subject: subject, segment: segment) }

    /// The sample a recorder stores for this box at video time `time`.
    public func sample(at time: MediaTime) -> FaceTrackSample {
        FaceTrackSample(time: time, segment: segment, kind: kind, box: box, subject: subject)
    }
}
