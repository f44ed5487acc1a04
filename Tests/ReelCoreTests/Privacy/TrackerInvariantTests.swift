import Testing
import ReelCore
import ReelTestSupport

@Suite("Face tracker invariants (seeded random scenes)")
struct TrackerInvariantTests {
    private func randomFace(_ rng: inout SplitMix64) -> Detection {
        let w = Double.random(in: 0.03...0.3, using: &rng), h = Double.random(in: 0.05...0.4, using: &rng)
        return face(Double.random(in: -0.1...0.95, using: &rng), Double.random(in: -0.1...0.9, using: &rng), w, h,
                    score: Double.random(in: 0...1, using: &rng))
    }

    @Test("single subject: boxes meet the picture, segments change exactly with the kind, face only within the hold", arguments: 1...20)
    func singleSubject(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var policy = FaceTrackerPolicy()
        let faceChance = Double.random(in: 0.05...0.9, using: &rng)
        var lastFaceFed: Int64?
        var lastDetection: Int64?
        var previous: FaceBox?
        var now: Int64 = 0
        for _ in 0..<900 {
            now += Int64.random(in: 20...80, using: &rng)
            let box = policy.advance(at: ms(now)) { request in
                if let lastDetection { #expect(now - lastDetection >= 200, "seed \(seed): detections at least 0.2 s apart") }
                lastDetection = now
                var found: [Detection] = []
                if Double.random(in: 0...1, using: &rng) < faceChance {
                    found = (0..<Int.random(in: 1...3, using: &rng)).map { _ in randomFace(&rng) }
                    lastFaceFed = now
                }
                if request.includesUpperBodies, Bool.random(using: &rng) { found.append(body(0.2, 0.2, 0.5, 0.8)) }
                return found
            }
            // Whole boxes, not clamped: each meets the picture, but a face walking out during the hold.
            #expect(box.box.width > 0 && box.box.height > 0 && box.box.x.isFinite && box.box.y.isFinite, "seed \(seed)")
            #expect(box.box.meetsPicture || box.kind == .face, "seed \(seed)")
            // The box comes from the last detection: measure the hold from there.
            let sinceFace = lastFaceFed.map { lastDetection! - $0 }
            switch box.kind {
            case .face: #expect(sinceFace.map { $0 <= 1_500 } == true, "seed \(seed): face kind within the hold")
            case .defaultRegion: #expect(sinceFace == nil, "seed \(seed): the default region only before any face")
            case .upperBody, .widenedFace: #expect(sinceFace.map { $0 > 1_500 } == true, "seed \(seed): estimates only after the hold")
            }
            if let previous {
                if previous.kind == box.kind { #expect(box.segment == previous.segment, "seed \(seed)") }
                else { #expect(box.segment == previous.segment + 1, "seed \(seed): a new segment at every change of kind") }
            } else {
                #expect(box.segment == 0)
            }
            previous = box
        }
    }

    @Test("every face: ids unique, ended tracks never come back, a segment belongs to one subject", arguments: 1...10)
    func multiFace(seed: UInt64) {
        var rng = SplitMix64(seed: seed)
        var policy = MultiFaceTrackerPolicy()
        var people = (0..<Int.random(in: 1...4, using: &rng)).map { _ in randomFace(&rng).box }
        var ended = Set<Int>(), live = Set<Int>()
        var owner: [Int: Int] = [:]
        for tick in 0..<300 {
            people = people.map { $0.offsetBy(dx: Double.random(in: -0.01...0.01, using: &rng), dy: Double.random(in: -0.01...0.01, using: &rng)) }
            if Double.random(in: 0...1, using: &rng) < 0.02 { people.append(randomFace(&rng).box) }
            if people.count > 1, Double.random(in: 0...1, using: &rng) < 0.02 { people.removeFirst() }
            let seen = people.filter { _ in Double.random(in: 0...1, using: &rng) < 0.8 }.map { face($0.x, $0.y, $0.width, $0.height) }
            let boxes = policy.update(with: seen, at: ms(Int64(tick) * 200))
            let ids = boxes.map(\.subject)
            #expect(Set(ids).count == ids.count && ids == ids.sorted(), "seed \(seed): one box per subject, by subject")
            #expect(Set(ids).isDisjoint(with: ended), "seed \(seed): an ended track never comes back")
            ended.formUnion(live.subtracting(ids))
            live = Set(ids)
            for box in boxes {
                #expect(owner[box.segment, default: box.subject] == box.subject, "seed \(seed): segment \(box.segment) has one subject")
                owner[box.segment] = box.subject
                #expect(box.kind == .face || box.kind == .widenedFace)
            }
        }
    }
}
