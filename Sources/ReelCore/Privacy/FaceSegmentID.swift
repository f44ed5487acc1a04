/// Names one segment of a face track: the unit the review step edits (`reel review SESSION
/// --segment N`). Segment numbers are unique within a track, the subject is kept beside them
/// so an edit can never land on another face.
public struct FaceSegmentID: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// Whose face (0 for a study session's single subject).
    public var subject: Int
    /// The segment number.
    public var segment: Int

    /// The id of `segment` of `subject`.
    public init(subject: Int = 0, segment: Int) {
        self.subject = subject
        self.segment = segment
    }

    public static func < (lhs: FaceSegmentID, rhs: FaceSegmentID) -> Bool {
        (lhs.segment, lhs.subject) < (rhs.segment, rhs.subject)
    }

    /// `N` for the single subject, `N (face S)` otherwise.
    public var description: String { subject == 0 ? "\(segment)" : "\(segment) (face \(subject))" }
}
