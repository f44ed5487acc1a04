/// One segment of a face track as `reel review SESSION` lists it: which face, how it was
/// found, when, where on average, and a moment to show as its picture.
public struct SegmentSummary: Sendable, Equatable {
    /// The segment.
    public var id: FaceSegmentID
    /// How its boxes were found (that of its first sample).
    public var kind: FaceTrackSample.Kind
    /// Video time of its first sample.
    public var start: MediaTime
    /// Video time of its last sample.
    public var end: MediaTime
    /// How many samples it holds.
    public var sampleCount: Int
    /// The mean of its boxes (each edge averaged).
    public var meanBox: NormalizedRect
    /// The time of its sample nearest the middle of its span (the earlier on a tie): a frame
    /// that shows the segment.
    public var representativeTime: MediaTime

    /// A summary.
    public init(id: FaceSegmentID, kind: FaceTrackSample.Kind, start: MediaTime, end: MediaTime, sampleCount: Int,
                meanBox: NormalizedRect, representativeTime: MediaTime) {
        self.id = id
        self.kind = kind
        self.start = start
        self.end = end
        self.sampleCount = sampleCount
        self.meanBox = meanBox
        self.representativeTime = representativeTime
    }

    /// The segments of `track`, ordered by start time, then subject.
    public static func list(for track: FaceTrack) -> [SegmentSummary] {
        var groups: [FaceSegmentID: [FaceTrackSample]] = [:]
        for sample in track.samples {
            groups[FaceSegmentID(subject: sample.subject, segment: sample.segment), default: []].append(sample)
        }
        return groups.map { id, samples in
            let times = samples.map(\.time)
            let start = times.min()!, end = times.max()!
            let middle = (start.seconds + end.seconds) / 2
            let representative = times.sorted().min { abs($0.seconds - middle) < abs($1.seconds - middle) }!
            let n = Double(samples.count)
            let mean = NormalizedRect(x: samples.map(\.box.x).reduce(0, +) / n, y: samples.map(\.box.y).reduce(0, +) / n,
                                      width: samples.map(\.box.width).reduce(0, +) / n,
                                      height: samples.map(\.box.height).reduce(0, +) / n)
            return SegmentSummary(id: id, kind: samples[0].kind, start: start, end: end, sampleCount: samples.count,
                                  meanBox: mean, representativeTime: representative)
        }.sorted { ($0.start, $0.id.subject, $0.id.segment) < ($1.start, $1.id.subject, $1.id.segment) }
    }
}
