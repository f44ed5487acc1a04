/// One thing a detector found in a picture: the input of the face tracker's policy
/// (docs/behaviour.md §1, Face tracker). Detectors (ReelVision) produce these; the tracker's
/// rules (ReelCore) consume them, so the rules are tested with scripted detections and no
/// pixels.
public struct Detection: Sendable, Hashable {
    /// What was found.
    public enum Kind: Sendable, Hashable {
        /// A face.
        case face
        /// An upper body (head and shoulders), looked for when the face has been lost.
        case upperBody
    }

    /// What was found.
    public var kind: Kind
    /// Where, normalized to the analysed picture (origin top-left).
    public var box: NormalizedRect
    /// The detector's confidence, 0…1 (1 for detectors that give none, such as cascades).
    public var score: Double
    /// How far the face is rolled, clockwise in radians (y down), from its eyes; 0 when the
    /// detector cannot tell (cascades, bodies).
    public var roll: Double

    /// A detection.
    public init(kind: Kind, box: NormalizedRect, score: Double = 1, roll: Double = 0) {
        self.kind = kind
        self.box = box
        self.score = score
        self.roll = roll
    }
}

extension Detection {
    /// `detections` without the ones that overlap a better one (higher score; equal scores:
    /// the earlier) by `iou` or more: what two passes over one picture (the whole picture, and
    /// a closer look at part of it) found, each face once.
    public static func suppressingOverlaps(_ detections: [Detection], iou: Double = 0.3) -> [Detection] {
        let ranked = detections.enumerated().sorted { a, b in
            a.element.score != b.element.score ? a.element.score > b.element.score : a.offset < b.offset
        }.map(\.element)
        var kept: [Detection] = []
        for candidate in ranked where !kept.contains(where: { $0.kind == candidate.kind && $0.box.intersectionOverUnion(candidate.box) >= iou }) {
            kept.append(candidate)
        }
        return kept
    }
}
