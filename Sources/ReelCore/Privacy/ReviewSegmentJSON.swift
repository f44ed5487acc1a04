import Foundation

/// One face segment as the review shows it, with its edit: a row of `reel review --json` and
/// of the studio's `GET /api/sessions/ID/review`. Keys sorted; absent values are `null`.
public struct ReviewSegmentJSON: Encodable, Sendable, Equatable {
    public var segment: Int
    public var subject: Int
    /// face, upper body, wider box or top region (``FaceTrackSample/Kind/reviewName``).
    public var kind: String
    public var start: Double
    public var end: Double
    public var samples: Int
    /// The time the segment's picture shows, and the recorded box then (before the edit).
    public var representative: Double
    public var box: [Double]
    public var meanBox: [Double]
    public var disabled: Bool
    public var offset: [Double]
    public var scale: Double
    /// The stamp image's path, or nil for the mosaic.
    public var stamp: String?
    /// The segment's picture (a file `reel review` wrote), nil when none was made.
    public var picture: String?

    /// The row of `summary` with `edit`; `box` is the recorded box at the representative time.
    public init(_ summary: SegmentSummary, box: NormalizedRect, edit: PrivacyEdits.SegmentEdit, picture: String? = nil) {
        segment = summary.id.segment
        subject = summary.id.subject
        kind = summary.kind.reviewName
        start = summary.start.seconds
        end = summary.end.seconds
        samples = summary.sampleCount
        representative = summary.representativeTime.seconds
        self.box = Self.array(box)
        meanBox = Self.array(summary.meanBox)
        disabled = edit.disabled
        offset = [edit.dx, edit.dy]
        scale = edit.scale
        stamp = edit.stamp
        self.picture = picture
    }

    /// The rows of every segment of `track`, in order, with `edits`.
    public static func rows(_ track: FaceTrack, edits: PrivacyEdits, pictures: [FaceSegmentID: String] = [:]) -> [ReviewSegmentJSON] {
        let timeline = FaceTrackTimeline(track)
        return SegmentSummary.list(for: track).map { summary in
            let box = timeline.boxes(at: summary.representativeTime).first { $0.segmentID == summary.id }?.box ?? summary.meanBox
            return ReviewSegmentJSON(summary, box: box, edit: edits.edit(for: summary.id), picture: pictures[summary.id])
        }
    }

    static func array(_ rect: NormalizedRect) -> [Double] { [rect.x, rect.y, rect.width, rect.height] }

    enum Key: String, CodingKey {
        case segment, subject, kind, start, end, samples, representative, box, meanBox, disabled, offset, scale, stamp, picture
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(segment, forKey: .segment)
        try c.encode(subject, forKey: .subject)
        try c.encode(kind, forKey: .kind)
        try c.encode(start, forKey: .start)
        try c.encode(end, forKey: .end)
        try c.encode(samples, forKey: .samples)
        try c.encode(representative, forKey: .representative)
        try c.encode(box, forKey: .box)
        try c.encode(meanBox, forKey: .meanBox)
        try c.encode(disabled, forKey: .disabled)
        try c.encode(offset, forKey: .offset)
        try c.encode(scale, forKey: .scale)
        try c.encode(stamp, forKey: .stamp)
        try c.encode(picture, forKey: .picture)
    }
}

extension FaceTrackSample.Kind {
    /// The kind as the review names it.
    public var reviewName: String {
        switch self {
        case .face: "face"
        case .upperBody: "upper body"
        case .widenedFace: "wider box"
        case .defaultRegion: "top region"
        }
    }
}
