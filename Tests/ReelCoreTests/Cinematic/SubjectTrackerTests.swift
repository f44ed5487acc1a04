import Testing
@testable import ReelCore

@Suite("Cinematic subjects: stable ids by predicted position, prominence")
struct SubjectTrackerTests {
    static func at(_ frame: Int) -> MediaTime { MediaTime(value: Int64(frame), timescale: 30) }
    static func face(_ x: Double, _ y: Double, size: Double = 0.1) -> SubjectObservation {
        SubjectObservation(kind: .face, bounds: NormalizedRect(midX: x, midY: y, width: size, height: size))
    }

    @Test("a face moving across keeps its id; a second face gets the next; most prominent first")
    func stableIDs() {
        var tracker = SubjectTracker()
        for frame in 0..<30 {
            let x = 0.2 + 0.02 * Double(frame)
            var seen = [Self.face(x, 0.4)]
            if frame >= 10 { seen.append(Self.face(0.8, 0.8, size: 0.05)) }
            let subjects = tracker.update(seen, at: Self.at(frame))
            #expect(subjects.first?.id == 1)
            #expect(subjects.count == (frame >= 10 ? 2 : 1))
            if frame >= 10 { #expect(subjects[1].id == 2) }
        }
    }

    @Test("missed detections keep the id for half a second, at the predicted place; longer, a new id")
    func holds() {
        var tracker = SubjectTracker()
        // Moving 0.03 a frame; unseen for frames 10...24 (0.5 s), seen again where it went.
        for frame in 0..<10 { _ = tracker.update([Self.face(0.1 + 0.03 * Double(frame), 0.5)], at: Self.at(frame)) }
        for frame in 10..<25 {
            let subjects = tracker.update([], at: Self.at(frame))
            #expect(subjects.map(\.id) == [1])
            #expect(abs(subjects[0].bounds.midX - (0.1 + 0.03 * Double(frame))) < 1e-9, "predicted at frame \(frame)")
        }
        let back = tracker.update([Self.face(0.1 + 0.03 * 25, 0.5)], at: Self.at(25))
        #expect(back.map(\.id) == [1])
        // Gone for 16 frames (> 0.5 s): dropped, and the face that comes back is new.
        for frame in 26..<42 { _ = tracker.update([], at: Self.at(frame)) }
        let gone = tracker.update([], at: Self.at(42))
        #expect(gone.isEmpty)
        let new = tracker.update([Self.face(0.5, 0.5)], at: Self.at(43))
        #expect(new.map(\.id) == [2])
    }

    @Test("a body the cascades look for every third detection keeps its id through one missed look of theirs, not through two; a face beside it is dropped as before")
    func kindsLookedForLessOften() {
        var tracker = SubjectTracker()
        let body = SubjectObservation(kind: .upperBody, bounds: NormalizedRect(midX: 0.3, midY: 0.6, width: 0.3, height: 0.4))
        // Detections every 0.2 s (6 frames); the cascades at 0, 0.6, 1.2 … s. Both seen at 0.
        _ = tracker.update([body, Self.face(0.8, 0.3)], at: Self.at(0))
        var last: [CinematicSubject] = []
        for round in 1...6 {
            let cascades = round % 3 == 0
            last = tracker.update([], lookedFor: cascades ? nil : [.face], at: Self.at(6 * round))
            let ids = Set(last.map(\.id))
            // The body: missed at 0.6 s (one look of its kind) kept; missed again at 1.2 s, dropped.
            #expect(ids.contains(1) == (round < 6), "round \(round) (\(Double(round) * 0.2) s): \(ids)")
            // The face: unseen for more than 0.5 s and two looks, dropped at 0.6 s.
            #expect(ids.contains(2) == (round < 3), "round \(round): \(ids)")
        }
        #expect(last.isEmpty)
    }

    @Test("a still face whose last two sightings jitter by 0.4 of its box, unseen for 0.4 s, keeps its id (its jitter is not a velocity)")
    func jitterIsNotMotion() {
        var tracker = SubjectTracker()
        // Detections every 0.2 s (6 frames): the jitter taken for motion would carry the
        // prediction 3 × 0.4 = 1.2 boxes away by frame 24.
        _ = tracker.update([Self.face(0.5, 0.5, size: 0.03)], at: Self.at(0))
        _ = tracker.update([Self.face(0.512, 0.5, size: 0.03)], at: Self.at(6))
        #expect(tracker.update([], at: Self.at(12)).map(\.id) == [1])
        #expect(tracker.update([], at: Self.at(18)).map(\.id) == [1])
        #expect(tracker.update([Self.face(0.5, 0.5, size: 0.03)], at: Self.at(24)).map(\.id) == [1])
    }

    @Test("a small still face found in some detections and missed in others, for up to 0.8 s, keeps one id for 10 s beside a moving one")
    func erraticStillFace() {
        var tracker = SubjectTracker()
        var ids = Set<Int>()
        for detection in 0..<50 {
            let frame = detection * 6
            // Seen at 3 detections in 7 (gaps of 0.2 and 0.8 s), jittering by a tenth of its box.
            var seen = [Self.face(0.2 + 0.01 * Double(detection), 0.5)]
            if [0, 1, 3].contains(detection % 7) {
                let jitter = 0.003 * Double(detection % 3 - 1)
                seen.append(Self.face(0.8 + jitter, 0.3 - jitter, size: 0.027 + abs(jitter)))
            }
            let subjects = tracker.update(seen, at: Self.at(frame))
            ids.formUnion(subjects.map(\.id))
            #expect(subjects.first { $0.bounds.midX < 0.7 }?.id == 1, "detection \(detection)")
            if seen.count == 2 { #expect(subjects.first { $0.bounds.midX > 0.7 }?.id == 2, "detection \(detection): \(subjects)") }
        }
        #expect(ids == [1, 2])
    }

    @Test("a dropped subject's id is taken back only by its kind, near its place, of a like size, within 3 s")
    func recallLimits() {
        func dropped() -> SubjectTracker {
            var tracker = SubjectTracker()
            _ = tracker.update([Self.face(0.5, 0.5)], at: Self.at(0))
            #expect(tracker.update([], at: Self.at(18)).map(\.id) == [1], "one look missed: kept")
            #expect(tracker.update([], at: Self.at(24)).isEmpty, "dropped after 0.5 s and two looks")
            return tracker
        }
        var same = dropped()
        #expect(same.update([Self.face(0.52, 0.5, size: 0.12)], at: Self.at(30)).map(\.id) == [1])
        var cat = dropped()
        let catFace = SubjectObservation(kind: .catFace, bounds: NormalizedRect(midX: 0.5, midY: 0.5, width: 0.1, height: 0.1))
        #expect(cat.update([catFace], at: Self.at(30)).map(\.id) == [2])
        var larger = dropped()
        #expect(larger.update([Self.face(0.5, 0.5, size: 0.2)], at: Self.at(30)).map(\.id) == [2])
        var elsewhere = dropped()
        #expect(elsewhere.update([Self.face(0.7, 0.5)], at: Self.at(30)).map(\.id) == [2])
        var late = dropped()
        #expect(late.update([Self.face(0.5, 0.5)], at: Self.at(91)).map(\.id) == [2], "3 s after it was last seen")
        // Two faces back where one was: the nearer takes the id, in either order, the other is new.
        for order in [[0.5, 0.56], [0.56, 0.5]] {
            var two = dropped()
            #expect(Set(two.update(order.map { Self.face($0, 0.5) }, at: Self.at(30)).map(\.id)) == [1, 2])
            #expect(two.subjects.first { $0.id == 1 }?.bounds.midX == 0.5, "\(order)")
        }
    }

    @Test("two faces passing each other keep their ids; a cat where a face was is a new subject")
    func passingAndKinds() {
        var tracker = SubjectTracker()
        for frame in 0..<20 {
            let t = Double(frame)
            let subjects = tracker.update([Self.face(0.2 + 0.03 * t, 0.45), Self.face(0.8 - 0.03 * t, 0.55)], at: Self.at(frame))
            let one = subjects.first { $0.id == 1 }!, two = subjects.first { $0.id == 2 }!
            #expect(abs(one.bounds.midX - (0.2 + 0.03 * t)) < 1e-9 && abs(two.bounds.midX - (0.8 - 0.03 * t)) < 1e-9, "frame \(frame)")
        }
        var other = SubjectTracker()
        _ = other.update([Self.face(0.5, 0.5)], at: Self.at(0))
        let cat = SubjectObservation(kind: .catFace, bounds: NormalizedRect(midX: 0.5, midY: 0.5, width: 0.1, height: 0.1))
        let both = other.update([cat], at: Self.at(1))
        #expect(Set(both.map(\.id)) == [1, 2])
    }

    @Test("prominence: bigger, nearer the middle, faces before bodies, the detector's score")
    func prominence() {
        let middle = NormalizedRect(midX: 0.5, midY: 0.5, width: 0.2, height: 0.2)
        let corner = NormalizedRect(midX: 0, midY: 0, width: 0.2, height: 0.2)
        #expect(SubjectTracker.prominence(of: middle, kind: .face, score: 1) == middle.area)
        #expect(abs(SubjectTracker.prominence(of: corner, kind: .face, score: 1) - middle.area / 2) < 1e-12)
        #expect(SubjectTracker.prominence(of: middle, kind: .upperBody, score: 1) < SubjectTracker.prominence(of: middle, kind: .face, score: 1))
        // A body three times a face's width and 2.5 times its height holds a head of the face's size: the face still wins.
        let body = NormalizedRect(midX: 0.5, midY: 0.5, width: 0.6, height: 0.5)
        #expect(SubjectTracker.prominence(of: body, kind: .upperBody, score: 1) < SubjectTracker.prominence(of: middle, kind: .face, score: 1))
        #expect(SubjectTracker.prominence(of: middle, kind: .face, score: 0.5) == middle.area / 2)
    }
}
