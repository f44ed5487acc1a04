import ReelCore
import Testing

@Suite("Small faces: a whole search every fifth detection, fixed-size crops round the small faces between, merged without doubles")
struct SmallFaceLookTests {
    static func face(_ id: Int, x: Double, y: Double, height: Double) -> CinematicSubject {
        CinematicSubject(id: id, kind: .face, bounds: NormalizedRect(x: x, y: y, width: height * 9 / 16, height: height), prominence: 0)
    }

    @Test("the whole picture at detections 0, 5, 10; crops between only where a small face is tracked")
    func cadence() {
        let look = SmallFaceLook()
        let small = Self.face(2, x: 0.8, y: 0.1, height: 0.03), large = Self.face(1, x: 0.3, y: 0.3, height: 0.3)
        #expect(look.plan(detection: 0, subjects: [], width: 1920, height: 1080) == .whole)
        #expect(look.plan(detection: 5, subjects: [small], width: 1920, height: 1080) == .whole)
        #expect(look.plan(detection: 10, subjects: [large], width: 1920, height: 1080) == .whole)
        #expect(look.plan(detection: 1, subjects: [], width: 1920, height: 1080) == .none)
        #expect(look.plan(detection: 2, subjects: [large], width: 1920, height: 1080) == .none, "a large face is the usual pass's")
        guard case let .crops(crops) = look.plan(detection: 3, subjects: [large, small], width: 1920, height: 1080) else {
            Issue.record("no crops round the small face")
            return
        }
        #expect(crops.count == 1)
        #expect(abs(crops[0].width * 1920 - 320) < 1e-9 && abs(crops[0].height * 1080 - 320) < 1e-9, "320 px a side")
        #expect(crops[0].contains(x: small.bounds.midX, y: small.bounds.midY))
    }

    @Test("a crop at an edge is moved inside the picture, keeping its size; a picture smaller than a crop is looked at whole")
    func edges() {
        let look = SmallFaceLook()
        let corner = Self.face(1, x: 0.98, y: 0.0, height: 0.03)
        guard case let .crops(crops) = look.plan(detection: 1, subjects: [corner], width: 1280, height: 720) else {
            Issue.record("no crop")
            return
        }
        #expect(abs(crops[0].x + crops[0].width - 1) < 1e-9 && crops[0].y == 0)
        #expect(abs(crops[0].width * 1280 - 320) < 1e-9)
        guard case let .crops(small) = look.plan(detection: 1, subjects: [corner], width: 300, height: 200) else {
            Issue.record("no crop")
            return
        }
        #expect(small[0] == NormalizedRect(x: 0, y: 0, width: 1, height: 1))
    }

    @Test("at most three crops, the largest small faces first")
    func cap() {
        let faces = (1...5).map { Self.face($0, x: Double($0) * 0.15, y: 0.1, height: 0.01 * Double($0)) }
        guard case let .crops(crops) = SmallFaceLook().plan(detection: 4, subjects: faces, width: 1920, height: 1080) else {
            Issue.record("no crops")
            return
        }
        #expect(crops.count == 3)
        #expect(zip(crops, faces.reversed().prefix(3)).allSatisfy { $0.contains(x: $1.bounds.midX, y: $1.bounds.midY) })
    }

    @Test("merged: a search's face that is one of the usual pass's is left out; others are added; unseen ones are those no tracked face is")
    func merging() {
        let usual = [SubjectObservation(kind: .face, bounds: NormalizedRect(x: 0.3, y: 0.3, width: 0.2, height: 0.3))]
        let again = SubjectObservation(kind: .face, bounds: NormalizedRect(x: 0.35, y: 0.35, width: 0.1, height: 0.1))
        let far = SubjectObservation(kind: .face, bounds: NormalizedRect(x: 0.8, y: 0.1, width: 0.02, height: 0.03))
        #expect(SmallFaceLook.merge(usual, [again, far]) == usual + [far])
        #expect(SmallFaceLook.merge([], [far]) == [far])
        let tracked = [Self.face(1, x: 0.3, y: 0.3, height: 0.3)]
        let own = [CinematicSubject(id: 0, kind: .face, bounds: far.bounds, prominence: 0), CinematicSubject(id: 0, kind: .face, bounds: again.bounds, prominence: 0)]
        #expect(SmallFaceLook.unseen(own, among: tracked).map(\.bounds) == [far.bounds])
    }
}
