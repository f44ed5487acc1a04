/// A face track made ready for the export: the boxes to cover at any video time
/// (docs/behaviour.md §1, Face tracker: "boxes are interpolated linearly only between
/// neighbouring samples of the same segment").
///
/// For each subject at time `t`, with `a` the last sample at or before `t` and `b` the next:
/// - `t` on a sample: that sample's box.
/// - `a` and `b` of the same segment: the linear interpolation of the two boxes (every edge)
///   at `(t - a.time) / (b.time - a.time)`.
/// - `a` and `b` of different segments (face ↔ estimate): no interpolation, and both boxes,
///   each with its own segment, so whichever is right covers the face until `b` starts its
///   segment (a box never flies across the screen, a face is never left uncovered; an edit
///   that disables one of the segments removes only that box).
/// - Before the track's first sample and after its last: each subject present there holds
///   its nearest sample (the recording starts and ends covered).
/// - A subject that appears later than the track's first sample is not covered before its
///   first sample; one that ends before the track's last is not covered after its last (its
///   end was decided by the tracker).
///
/// Samples are grouped per subject and ordered by time (stable) once, so a query is a binary
/// search per subject.
public struct FaceTrackTimeline: Sendable {
    private let subjects: [[FaceTrackSample]]
    private let start: MediaTime?
    private let end: MediaTime?

    /// The timeline of `track`.
    public init(_ track: FaceTrack) {
        var bySubject: [Int: [FaceTrackSample]] = [:]
        for sample in track.samples { bySubject[sample.subject, default: []].append(sample) }
        subjects = bySubject.keys.sorted().map { key in
            bySubject[key]!.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        }
        start = track.samples.map(\.time).min()
        end = track.samples.map(\.time).max()
    }

    /// The boxes to cover at video time `time`, by subject (two for a subject between two
    /// segments, see the type's rules); empty for an empty track.
    public func boxes(at time: MediaTime) -> [FaceBox] {
        guard let start, let end else { return [] }
        var result: [FaceBox] = []
        for samples in subjects {
            // The number of samples at or before `time`.
            var low = 0, high = samples.count
            while low < high {
                let mid = (low + high) / 2
                if samples[mid].time <= time { low = mid + 1 } else { high = mid }
            }
            if low == 0 {
                let first = samples[0]
                if first.time == start { result.append(FaceTrackTimeline.box(of: first)) }
                continue
            }
            let a = samples[low - 1]
            if a.time == time { result.append(FaceTrackTimeline.box(of: a)); continue }
            guard low < samples.count else {
                if a.time == end { result.append(FaceTrackTimeline.box(of: a)) }
                continue
            }
            let b = samples[low]
            if a.segment == b.segment && a.kind == b.kind {
                // In seconds: MediaTime's difference would round to the finer of the two timescales.
                let fraction = (time.seconds - a.time.seconds) / (b.time.seconds - a.time.seconds)
                result.append(FaceBox(subject: a.subject, segment: a.segment, kind: a.kind,
                                      box: a.box.interpolated(to: b.box, fraction: fraction)))
            } else {
                result.append(FaceTrackTimeline.box(of: a))
                result.append(FaceTrackTimeline.box(of: b))
            }
        }
        return result
    }

    private static func box(of sample: FaceTrackSample) -> FaceBox {
        FaceBox(subject: sample.subject, segment: sample.segment, kind: sample.kind, box: sample.box)
    }
}

extension FaceTrack {
    /// The boxes to cover at video time `time` (``FaceTrackTimeline``'s rules). Builds the
    /// timeline on every call: for a whole export, make one ``FaceTrackTimeline`` instead.
    public func boxes(at time: MediaTime) -> [FaceBox] {
        FaceTrackTimeline(self).boxes(at: time)
    }
}
