import Foundation
import Testing
import ReelCore

@Suite("Face tracker policy (single subject)")
struct FaceTrackerPolicyTests {
    /// The expanded box of a raw face, computed here from the numbers of docs/behaviour.md §1
    /// (not the code's).
    private func expanded(_ f: NormalizedRect) -> NormalizedRect {
        let w = f.width * 1.5, h = f.height * 1.7
        let cx = f.x + f.width / 2, cy = f.y + f.height / 2 - 0.1 * f.height
        return rect(cx - w / 2, cy - h / 2, w, h)
    }

    private func lerp(_ a: NormalizedRect, _ b: NormalizedRect) -> NormalizedRect {
        rect(a.x + 0.6 * (b.x - a.x), a.y + 0.6 * (b.y - a.y), a.width + 0.6 * (b.width - a.width), a.height + 0.6 * (b.height - a.height))
    }

    @Test("cadence: the first frame always, then every 0.2 s of capture time; a clock going back is due")
    func cadence() {
        var policy = FaceTrackerPolicy()
        let start: Int64 = 3 * 86_400 * 1_000_000_000  // three days of uptime, in ns
        func at(_ offsetMs: Int64) -> MediaTime { .nanoseconds(start + offsetMs * 1_000_000) }
        #expect(policy.current == nil)
        #expect(policy.action(at: at(0)) == .detect(.faces), "the first frame always")
        policy.update(with: [], at: at(0))
        var due: [Int64] = []
        for offset: Int64 in [33, 66, 100, 150, 199, 200, 233, 399, 400, 401, 650, 651, 850] where policy.action(at: at(offset)) != .keepCurrent {
            due.append(offset)
            policy.update(with: [], at: at(offset))
        }
        #expect(due == [200, 400, 650, 850])
        #expect(policy.action(at: at(700)) == .detect(.faces), "a capture time before the last detection (a restarted clock) is due")
        policy.update(with: [], at: at(700))
        #expect(policy.action(at: at(800)) == .keepCurrent, "and becomes the new reference")
    }

    @Test("several faces: the largest by area is tracked; equal areas go to the higher score")
    func largestFace() {
        var policy = FaceTrackerPolicy()
        let small = face(0.1, 0.1, 0.1, 0.1), large = face(0.6, 0.4, 0.12, 0.2), tall = face(0.3, 0.3, 0.05, 0.3)
        let box = policy.update(with: [small, large, tall], at: ms(0))
        expectClose(box.box, expanded(large.box))
        #expect(box.kind == .face)

        var tie = FaceTrackerPolicy()
        let a = face(0.1, 0.1, 0.1, 0.1, score: 0.7), b = face(0.6, 0.1, 0.1, 0.1, score: 0.9)
        expectClose(tie.update(with: [a, b], at: ms(0)).box, expanded(b.box))
    }

    @Test("expansion: width ×1.5, height ×1.7, centre moved up by 0.1 × the face's height (exact numbers)")
    func expansion() {
        var policy = FaceTrackerPolicy()
        let box = policy.update(with: [face(0.4, 0.3, 0.1, 0.2)], at: ms(0))
        // Centre (0.45, 0.40) → (0.45, 0.38); size 0.15 × 0.34.
        expectClose(box.box, rect(0.375, 0.21, 0.15, 0.34), tolerance: 1e-12)
        #expect(box.segment == 0)
    }

    @Test("smoothing: lerp(previous, new, 0.6) on the expanded box; the first box of a segment is not smoothed")
    func smoothing() {
        var policy = FaceTrackerPolicy()
        let f1 = rect(0.40, 0.30, 0.10, 0.20), f2 = rect(0.50, 0.35, 0.12, 0.22), f3 = rect(0.20, 0.25, 0.10, 0.20)
        let first = policy.update(with: [face(f1.x, f1.y, f1.width, f1.height)], at: ms(0))
        expectClose(first.box, expanded(f1), tolerance: 1e-12)
        let second = policy.update(with: [face(f2.x, f2.y, f2.width, f2.height)], at: ms(200))
        let expectedSecond = lerp(expanded(f1), expanded(f2))
        expectClose(second.box, expectedSecond, tolerance: 1e-12)
        #expect(second.segment == first.segment)
        let third = policy.update(with: [face(f2.x, f2.y, f2.width, f2.height)], at: ms(400))
        expectClose(third.box, lerp(expectedSecond, expanded(f2)), tolerance: 1e-12)

        // Lost beyond the hold → estimate (new segment); the face found again is taken as it is.
        policy.update(with: [], at: ms(2_000))
        #expect(policy.current?.kind == .widenedFace)
        let back = policy.update(with: [face(f3.x, f3.y, f3.width, f3.height)], at: ms(2_200))
        #expect(back.kind == .face && back.segment == third.segment + 2)
        expectClose(back.box, expanded(f3), tolerance: 1e-12)
    }

    @Test("hold: the last box stays (kind face, same segment) up to exactly 1.5 s; bodies are asked for only after")
    func holdBoundary() {
        var policy = FaceTrackerPolicy()
        let seen = policy.update(with: [face(0.4, 0.3, 0.1, 0.2)], at: ms(1_000))
        for t: Int64 in [1_300, 1_600, 1_900, 2_200] {
            #expect(policy.action(at: ms(t)) == .detect(.faces), "within the hold only faces are looked for (\(t) ms)")
            #expect(policy.update(with: [], at: ms(t)) == seen, "held at \(t) ms")
        }
        var atBoundary = policy, justAfter = policy
        #expect(atBoundary.action(at: ms(2_500)) == .detect(.faces))
        #expect(atBoundary.update(with: [], at: ms(2_500)) == seen, "held at exactly 1.5 s")
        let afterTime = MediaTime.nanoseconds(2_500_000_001)
        #expect(justAfter.action(at: afterTime) == .detect(.facesAndUpperBodies), "1.5 s + 1 ns after the last face")
        let estimate = justAfter.update(with: [], at: afterTime)
        #expect(estimate.kind == .widenedFace && estimate.segment == seen.segment + 1)
    }

    @Test("a face found again within the hold continues its segment, smoothed from the held box")
    func faceBackWithinHold() {
        var policy = FaceTrackerPolicy()
        let f1 = rect(0.40, 0.30, 0.10, 0.20), f2 = rect(0.45, 0.30, 0.10, 0.20)
        let first = policy.update(with: [face(f1.x, f1.y, f1.width, f1.height)], at: ms(0))
        policy.update(with: [], at: ms(800))
        let back = policy.update(with: [face(f2.x, f2.y, f2.width, f2.height)], at: ms(1_400))
        #expect(back.segment == first.segment && back.kind == .face)
        expectClose(back.box, lerp(expanded(f1), expanded(f2)), tolerance: 1e-12)
        // The hold now counts from 1.4 s.
        policy.update(with: [], at: ms(2_900))
        #expect(policy.current?.kind == .face)
        #expect(policy.action(at: ms(2_901)) == .keepCurrent)
        #expect(policy.action(at: ms(3_100)) == .detect(.facesAndUpperBodies))
    }

    @Test("upper body: the head is its top 50 % and middle 75 % of the width; the body nearest the last face wins")
    func upperBody() {
        var policy = FaceTrackerPolicy()
        policy.update(with: [face(0.45, 0.2, 0.1, 0.2)], at: ms(0))
        // Ignored during the hold, even if handed in.
        #expect(policy.update(with: [body(0.3, 0.2, 0.4, 0.8)], at: ms(1_000)).kind == .face)
        let far = body(0.0, 0.1, 0.2, 0.5), near = body(0.3, 0.2, 0.4, 0.8)
        let head = policy.update(with: [far, near], at: ms(1_600))
        #expect(head.kind == .upperBody && head.segment == 1)
        expectClose(head.box, rect(0.35, 0.2, 0.3, 0.4), tolerance: 1e-12)
        // Smoothed within its segment like a face.
        let moved = policy.update(with: [body(0.4, 0.2, 0.4, 0.8)], at: ms(1_800))
        #expect(moved.segment == 1)
        expectClose(moved.box, rect(0.35 + 0.6 * 0.1, 0.2, 0.3, 0.4), tolerance: 1e-12)
    }

    @Test("no upper body: the last face box widened ×2 about its centre, same top and height")
    func widened() {
        var policy = FaceTrackerPolicy()
        let last = policy.update(with: [face(0.4, 0.3, 0.1, 0.2)], at: ms(0)).box  // (0.375, 0.21, 0.15, 0.34)
        let box = policy.update(with: [], at: ms(1_600))
        #expect(box.kind == .widenedFace && box.segment == 1)
        expectClose(box.box, rect(0.3, 0.21, 0.3, 0.34), tolerance: 1e-12)
        #expect(abs(box.box.midX - last.midX) < 1e-12)
        // Stays while nothing is found (same segment), follows an upper body when one appears.
        #expect(policy.update(with: [], at: ms(1_800)) == box)
        #expect(policy.update(with: [body(0.3, 0.2, 0.4, 0.8)], at: ms(2_000)).kind == .upperBody)
    }

    @Test("never detected: the default top region (0.15, 0, 0.7, 0.45); bodies are not used before a face")
    func defaultRegion() {
        var policy = FaceTrackerPolicy()
        let box = policy.update(with: [], at: ms(0))
        #expect(box == FaceBox(segment: 0, kind: .defaultRegion, box: rect(0.15, 0, 0.7, 0.45)))
        #expect(policy.action(at: ms(10_000)) == .detect(.faces), "no face was lost, so no body search")
        #expect(policy.update(with: [body(0.3, 0.2, 0.4, 0.8)], at: ms(10_000)) == box)
        let found = policy.update(with: [face(0.4, 0.3, 0.1, 0.2)], at: ms(10_200))
        #expect(found.kind == .face && found.segment == 1)
    }

    @Test("estimates stop just below the face: the head ends at the body's middle, the widened box at the face box's bottom")
    func stopBelowFace() {
        var policy = FaceTrackerPolicy()
        let faceBox = policy.update(with: [face(0.4, 0.2, 0.1, 0.2)], at: ms(0)).box
        // Raw face bottom 0.40; the face box ends 0.25 face heights lower, at 0.45.
        #expect(abs(faceBox.maxY - 0.45) < 1e-12)
        let widened = policy.update(with: [], at: ms(1_600)).box
        #expect(abs(widened.maxY - faceBox.maxY) < 1e-12, "widened sideways only, never towards the desk")
        // A body box reaching the bottom of the picture (the desk): the head stops at its middle.
        let head = policy.update(with: [body(0.25, 0.1, 0.5, 0.9)], at: ms(1_800)).box
        #expect(abs(head.maxY - 0.55) < 1e-12)
        #expect(head.maxY < 1 && head.maxY < 0.1 + 0.9)
    }

    @Test("boxes are handed out whole, also partly outside the picture (the ellipse keeps the face's shape); smoothing works on them")
    func notClamped() {
        var policy = FaceTrackerPolicy()
        let first = policy.update(with: [face(0.0, 0.0, 0.2, 0.2)], at: ms(0))
        // Expanded: (-0.05, -0.09, 0.3, 0.34).
        expectClose(first.box, rect(-0.05, -0.09, 0.3, 0.34), tolerance: 1e-12)
        let second = policy.update(with: [face(-0.1, 0.0, 0.2, 0.2)], at: ms(200))
        // x = -0.05 + 0.6 × (-0.1) = -0.11.
        expectClose(second.box, rect(-0.11, -0.09, 0.3, 0.34), tolerance: 1e-12)
        var right = FaceTrackerPolicy()
        let edge = right.update(with: [face(0.9, 0.85, 0.1, 0.15)], at: ms(0)).box
        #expect(edge.maxX > 1 && edge.meetsPicture)
    }

    @Test("a face walking out of the picture: during the hold its box moves on with its motion and grows (a session is as safe at the edges as a file)")
    func walkingOutDuringHold() {
        var policy = FaceTrackerPolicy()
        policy.update(with: [face(0.80, 0.3, 0.1, 0.15)], at: ms(0))
        let seen = policy.update(with: [face(0.85, 0.3, 0.1, 0.15)], at: ms(200)).box
        // The detected boxes move 0.25 widths a second; the estimate starts from the last detection, not the smoothed box.
        let detected = FaceTrackerSettings.default.expanded(face: rect(0.85, 0.3, 0.1, 0.15))
        let lost = policy.update(with: [], at: ms(600))
        #expect(lost.kind == .face && lost.segment == 0)
        expectClose(lost.box, detected.offsetBy(dx: 0.1, dy: 0).scaled(width: 1.2, height: 1.2))
        #expect(lost.box.midX > seen.midX)
        // Standing still at the edge: held, as docs/behaviour.md §1 says.
        var still = FaceTrackerPolicy()
        still.update(with: [face(0.95, 0.3, 0.1, 0.15)], at: ms(0))
        let held = still.update(with: [face(0.95, 0.3, 0.1, 0.15)], at: ms(200))
        #expect(still.update(with: [], at: ms(1_000)) == held)
    }

    @Test("a rolled face is covered by the bounds of its box turned by the roll, the lift turned with it")
    func rolledFace() {
        let settings = FaceTrackerSettings.default
        // An upright 0.1 × 0.1 face rolled 30°: the detector's box is its bounds, 0.1366 square.
        let roll = Double.pi / 6
        let side = 0.1 * (cos(roll) + sin(roll))
        let detection = Detection(kind: .face, box: NormalizedRect(midX: 0.5, midY: 0.5, width: side, height: side), roll: roll)
        let box = settings.expanded(face: detection)
        // Upright face recovered (0.1 × 0.1), expanded 0.15 × 0.17, turned 30°: bounds 0.15c + 0.17s by 0.15s + 0.17c.
        #expect(abs(box.width - (0.15 * cos(roll) + 0.17 * sin(roll))) < 1e-9)
        #expect(abs(box.height - (0.15 * sin(roll) + 0.17 * cos(roll))) < 1e-9)
        // The lift (0.01) points to the top of the rolled head: right and up for a clockwise roll.
        #expect(abs(box.midX - (0.5 + 0.01 * sin(roll))) < 1e-9 && abs(box.midY - (0.5 - 0.01 * cos(roll))) < 1e-9)
        // Its inscribed ellipse holds the rolled face's own ellipse (radius 0.05 about the centre).
        #expect(min(box.width, box.height) / 2 - 0.01 > 0.05)
        // Nearly upright (below 5°): the plain expansion.
        let upright = Detection(kind: .face, box: rect(0.4, 0.4, 0.1, 0.1), roll: 0.05)
        #expect(settings.expanded(face: upright) == settings.expanded(face: rect(0.4, 0.4, 0.1, 0.1)))
    }

    @Test("a new segment number at every change of kind, and only then")
    func segmentNumbers() {
        var policy = FaceTrackerPolicy()
        let script: [(Int64, [Detection])] = [
            (0, []),                                   // default region
            (200, []),                                 // default region
            (400, [face(0.4, 0.3, 0.1, 0.2)]),         // face
            (600, [face(0.41, 0.3, 0.1, 0.2)]),        // face
            (1_000, []),                               // held face
            (2_200, []),                               // widened
            (2_400, [body(0.3, 0.2, 0.4, 0.8)]),       // upper body
            (2_600, [body(0.31, 0.2, 0.4, 0.8)]),      // upper body
            (2_800, []),                               // widened
            (3_000, [face(0.4, 0.3, 0.1, 0.2)]),       // face
            (3_200, []),                               // held face
        ]
        let boxes = script.map { policy.update(with: $0.1, at: ms($0.0)) }
        #expect(boxes.map(\.kind) == [.defaultRegion, .defaultRegion, .face, .face, .face, .widenedFace, .upperBody, .upperBody,
                                      .widenedFace, .face, .face])
        #expect(boxes.map(\.segment) == [0, 0, 1, 1, 1, 2, 3, 3, 4, 5, 5])
        #expect(boxes.allSatisfy { $0.subject == 0 })
    }

    @Test("advance runs the detector only when due, with the request the rules need")
    func advance() {
        var policy = FaceTrackerPolicy()
        var requests: [(Int64, DetectionRequest)] = []
        var samples: [FaceBox] = []
        for frame: Int64 in 0..<60 {  // 30 fps for 2 s; a face until 0.3 s
            let t = frame * 1000 / 30
            samples.append(policy.advance(at: ms(t)) { request in
                requests.append((t, request))
                return t <= 300 ? [face(0.4, 0.3, 0.1, 0.2)] : []
            })
        }
        #expect(requests.map(\.0) == [0, 200, 400, 600, 800, 1_000, 1_200, 1_400, 1_600, 1_800])
        #expect(requests.filter { $0.1 == .facesAndUpperBodies }.map(\.0) == [1_800], "1.8 s is the first tick beyond 0.2 s (the last face) + 1.5 s")
        #expect(samples.count == 60 && samples.last?.kind == .widenedFace)
    }
}
