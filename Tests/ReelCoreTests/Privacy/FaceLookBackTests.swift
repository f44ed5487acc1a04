import Testing
import ReelCore

@Suite("Face look-back (export: pictures wait for the detections after them)")
struct FaceLookBackTests {
    private func sample(_ t: Int64, subject: Int = 0, segment: Int = 0, _ box: NormalizedRect) -> FaceTrackSample {
        FaceTrackSample(time: ms(t), segment: segment, kind: .face, box: box, subject: subject)
    }

    @Test("pictures settle two detections later; after the end, all of them")
    func settling() {
        var lookBack = FaceLookBack()
        #expect(lookBack.settledBefore == nil)
        lookBack.record(time: ms(0), samples: [])
        #expect(lookBack.settledBefore == nil, "one detection: nothing is final yet")
        lookBack.record(time: ms(200), samples: [])
        #expect(lookBack.settledBefore == ms(0))
        lookBack.record(time: ms(400), samples: [])
        #expect(lookBack.settledBefore == ms(200))
        lookBack.finish()
        #expect(lookBack.isFinished && lookBack.settledBefore == nil)
    }

    @Test("a face first found is covered from two detections before, with its first box; between detections it is interpolated")
    func newFaceLooksBack() {
        var lookBack = FaceLookBack()
        let middle = rect(0.45, 0.45, 0.1, 0.1)
        lookBack.record(time: ms(0), samples: [])
        lookBack.record(time: ms(200), samples: [])
        lookBack.record(time: ms(400), samples: [])
        #expect(lookBack.settledBefore == ms(200) && lookBack.boxes(at: ms(100)).isEmpty, "settled, no face yet")
        lookBack.record(time: ms(600), samples: [sample(600, middle)])
        lookBack.record(time: ms(800), samples: [sample(800, middle.offsetBy(dx: 0.1, dy: 0))])
        // From 200 ms on (two detections before it was found; the pictures before were settled without it).
        #expect(lookBack.boxes(at: ms(200)).map(\.box) == [middle])
        #expect(lookBack.boxes(at: ms(300)).map(\.box) == [middle], "in the middle of the picture: no boxes on the way in")
        // Interpolated between its detections.
        let between = lookBack.boxes(at: ms(700)).filter { $0.subject == 0 }
        #expect(between.count == 1)
        expectClose(between.first?.box, middle.offsetBy(dx: 0.05, dy: 0))
    }

    @Test("a face first found near an edge: boxes along the way in from that edge, at most half a box apart, over the look-back")
    func wayInFromTheEdge() {
        var lookBack = FaceLookBack()
        // 0.1 wide, 0.05 from the right edge; 4.5 box sizes from the other edges.
        let near = rect(0.85, 0.45, 0.1, 0.1)
        lookBack.record(time: ms(0), samples: [])
        lookBack.record(time: ms(200), samples: [])
        lookBack.record(time: ms(400), samples: [sample(400, subject: 3, near)])
        let boxes = lookBack.boxes(at: ms(250))
        let standIns = boxes.filter { $0.subject < 0 }
        // The held box plus the way in: from the box centred on the edge (midX 1.0) to midX 0.9, steps of ≤ 0.05.
        #expect(boxes.contains { $0.box == near })
        let centres = standIns.map(\.box.midX).sorted()
        #expect(centres.contains { abs($0 - 1.0) < 1e-9 }, "starts centred on the edge: \(centres)")
        #expect(zip(centres, centres.dropFirst()).allSatisfy { $1 - $0 <= 0.05 + 1e-9 })
        #expect(standIns.allSatisfy { $0.box.width == near.width && $0.box.height == near.height && $0.box.midY == near.midY })
        // A stand-in never takes a real subject's id.
        #expect(Set(boxes.map(\.subject)).isDisjoint(with: [0, 1, 2, 4]))
        // Once found, no more way in.
        #expect(lookBack.boxes(at: ms(400)).filter { $0.subject >= 0 }.count == 1)
    }

    @Test("a face found again after an estimate (a new segment) looks back too, without touching its estimate's boxes")
    func newSegmentLooksBack() {
        var lookBack = FaceLookBack()
        let estimate = rect(0.3, 0.3, 0.3, 0.2), found = rect(0.45, 0.45, 0.1, 0.1)
        for t: Int64 in [0, 200, 400] {
            lookBack.record(time: ms(t), samples: [FaceTrackSample(time: ms(t), segment: 4, kind: .widenedFace, box: estimate)])
        }
        lookBack.record(time: ms(600), samples: [sample(600, segment: 5, found)])
        let at100 = lookBack.boxes(at: ms(100))
        #expect(at100.map(\.box) == [estimate] && at100.first?.segment == 4, "before the look-back: only the estimate")
        let at300 = lookBack.boxes(at: ms(300))
        #expect(at300.contains { $0.box == found }, "the face found again covers the look-back: \(at300)")
        #expect(at300.contains { $0.box == estimate && $0.segment == 4 }, "the estimate stays")
    }

    @Test("a track that ends keeps its last box until the detection that ended it")
    func endedTrack() {
        var lookBack = FaceLookBack()
        let box = rect(0.4, 0.4, 0.2, 0.2)
        lookBack.record(time: ms(0), samples: [sample(0, box)])
        lookBack.record(time: ms(200), samples: [])
        lookBack.record(time: ms(400), samples: [])
        #expect(lookBack.boxes(at: ms(150)).map(\.box) == [box])
        #expect(lookBack.boxes(at: ms(200)).map(\.box) == [box])
        #expect(lookBack.boxes(at: ms(250)).isEmpty)
    }

    @Test("a longer look-back for what a periodic closer look found (the small-face search)")
    func longLookBack() {
        var lookBack = FaceLookBack(depth: 5, shortLookBack: 2)
        let small = rect(0.45, 0.45, 0.03, 0.05)
        for t in stride(from: Int64(0), through: 800, by: 200) { lookBack.record(time: ms(t), samples: []) }
        lookBack.record(time: ms(1_000), samples: [sample(1_000, small)], lookBack: 5)
        // The picture at 0 ms waited for five detections: it settles now, covered.
        #expect(lookBack.settledBefore == ms(200))
        #expect(lookBack.boxes(at: ms(0)).map(\.box) == [small])
        #expect(lookBack.boxes(at: ms(500)).map(\.box) == [small])
        var short = FaceLookBack(depth: 5, shortLookBack: 2)
        for t in stride(from: Int64(0), through: 800, by: 200) { short.record(time: ms(t), samples: []) }
        short.record(time: ms(1_000), samples: [sample(1_000, small)])
        #expect(short.boxes(at: ms(500)).isEmpty && short.boxes(at: ms(600)).map(\.box) == [small])
    }

    @Test("two passes over one picture: each face once, the better score kept")
    func suppressingOverlaps() {
        let a = Detection(kind: .face, box: rect(0.4, 0.4, 0.1, 0.1), score: 0.7)
        let b = Detection(kind: .face, box: rect(0.41, 0.4, 0.1, 0.1), score: 0.9)
        let c = Detection(kind: .face, box: rect(0.7, 0.4, 0.1, 0.1), score: 0.6)
        #expect(Detection.suppressingOverlaps([a, b, c]) == [b, c])
        #expect(Detection.suppressingOverlaps([]) == [])
    }
}
