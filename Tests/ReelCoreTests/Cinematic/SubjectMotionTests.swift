import Testing
@testable import ReelCore

@Suite("Subject motion: velocities from the flow between looks, a look carried to a later picture")
struct SubjectMotionTests {
    static func at(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }

    static func close(_ a: NormalizedOffset?, _ b: NormalizedOffset) -> Bool {
        guard let a else { return false }
        return abs(a.dx - b.dx) < 1e-9 && abs(a.dy - b.dy) < 1e-9
    }

    @Test("the velocity is the move over the time between looks, then smoothed; the first look has none")
    func velocities() {
        var motion = SubjectMotion()
        #expect(motion.update([1: NormalizedOffset(dx: 0.05, dy: 0)], at: Self.at(1)).isEmpty)
        let first = motion.update([1: NormalizedOffset(dx: 0.01, dy: -0.002)], at: Self.at(1.1))
        #expect(Self.close(first[1], NormalizedOffset(dx: 0.1, dy: -0.02)))
        let second = motion.update([1: NormalizedOffset(dx: 0.02, dy: -0.002)], at: Self.at(1.2))
        let expected = 0.1 + SubjectMotion.smoothing * (0.2 - 0.1)
        #expect(Self.close(second[1], NormalizedOffset(dx: expected, dy: -0.02)))
        #expect(motion.velocities == second)
    }

    @Test("a subject not measured loses its velocity; a new one starts from its first measure")
    func comeAndGo() {
        var motion = SubjectMotion()
        _ = motion.update([:], at: Self.at(0))
        _ = motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.1))
        let after = motion.update([2: NormalizedOffset(dx: 0, dy: 0.03)], at: Self.at(0.2))
        #expect(after[1] == nil)
        #expect(Self.close(after[2], NormalizedOffset(dx: 0, dy: 0.3)))
    }

    @Test("looks more than half a second apart, or out of order, restart every velocity")
    func gaps() {
        var motion = SubjectMotion()
        _ = motion.update([:], at: Self.at(0))
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.1))[1] != nil)
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.7)).isEmpty)
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.8))[1] != nil)
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.8)).isEmpty)
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.75)).isEmpty)
        // Exactly the longest gap still counts.
        #expect(motion.update([1: NormalizedOffset(dx: 0.01, dy: 0)], at: Self.at(0.75) + SubjectMotion.maxGap)[1] != nil)
    }

    @Test("carrying a look moves each box by velocity × the look's age, at most a quarter second, forward for an older look and back for a later one; nothing for the picture's own")
    func carry() {
        let box = NormalizedRect(x: 0.4, y: 0.2, width: 0.1, height: 0.18)
        let subjects = [CinematicSubject(id: 1, kind: .face, bounds: box, prominence: 1),
                        CinematicSubject(id: 2, kind: .upperBody, bounds: box, prominence: 0.5)]
        let velocities = [1: NormalizedOffset(dx: 0.3, dy: -0.1)]
        let carried = SubjectMotion.carry(subjects, velocities: velocities, lead: Self.at(0.1))
        #expect(Self.close(carried.shifts[1], NormalizedOffset(dx: 0.03, dy: -0.01)))
        #expect(abs(carried.subjects[0].bounds.x - 0.43) < 1e-9 && abs(carried.subjects[0].bounds.y - 0.19) < 1e-9)
        #expect(carried.subjects[0].bounds.width == box.width && carried.subjects[0].bounds.height == box.height)
        // Without a velocity: where it was, no shift.
        #expect(carried.subjects[1] == subjects[1] && carried.shifts[2] == nil)
        // An old look: carried a quarter second only.
        let old = SubjectMotion.carry(subjects, velocities: velocities, lead: Self.at(2))
        #expect(Self.close(old.shifts[1], NormalizedOffset(dx: 0.3 * 0.25, dy: -0.1 * 0.25)))
        let none = SubjectMotion.carry(subjects, velocities: velocities, lead: .zero)
        #expect(none.subjects == subjects && none.shifts.isEmpty)
        // A look after the picture: carried back, as far as forward at most.
        let later = SubjectMotion.carry(subjects, velocities: velocities, lead: Self.at(-0.1))
        #expect(Self.close(later.shifts[1], NormalizedOffset(dx: -0.03, dy: 0.01)))
        #expect(abs(later.subjects[0].bounds.x - 0.37) < 1e-9 && abs(later.subjects[0].bounds.y - 0.21) < 1e-9)
        let farLater = SubjectMotion.carry(subjects, velocities: velocities, lead: Self.at(-2))
        #expect(Self.close(farLater.shifts[1], NormalizedOffset(dx: -0.3 * 0.25, dy: 0.1 * 0.25)))
    }
}
