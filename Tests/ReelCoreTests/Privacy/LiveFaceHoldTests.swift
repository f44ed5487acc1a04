import Testing
import ReelCore

/// The live stream's hold on scripted detections and a virtual clock: pictures every 33 ms
/// (capture time is the clock), detections asked for every 200 ms and answered after a
/// scripted delay, or never.
@Suite("Live face hold (pictures wait for their detections, at most 1 s, never leave bare)")
struct LiveFaceHoldTests {
    /// One run: what each picture left with, and how long it waited.
    struct Outcome {
        var covers: [(time: MediaTime, cover: LiveFaceHold.Cover, waited: MediaTime)] = []
    }

    static let face = rect(0.4, 0.3, 0.15, 0.2)

    /// Pictures at 30 fps for `seconds`; a detection of each picture at the 200 ms cadence,
    /// answered `answer(detectionTime)` later (nil: never), finding ``face`` at every one.
    func run(seconds: Double, rules: LiveFaceHold.Rules = .live(framesPerSecond: 30, pictureBytes: 1000),
             failAt: Int64? = nil, answer: (Int64) -> Int64?) -> (Outcome, LiveFaceHold) {
        var hold = LiveFaceHold(rules: rules)
        var held: [Int64] = []
        var pending: [(due: Int64, time: Int64)] = []
        var outcome = Outcome()
        var lastAsked: Int64?
        let frames = Int(seconds * 30)
        for index in 0..<frames {
            let now = Int64(index) * 1000 / 30
            if lastAsked == nil || now - lastAsked! >= 200 {
                lastAsked = now
                if let delay = answer(now) { pending.append((now + delay, now)) }
            }
            while let first = pending.first, first.due <= now {
                hold.record(time: ms(first.time), boxes: [FaceBox(segment: 0, kind: .face, box: Self.face)])
                pending.removeFirst()
            }
            if let failAt, now >= failAt, !hold.detectorFailed { hold.recordDetectorFailure() }
            held.append(now)
            while let oldest = held.first,
                  let cover = hold.release(pictureAt: ms(oldest), now: ms(now), pictures: held.count, bytes: held.count * 1000) {
                outcome.covers.append((ms(oldest), cover, ms(now - oldest)))
                held.removeFirst()
            }
        }
        return (outcome, hold)
    }

    /// Whether `cover` hides ``face`` (a box containing it, or the whole picture).
    func hidesFace(_ cover: LiveFaceHold.Cover) -> Bool {
        let boxes: [FaceBox]
        switch cover {
        case .wholePicture: return true
        case .faces(let found), .widened(let found): boxes = found
        }
        return boxes.contains { $0.box.x <= Self.face.x + 1e-9 && $0.box.maxX >= Self.face.maxX - 1e-9
            && $0.box.y <= Self.face.y + 1e-9 && $0.box.maxY >= Self.face.maxY - 1e-9 }
    }

    @Test("a detector that keeps up: every picture leaves with its confirmed face, after less than the longest hold")
    func keepingUp() {
        let (outcome, hold) = run(seconds: 4) { _ in 60 }
        let settled = outcome.covers.filter { if case .faces = $0.cover { true } else { false } }
        #expect(outcome.covers.count > 100)
        #expect(settled.count == outcome.covers.count, "every picture confirmed by its detections")
        #expect(outcome.covers.allSatisfy { hidesFace($0.cover) })
        let longest = outcome.covers.map(\.waited).max() ?? .zero
        #expect(longest < ms(1000) && longest >= ms(400), "waits for two detections after it: \(longest.seconds) s")
        #expect(hold.widenedPictures == 0 && hold.wholePictures == 0)
    }

    @Test("a detector that falls behind: pictures leave at 1 s with the last boxes widened, then covered whole")
    func fallingBehind() {
        // Answers for the first two seconds, then never again.
        let (outcome, hold) = run(seconds: 5) { $0 < 2000 ? 60 : nil }
        #expect(outcome.covers.allSatisfy { $0.waited <= ms(1000) }, "nothing waits longer than the hold")
        #expect(outcome.covers.allSatisfy { hidesFace($0.cover) }, "the face stays covered throughout")
        let widened = outcome.covers.filter { if case .widened = $0.cover { true } else { false } }
        let whole = outcome.covers.filter { $0.cover == .wholePicture }
        #expect(!widened.isEmpty && !whole.isEmpty)
        #expect(hold.widenedPictures == widened.count && hold.wholePictures == whole.count)
        // Widened boxes are wider than the face.
        #expect(widened.allSatisfy { if case .widened(let boxes) = $0.cover { boxes.allSatisfy { $0.box.width > Self.face.width } } else { false } })
        // A picture after the last detection (1800 ms) is in no detection: a face that came
        // into view since would be in no box, so it is covered whole, from the first such one.
        #expect(whole.allSatisfy { $0.time > ms(1800) })
        #expect(whole.first.map { $0.time } == outcome.covers.first { $0.time > ms(1800) }?.time)
    }

    @Test("a slow detector (answers after 900 ms): pictures still leave in time, covered conservatively")
    func slowDetector() {
        let (outcome, hold) = run(seconds: 4) { _ in 900 }
        #expect(outcome.covers.allSatisfy { $0.waited <= ms(1000) && hidesFace($0.cover) })
        #expect(hold.widenedPictures > 0)
    }

    @Test("a detector that fails: every picture still held and after leaves covered whole at once")
    func failure() {
        let (outcome, _) = run(seconds: 3, failAt: 1500) { _ in 60 }
        let after = outcome.covers.filter { $0.time >= ms(1500) }
        #expect(!after.isEmpty && after.allSatisfy { $0.cover == .wholePicture && $0.waited == .zero })
        #expect(outcome.covers.allSatisfy { hidesFace($0.cover) })
    }

    @Test("before any detection, a picture that must leave is covered whole")
    func nothingYet() {
        let (outcome, _) = run(seconds: 2) { _ in nil }
        #expect(outcome.covers.count > 20 && outcome.covers.allSatisfy { $0.cover == .wholePicture })
        #expect(outcome.covers.allSatisfy { $0.waited == ms(1000) })
    }

    @Test("in the first second of detections a late picture is covered whole: a face the first detections missed is not known yet")
    func warmingUp() {
        var hold = LiveFaceHold(rules: .live(framesPerSecond: 30, pictureBytes: 1000))
        let box = FaceBox(segment: 0, kind: .face, box: Self.face)
        for t in stride(from: Int64(0), through: 800, by: 200) {
            hold.record(time: ms(t), boxes: [box])
            // A picture the detection looked at, but before a second of detections.
            #expect(hold.decide(pictureAt: ms(t), now: ms(t + 1000), pictures: 31, bytes: 31_000) == .release(.wholePicture))
        }
        hold.record(time: ms(1000), boxes: [box])
        guard case .release(.widened(let boxes)) = hold.decide(pictureAt: ms(1000), now: ms(2000), pictures: 31, bytes: 31_000) else {
            Issue.record("a second look: the last boxes, widened")
            return
        }
        #expect(boxes.count == 1 && boxes[0].box.width > Self.face.width)
    }

    @Test("the hold is bounded in pictures and in bytes as well as in time")
    func bounds() {
        var rules = LiveFaceHold.Rules.live(framesPerSecond: 30, pictureBytes: 1000)
        rules.mostPictures = 10
        let (byCount, _) = run(seconds: 2, rules: rules) { _ in nil }
        #expect(byCount.covers.allSatisfy { $0.waited <= ms(334) }, "at most 10 pictures wait")
        rules = .live(framesPerSecond: 30, pictureBytes: 1000)
        rules.mostBytes = 5000
        let (byBytes, _) = run(seconds: 2, rules: rules) { _ in nil }
        #expect(byBytes.covers.allSatisfy { $0.waited <= ms(167) }, "at most 5 pictures' bytes wait")
        #expect(LiveFaceHold.Rules.live(framesPerSecond: 30, pictureBytes: 100).mostPictures == 39)
    }

    @Test("the end of the stream settles every picture still held with the tracks carried on")
    func finishing() {
        var hold = LiveFaceHold(rules: .live(framesPerSecond: 30, pictureBytes: 1000))
        let box = FaceBox(segment: 0, kind: .face, box: Self.face)
        hold.record(time: ms(0), boxes: [box])
        hold.record(time: ms(200), boxes: [box])
        #expect(hold.decide(pictureAt: ms(300), now: ms(400), pictures: 4, bytes: 4000) == .hold)
        hold.finish(time: ms(400), boxes: [box])
        #expect(hold.decide(pictureAt: ms(300), now: ms(400), pictures: 4, bytes: 4000) == .release(.faces([box])))
    }
}
