import Testing
import ReelCore

@Suite("Face track interpolation")
struct FaceTrackTimelineTests {
    private func sample(_ t: Int64, _ segment: Int, _ kind: FaceTrackSample.Kind, _ box: NormalizedRect, subject: Int = 0) -> FaceTrackSample {
        FaceTrackSample(time: ms(t), segment: segment, kind: kind, box: box, subject: subject)
    }

    @Test("within a segment: linear between neighbouring samples, exact on a sample")
    func withinSegment() {
        let track = FaceTrack(samples: [
            sample(0, 0, .face, rect(0.1, 0.1, 0.2, 0.3)),
            sample(200, 0, .face, rect(0.3, 0.2, 0.4, 0.3)),
            sample(400, 0, .face, rect(0.3, 0.0, 0.2, 0.1)),
        ])
        let timeline = FaceTrackTimeline(track)
        #expect(timeline.boxes(at: ms(0)) == [FaceBox(segment: 0, kind: .face, box: rect(0.1, 0.1, 0.2, 0.3))])
        let quarter = timeline.boxes(at: ms(50))
        #expect(quarter.count == 1 && quarter[0].segment == 0)
        expectClose(quarter[0].box, rect(0.15, 0.125, 0.25, 0.3))
        expectClose(timeline.boxes(at: ms(300)).first?.box, rect(0.3, 0.1, 0.3, 0.2))
        #expect(timeline.boxes(at: ms(200)).map(\.box) == [rect(0.3, 0.2, 0.4, 0.3)])
        // Times in any timescale (a 30 fps frame at 1/30 s).
        expectClose(timeline.boxes(at: MediaTime(value: 1, timescale: 30)).first?.box,
                    rect(0.1, 0.1, 0.2, 0.3).interpolated(to: rect(0.3, 0.2, 0.4, 0.3), fraction: (1.0 / 30) / 0.2))
    }

    @Test("at a segment change no interpolation: both boxes until the next segment's first sample, then only it")
    func stopsAtSegmentChange() {
        let faceBox = rect(0.4, 0.2, 0.15, 0.3), estimate = rect(0.1, 0.1, 0.8, 0.4)
        let track = FaceTrack(samples: [
            sample(0, 1, .face, faceBox),
            sample(200, 1, .face, faceBox),
            sample(400, 2, .upperBody, estimate),
            sample(600, 2, .upperBody, estimate),
        ])
        let timeline = FaceTrackTimeline(track)
        let between = timeline.boxes(at: ms(300))
        #expect(between == [FaceBox(segment: 1, kind: .face, box: faceBox), FaceBox(segment: 2, kind: .upperBody, box: estimate)],
                "the earlier box is held and the next one is already there: nothing in between is drawn")
        #expect(timeline.boxes(at: ms(399)).count == 2)
        #expect(timeline.boxes(at: ms(400)) == [FaceBox(segment: 2, kind: .upperBody, box: estimate)])
        #expect(timeline.boxes(at: ms(200)) == [FaceBox(segment: 1, kind: .face, box: faceBox)])
    }

    @Test("before the first sample and after the last, the nearest sample is held; an empty track covers nothing")
    func ends() {
        let track = FaceTrack(samples: [sample(1_000, 0, .defaultRegion, rect(0.15, 0, 0.7, 0.45)),
                                        sample(2_000, 1, .face, rect(0.4, 0.2, 0.1, 0.2))])
        #expect(track.boxes(at: ms(0)).map(\.segment) == [0])
        #expect(track.boxes(at: ms(9_000)).map(\.segment) == [1])
        #expect(FaceTrack().boxes(at: ms(0)).isEmpty)
    }

    @Test("several subjects: each interpolated with its own samples; covered only while it exists")
    func subjects() {
        let track = FaceTrack(samples: [
            sample(0, 0, .face, rect(0.1, 0.1, 0.1, 0.1), subject: 0),
            sample(1_000, 1, .face, rect(0.7, 0.1, 0.1, 0.1), subject: 1),
            sample(1_000, 0, .face, rect(0.3, 0.1, 0.1, 0.1), subject: 0),
            sample(2_000, 0, .face, rect(0.5, 0.1, 0.1, 0.1), subject: 0),
            sample(2_000, 1, .face, rect(0.7, 0.3, 0.1, 0.1), subject: 1),
            sample(3_000, 0, .face, rect(0.5, 0.1, 0.1, 0.1), subject: 0),
        ])
        let timeline = FaceTrackTimeline(track)
        #expect(timeline.boxes(at: ms(500)).map(\.subject) == [0], "subject 1 starts at 1 s")
        let middle = timeline.boxes(at: ms(1_500))
        #expect(middle.map(\.subject) == [0, 1])
        expectClose(middle[0].box, rect(0.4, 0.1, 0.1, 0.1))
        expectClose(middle[1].box, rect(0.7, 0.2, 0.1, 0.1))
        #expect(timeline.boxes(at: ms(2_500)).map(\.subject) == [0], "subject 1 ended at 2 s")
        #expect(timeline.boxes(at: ms(3_500)).map(\.subject) == [0], "the last subject is held after the end")
    }

    @Test("a recorded run of the policy never draws a box between two segments")
    func policyRun() {
        var policy = FaceTrackerPolicy()
        var track = FaceTrack()
        for frame: Int64 in 0..<90 {  // 3 s at 30 fps; face until 1 s, then nothing
            let t = MediaTime(value: frame, timescale: 30)
            let box = policy.advance(at: t) { _ in frame < 30 ? [face(0.3 + Double(frame) * 0.005, 0.3, 0.1, 0.2)] : [] }
            if frame % 6 == 0 { track.append(box.sample(at: t)) }  // a sample every 0.2 s of video
        }
        let segments = Set(track.samples.map(\.segment))
        #expect(segments.count == 2, "face, then the widened estimate")
        let timeline = FaceTrackTimeline(track)
        for frame: Int64 in 0..<90 {
            let t = MediaTime(value: frame, timescale: 30)
            for box in timeline.boxes(at: t) {
                let own = track.samples.filter { $0.segment == box.segment }.map(\.box)
                let minX = own.map(\.x).min()!, maxX = own.map(\.x).max()!
                #expect(box.box.x >= minX - 1e-9 && box.box.x <= maxX + 1e-9, "frame \(frame): a box stays within its own segment's samples")
            }
        }
    }
}
