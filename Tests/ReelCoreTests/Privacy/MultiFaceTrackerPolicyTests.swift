import Foundation
import Testing
import ReelCore

/// The export's settings: no smoothing (``DetectingBoxes``).
enum DetectingSettings {
    static var unsmoothed: FaceTrackerSettings {
        var settings = FaceTrackerSettings.default
        settings.smoothing = 1
        return settings
    }
}

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

    @Test("a lost track is held 1.5 s (widening), then widened (a new segment) until 4.5 s, then ends; others go on")
    func lostTrackEnds() {
        var policy = MultiFaceTrackerPolicy()
        let stay = face(0.7, 0.3, 0.1, 0.15)
        policy.update(with: [face(0.1, 0.3, 0.1, 0.15), stay], at: ms(-200))
        let start = policy.update(with: [face(0.1, 0.3, 0.1, 0.15), stay], at: ms(0))
        let held = policy.update(with: [stay], at: ms(1_500))
        // Held at exactly 1.5 s: same segment and kind, widened over the hold to ×2 and 0.25 × 1.5 s higher.
        #expect(held[0].segment == start[0].segment && held[0].kind == .face)
        expectClose(held[0].box, start[0].box.scaled(width: 2, height: 1.375))
        let widened = policy.update(with: [stay], at: ms(1_700))
        #expect(widened[0].kind == .widenedFace && widened[0].segment == 2 && widened[0].subject == 0)
        expectClose(widened[0].box, settings.widened(lastFace: settings.expanded(face: rect(0.1, 0.3, 0.1, 0.15))))
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
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(-200))
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
        // apart: the expanded box is 0.15 wide) of a track whose motion is known (here: still)
        // starts a track instead of stealing this one.
        var other = MultiFaceTrackerPolicy()
        other.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        other.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(200))
        #expect(other.update(with: [face(0.56, 0.3, 0.1, 0.15)], at: ms(400)).map(\.subject) == [0, 1])
    }

    @Test("the reach is in box sizes both ways: a face 0.9 box heights below where it was is the same face, 1.1 is a new one")
    func reachInBoxHeights() {
        // Expanded box 0.15 × 0.255 (normalized; 192 × 184 px in 720p). 0.9 of its height down is
        // 0.23, more than its width: measured in normalized units it was out of reach.
        let box = DetectingSettings.unsmoothed.expanded(face: rect(0.4, 0.3, 0.1, 0.15))
        for (share, same) in [(0.9, true), (1.1, false)] {
            var policy = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
            policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
            policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(200))
            let moved = policy.update(with: [face(0.4, 0.3 + share * box.height, 0.1, 0.15)], at: ms(400))
            #expect(moved.map(\.subject) == (same ? [0] : [0, 1]), "\(share) box heights down")
        }
    }

    @Test("a track seen once (motion unknown) matches a face up to 2.5 box widths away: a face crossing the picture in 1 s")
    func youngTrackReach() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.1, 0.3, 0.1, 0.15)], at: ms(0))
        // 0.36 further: 2.4 expanded widths (0.15).
        #expect(policy.update(with: [face(0.46, 0.3, 0.1, 0.15)], at: ms(200)).map(\.subject) == [0])
        // Now its motion is known (1.8 widths a second): the next face must be near where that puts it.
        #expect(policy.update(with: [face(0.82, 0.3, 0.1, 0.15)], at: ms(400)).map(\.subject) == [0])
        var far = MultiFaceTrackerPolicy()
        far.update(with: [face(0.1, 0.3, 0.1, 0.15)], at: ms(0))
        #expect(far.update(with: [face(0.5, 0.3, 0.1, 0.15)], at: ms(200)).map(\.subject) == [0, 1], "2.7 widths: another face")
    }

    @Test("a moving face lost in the picture (crossing another face): the box reaches from where it was held to where its motion takes it")
    func movingFaceLostInThePicture() {
        var policy = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
        policy.update(with: [face(0.30, 0.4, 0.03, 0.05)], at: ms(0))
        let seen = policy.update(with: [face(0.32, 0.4, 0.03, 0.05)], at: ms(200))  // 0.1 picture widths a second
        for lost: Int64 in [200, 400, 600] {
            var lostPolicy = policy
            for step in stride(from: Int64(400), to: 200 + lost, by: 200) { lostPolicy.update(with: [], at: ms(step)) }
            let box = lostPolicy.update(with: [], at: ms(200 + lost))[0]
            #expect(box.subject == seen[0].subject && box.segment == seen[0].segment && box.kind == .face)
            // Where the face is if it went on: the seen box moved on by 0.1 × lost seconds.
            let went = seen[0].box.offsetBy(dx: 0.1 * Double(lost) / 1000, dy: 0)
            // The cover is the box's ellipse: it holds the ellipses of both places.
            #expect(Self.ellipse(of: box.box, holds: seen[0].box), "where it stopped, after \(lost) ms")
            #expect(Self.ellipse(of: box.box, holds: went), "where it went on, after \(lost) ms")
        }
        // A face that stood still is held where it was, as before.
        var still = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
        still.update(with: [face(0.30, 0.4, 0.03, 0.05)], at: ms(0))
        let here = still.update(with: [face(0.30, 0.4, 0.03, 0.05)], at: ms(200))
        still.update(with: [], at: ms(400))
        let held = still.update(with: [], at: ms(600))
        #expect(abs(held[0].box.midX - here[0].box.midX) < 1e-12)
    }

    /// Whether the ellipse inscribed in `outer` holds the one inscribed in `inner` (720 points).
    static func ellipse(of outer: NormalizedRect, holds inner: NormalizedRect) -> Bool {
        (0..<720).allSatisfy { step in
            let angle = Double(step) * Double.pi / 360
            let px = (inner.midX + inner.width / 2 * cos(angle) - outer.midX) / (outer.width / 2)
            let py = (inner.midY + inner.height / 2 * sin(angle) - outer.midY) / (outer.height / 2)
            return px * px + py * py <= 1 + 1e-9
        }
    }

    @Test("the box round two boxes for an ellipse: its ellipse holds both ellipses, the plain union's does not; one box is itself")
    func ellipseUnion() {
        for (a, b) in [(rect(0.3, 0.4, 0.1, 0.15), rect(0.36, 0.4, 0.1, 0.15)), (rect(0.3, 0.4, 0.1, 0.15), rect(0.38, 0.5, 0.1, 0.15)),
                       (rect(0.3, 0.4, 0.1, 0.15), rect(0.3, 0.4, 0.2, 0.1))] {
            let round = a.ellipseUnion(b)
            #expect(Self.ellipse(of: round, holds: a) && Self.ellipse(of: round, holds: b))
            #expect(!(Self.ellipse(of: a.union(b), holds: a) && Self.ellipse(of: a.union(b), holds: b)))
            #expect(round.width < a.union(b).width * 1.42 && round.height < a.union(b).height * 1.42)
        }
        let one = rect(0.3, 0.4, 0.1, 0.15)
        #expect(abs(one.ellipseUnion(one).width - one.width) < 1e-12)
    }

    @Test("a face walking out: its box moves on with its motion and grows, same segment, until wholly outside; then the track ends")
    func walkingOut() {
        var policy = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
        policy.update(with: [face(0.80, 0.3, 0.1, 0.15)], at: ms(0))
        let seen = policy.update(with: [face(0.90, 0.3, 0.1, 0.15)], at: ms(200))  // 0.5 picture widths a second
        let box = seen[0].box
        #expect(box.maxX > 1, "not clamped: the whole box, also where it passes the edge")
        let gone = policy.update(with: [], at: ms(400))
        #expect(gone.count == 1 && gone[0].segment == seen[0].segment && gone[0].kind == .face)
        // Moved on 0.1 and grown by 0.5 × 0.2 s = 10 % about its centre.
        expectClose(gone[0].box, box.offsetBy(dx: 0.1, dy: 0).scaled(width: 1.1, height: 1.1))
        // Its left edge, 0.875 + 0.4625 t, passes 1 after 0.27 s lost: at 0.4 s lost the box is
        // handed out once more, wholly outside (the pictures before it follow the face out), then the track ends.
        let out = policy.update(with: [], at: ms(600))
        #expect(out.count == 1 && !out[0].box.meetsPicture)
        #expect(policy.update(with: [], at: ms(800)).isEmpty)
        #expect(policy.update(with: [face(0.5, 0.3, 0.1, 0.15)], at: ms(1_000)).map(\.subject) == [1], "a face after that is someone new")
        // A face standing at the edge, half out, is held where it is (it is not walking anywhere).
        var standing = MultiFaceTrackerPolicy()
        standing.update(with: [face(0.95, 0.3, 0.1, 0.15)], at: ms(0))
        let half = standing.update(with: [face(0.95, 0.3, 0.1, 0.15)], at: ms(200))
        let still = standing.update(with: [], at: ms(1_200))
        #expect(still.count == 1 && still[0].segment == half[0].segment)
        #expect(abs(still[0].box.midX - half[0].box.midX) < 1e-12 && still[0].box.width > half[0].box.width, "held where it is, widening")
    }

    @Test("a face turning away is detected smaller: the box shrinks at most 15 % per detection")
    func shrinkLimit() {
        var policy = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
        let first = policy.update(with: [face(0.4, 0.3, 0.2, 0.3)], at: ms(0))[0].box
        let second = policy.update(with: [face(0.45, 0.35, 0.1, 0.15)], at: ms(200))[0].box
        #expect(abs(second.width - first.width * 0.85) < 1e-12 && abs(second.height - first.height * 0.85) < 1e-12)
        let smaller = settings.expanded(face: rect(0.45, 0.35, 0.1, 0.15))
        #expect(abs(second.midX - smaller.midX) < 1e-12 && abs(second.midY - smaller.midY) < 1e-12, "centred on the new face")
        let third = policy.update(with: [face(0.45, 0.35, 0.1, 0.15)], at: ms(400))[0].box
        #expect(abs(third.width - second.width * 0.85) < 1e-12)
    }

    @Test("a face seen once and never again (a detector's false find) ends after the hold, without the widened estimate")
    func unconfirmedEnds() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        #expect(policy.update(with: [], at: ms(1_500)).count == 1)
        #expect(policy.update(with: [], at: ms(1_700)).isEmpty)
    }

    @Test("a real face found again after a gap (its motion unknown again) and lost is still estimated after the hold")
    func foundAfterGapIsEstimated() {
        var policy = MultiFaceTrackerPolicy()
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(0))
        policy.update(with: [face(0.4, 0.3, 0.1, 0.15)], at: ms(200))
        // Missed for a second (turned away), found again: too long a gap to measure its motion.
        policy.update(with: [face(0.41, 0.3, 0.1, 0.15)], at: ms(1_200))
        #expect(policy.update(with: [], at: ms(2_700)).first?.kind == .face, "held 1.5 s")
        let after = policy.update(with: [], at: ms(2_900))
        #expect(after.count == 1 && after[0].subject == 0 && after[0].kind == .widenedFace, "estimated, not ended as a false find")
    }

    @Test("the end of a video: faces with a known motion carried on, others held")
    func projected() {
        var policy = MultiFaceTrackerPolicy(settings: DetectingSettings.unsmoothed)
        policy.update(with: [face(0.3, 0.3, 0.1, 0.15), face(0.7, 0.3, 0.1, 0.15)], at: ms(0))
        let now = policy.update(with: [face(0.4, 0.3, 0.1, 0.15), face(0.75, 0.3, 0.1, 0.15)], at: ms(200))
        let later = policy.projected(to: ms(300))
        #expect(later.map(\.subject) == [0, 1])
        expectClose(later[0].box, now[0].box.offsetBy(dx: 0.05, dy: 0).scaled(width: 1.05, height: 1.05))
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
        still.update(with: [face(0.22, 0.3, 0.1, 0.15)], at: ms(0))
        still.update(with: [face(0.22, 0.3, 0.1, 0.15)], at: ms(200))
        #expect(still.update(with: [face(0.40, 0.3, 0.1, 0.15)], at: ms(400)).map(\.subject) == [0, 1], "standing still, it is another face")
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
