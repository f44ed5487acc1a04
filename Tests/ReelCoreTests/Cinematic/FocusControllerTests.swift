import Testing
@testable import ReelCore

@Suite("Cinematic focus controller: taps, weak and strong, hysteresis, the lost subject")
struct FocusControllerTests {
    static func at(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }
    static func subject(_ id: Int, _ x: Double, _ y: Double, size: Double = 0.1, prominence: Double? = nil,
                        kind: SubjectKind = .face) -> CinematicSubject {
        let box = NormalizedRect(midX: x, midY: y, width: size, height: size)
        return CinematicSubject(id: id, kind: kind, bounds: box, prominence: prominence ?? box.area)
    }

    @Test("automatic: weak on the most prominent; none: nothing steers")
    func automatic() {
        var focus = FocusController()
        let decision = focus.update([Self.subject(3, 0.5, 0.5, size: 0.2), Self.subject(4, 0.2, 0.2)], at: Self.at(0))
        #expect(decision.mode == .weak && decision.target == .subject(3))
        #expect(decision.dioptres == LayeredDepth.dioptres(of: .face, bounds: NormalizedRect(midX: 0.5, midY: 0.5, width: 0.2, height: 0.2)))
        var none = FocusController(mode: .none)
        let idle = none.update([Self.subject(3, 0.5, 0.5)], at: Self.at(0))
        #expect(idle.target == nil && idle.dioptres == nil)
    }

    @Test("tap: empty space → weak at the point (then the subject that comes there); weak subject → strong; another → weak; strong → weak")
    func taps() {
        var focus = FocusController()
        let a = Self.subject(1, 0.3, 0.5), b = Self.subject(2, 0.7, 0.5)
        _ = focus.update([a, b], at: Self.at(0))
        focus.tap(x: 0.5, y: 0.1)
        var decision = focus.update([a, b], at: Self.at(0.1))
        #expect(decision.mode == .weak && decision.target == .point(x: 0.5, y: 0.1))
        #expect(decision.dioptres == LayeredDepth.backgroundDioptres)
        let arriving = Self.subject(5, 0.5, 0.12)
        decision = focus.update([a, b, arriving], at: Self.at(0.2))
        #expect(decision.mode == .weak && decision.target == .subject(5))
        focus.tap(x: 0.3, y: 0.5)
        #expect(focus.mode == .weak && focus.target == .subject(1))
        focus.tap(x: 0.3, y: 0.5)
        #expect(focus.mode == .strong && focus.target == .subject(1))
        focus.tap(x: 0.7, y: 0.5)
        #expect(focus.mode == .weak && focus.target == .subject(2))
        focus.tap(x: 0.7, y: 0.5)
        focus.tap(x: 0.7, y: 0.5)
        #expect(focus.mode == .weak && focus.target == .subject(2), "a strong subject tapped is any other subject: weak")
    }

    @Test("long press: the plane at the point, fixed, whatever moves or arrives")
    func press() {
        var focus = FocusController()
        let near = Self.subject(1, 0.5, 0.5, size: 0.3)
        _ = focus.update([near], at: Self.at(0))
        focus.press(x: 0.5, y: 0.5)
        let plane = LayeredDepth.dioptres(of: .face, bounds: near.bounds)
        for step in 1...60 {
            let decision = focus.update([Self.subject(1, 0.2, 0.5, size: 0.1), Self.subject(9, 0.5, 0.5, size: 0.5)], at: Self.at(Double(step) / 30))
            #expect(decision.mode == .strong && decision.dioptres == plane)
        }
    }

    @Test("weak yields only to a subject 1.5× as prominent for a whole second; a break starts the second again")
    func hysteresis() {
        var focus = FocusController()
        let current = Self.subject(1, 0.5, 0.5, prominence: 1)
        _ = focus.update([current], at: Self.at(0))
        // 1.4×: never.
        for frame in 1...90 {
            let decision = focus.update([Self.subject(2, 0.2, 0.2, prominence: 1.4), current], at: Self.at(Double(frame) / 30))
            #expect(decision.target == .subject(1))
        }
        // 1.6× from 3.0 s, with a break at 3.5 s: it takes over at 4.5 s... but not before.
        var took: Double?
        for frame in 90...180 {
            let t = Double(frame) / 30
            let rival = Self.subject(2, 0.2, 0.2, prominence: frame == 105 ? 1.2 : 1.6)
            if focus.update([rival, current], at: Self.at(t)).target == .subject(2), took == nil { took = t }
        }
        #expect(took.map { abs($0 - (106.0 / 30 + 1)) < 1e-9 } == true, "took over at \(String(describing: took))")
    }

    @Test("strong survives a more prominent newcomer; a lost strong subject holds its place for 1 s, then weak")
    func strongAndLost() {
        var focus = FocusController()
        let mine = Self.subject(1, 0.5, 0.5, prominence: 1)
        _ = focus.update([mine], at: Self.at(0))
        let focused = focus.focus(on: 1, strong: true)
        #expect(focused)
        let newcomer = Self.subject(2, 0.2, 0.3, size: 0.3, prominence: 5)
        for frame in 1...300 {
            let decision = focus.update([newcomer, mine], at: Self.at(Double(frame) / 30))
            #expect(decision.target == .subject(1))
        }
        let place = LayeredDepth.dioptres(of: .face, bounds: mine.bounds)
        // Gone from 10 s: held until 11 s, then weak on the newcomer.
        for frame in 300...340 {
            let t = Double(frame) / 30
            let decision = focus.update([newcomer], at: Self.at(t))
            if t < 11 - 1e-9 {
                #expect(decision.mode == .strong && decision.target == .subject(1) && decision.dioptres == place, "at \(t)")
            } else {
                #expect(decision.mode == .weak && decision.target == .subject(2), "at \(t)")
            }
        }
    }

    @Test("lock: strong on the main face, even beside a more prominent body; nothing to lock is said")
    func lock() {
        var focus = FocusController()
        let nothing = focus.lockMainSubject()
        #expect(!nothing)
        _ = focus.update([Self.subject(7, 0.5, 0.6, size: 0.5, kind: .upperBody), Self.subject(8, 0.5, 0.3)], at: Self.at(0))
        let locked = focus.lockMainSubject()
        #expect(locked)
        #expect(focus.mode == .strong && focus.target == .subject(8))
        #expect(focus.style(of: 8) == .strong && focus.style(of: 7) == .weak)
        let unknown = focus.focus(on: 99, strong: true)
        #expect(!unknown)
    }
}
