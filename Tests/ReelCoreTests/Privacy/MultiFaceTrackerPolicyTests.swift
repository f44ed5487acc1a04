import Testing
import ReelCore

@Suite("Face tracker policy (every face)")
struct MultiFaceTrackerPolicyTests {
    private let settings = FaceTrackerSettings.default

    @Test("every face gets its own subject id (left to right) and segment; ids stay while the faces move")
    func stableIds() {
        var policy = MultiFaceTrackerPolicy()
        let first = policy.update(with: [face(0.7, 0.3, 0.1, 0.15), face(0.1, 0.3, 0.1, 0.15)], at: ms(0))
        #expect(first.map(\.subject) == [0, 1])
        #expect(first.map(\.segment) == [0, 1])
        expectClose(first[0].box, settings.expanded(face: rect(0.1, 0.3, 0.1, 0.15)))
        var left = first[0].box, right = first[1].box
        for tick: Int64 in 1...10 {
            let dx = Double(tick) * 0.01
            let boxes = policy.update(with: [face(0.1 + dx, 0.3, 0.1, 0.15), face(0.7 - dx, 0.3, 0.1, 0.15)], at: ms(tick * 200))
            #expect(boxes.map(\.subject) == [0, 1] && boxes.map(\.segment) == [0, 1] && boxes.allSatisfy { $0.kind == .face })
            // Each smoothed with its own previous box.
            left = settings.smoothed(previous: left, new: settings.expanded(face: rect(0.1 + dx, 0.3, 0.1, 0.15)))
            right = settings.smoothed(previous: right, new: settings.expanded(face: rect(0.7 - dx, 0.3, 0.1, 0.15)))
            expectClose(boxes[0].box, left)
            expectClose(boxes[1].box, right)
        }
        #expect(policy.update(with: [body(0.1, 0.1, 0.5, 0.9)], at: ms(2_200)).count == 2, "upper bodies are ignored")
    }

    @Test("two faces crossing keep their ids")
    func crossingFaces() {
        var policy = MultiFaceTrackerPolicy()
        let liftedY = { (y: Double) in y + 0.15 / 2 - 0.1 * 0.15 }  // the expanded box's centre
        for tick in 0...20 {
            let ax = 0.2 + Double(tick) * 0.02, bx = 0.6 - Double(tick) * 0.02
            let a = face(ax, 0.30, 0.1, 0.15), b = face(bx, 0.40, 0.1, 0.15)
            let boxes = policy.update(with: tick % 2 == 0 ? [a, b] : [b, a], at: ms(Int64(tick) * 200))
            #expect(boxes.count == 2)
            #expect(boxes.map(\.subject) == [0, 1], "tick \(tick)")
            #expect(abs(boxes[0].box.midY - liftedY(0.30)) < 1e-9, "subject 0 is the upper face at tick \(tick)")
            #expect(abs(boxes[1].box.midY - liftedY(0.40)) < 1e-9, "subject 1 is the lower face at tick \(tick)")
            #expect(boxes.map(\.segment) == [0, 1], "no segment change while crossing")
        }
    }

    @Test("a lost track is held 1.5 s, then widened (a new segment) until 4.5 s, then ends; others go on")
    func lostTrackEnds() {
        var policy = MultiFaceTrackerPolicy()
        let stay = face(0.7, 0.3, 0.1, 0.15)
        let start = policy.update(with: [face(0.1, 0.3, 0.1, 0.15), stay], at: ms(0))
        let held = policy.update(with: [stay], at: ms(1_500))
        #expect(held[0] == start[0], "held unchanged at exactly 1.5 s")
        let widened = policy.update(with: [stay], at: ms(1_700))
        #expect(widened[0].kind == .widenedFace && widened[0].segment == 2 && widened[0].subject == 0)
        expectClose(widened[0].box, settings.widened(lastFace: settings.expanded(face: rect(0.1, 0.3, 0.1, 0.15))).clamped())
        #expect(widened[1].subject == 1 && widened[1].kind == .face && widened[1].segment == 1)

        var atEnd = policy, afterEnd = policy
        #expect(atEnd.update(with: [stay], at: ms(4_500)).map(\.subject) == [0, 1], "still estimated at 1.5 + 3 s")
        #expect(afterEnd.update(with: [stay], at: .nanoseconds(4_500_000_001)).map(\.subject) == [1], "ended after 4.5 s")
        // Ended tracks are gone for good: the same face again is a new subject.
        let again = afterEnd.update(with: [stay, face(0.1, 0.3, 0.1, 0.15)], at: ms(5_000))
        #expect(again.map(\.subject) == [1, 2])
        #expect(again[1].segment == 3 && again[1].kind == .face)
    }

    @Test("a track found again while widened keeps its id, starts a new segment and is not smoothed")
    func foundAgain() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        #expect(policy.update(with: [], at: ms(1_700)).first?.kind == .widenedFace)
        let back = policy.update(with: [face(0.42, 0.3, 0.1, 0.15)], at: ms(1_900))
        #expect(back.count == 1 && back[0].subject == 0 && back[0].kind == .face && back[0].segment == 2)
        expectClose(back[0].box, settings.expanded(face: rect(0.42, 0.3, 0.1, 0.15)))
    }

    @Test("association: a face twice the size at the same centre (IoU 0.25) matches by centre distance; a face elsewhere is new")
    func association() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        let closer = policy.update(with: [face(0.35, 0.225, 0.2, 0.3), face(0.75, 0.3, 0.1, 0.15)], at: ms(200))
        #expect(closer.map(\.subject) == [0, 1])
        #expect(closer.map(\.segment) == [0, 1])
        let old = settings.expanded(face: rect(0.4, 0.3, 0.1, 0.15)), new = settings.expanded(face: rect(0.35, 0.225, 0.2, 0.3))
        #expect(abs(old.intersectionOverUnion(new) - 0.25) < 1e-9)
        expectClose(closer[0].box, settings.smoothed(previous: old, new: new))
        // A face just beyond both thresholds (no overlap, centres more than one box width
        // apart: the expanded box is 0.15 wide) starts a track instead of stealing this one.
        var other = MultiFaceTrackerPolicy()
        other.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        #expect(other.update(with: [face(0.56, 0.3, 0.1, 0.15)], at: ms(200)).map(\.subject) == [0, 1])
    }

    @Test("association follows a moving face: compared with where its motion puts it, not where the smoothed box lags")
    func prediction() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.10, 0.3, 0.1, 0.15)], at: ms(0))
        // 0.12 to the right: within one box width (0.15) of the last detection.
        #expect(policy.update(with: [face(0.22, 0.3, 0.1, 0.15)], at: ms(200)).map(\.subject) == [0])
        // 0.18 further: beyond one width of the last detection, but 0.06 from where 0.6 widths a
        // second of motion puts it.
        #expect(policy.update(with: [face(0.40, 0.3, 0.1, 0.15)], at: ms(400)).map(\.subject) == [0])
        var still = MultiFaceTrackerPolicy()
        still.update(with: [face(0.22, 0.3, 0.1, 0.15)], at: ms(200))
        #expect(still.update(with: [face(0.40, 0.3, 0.1, 0.15)], at: ms(400)).map(\.subject) == [0, 1], "without the motion it is another face")
    }

    @Test("nothing is covered before the first face (no default region for arbitrary videos); detection every 0.2 s")
    func cadenceAndNoDefault() {
        var policy = MultiFaceTrackerPolicy()
        var calls: [Int64] = []
        for frame: Int64 in 0..<15 {
            let t = frame * 40  // 25 fps
            let boxes = policy.advance(at: ms(t)) {
                calls.append(t)
                return t >= 400 ? [face(0.4, 0.3, 0.1, 0.15)] : []
            }
            #expect(boxes.count == (t >= 400 ? 1 : 0), "at \(t) ms")
        }
        #expect(calls == [0, 200, 400])
    }
}
