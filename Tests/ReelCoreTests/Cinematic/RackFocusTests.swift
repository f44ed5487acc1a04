import Testing
@testable import ReelCore

@Suite("Cinematic rack focus, aperture and the light warning")
struct RackFocusTests {
    static func at(_ frame: Int, fps: Int = 30) -> MediaTime { MediaTime(value: Int64(frame), timescale: Int32(fps)) }

    /// The depths of a rack from `from` to `to` started at frame 1, for `frames` frames.
    static func rack(from: Double, to: Double, frames: Int, fps: Int = 30) -> [Double] {
        var focus = RackFocus()
        _ = focus.advance(to: from, at: at(0, fps: fps))
        return (1...frames).map { focus.advance(to: to, at: at($0, fps: fps))! }
    }

    @Test("a rack is smooth: never faster than the stated rate, never past the target, settled within 2 % by 0.8 s")
    func smooth() {
        let path = Self.rack(from: 1.0, to: 0.25, frames: 60)
        var previous = 1.0
        for (i, d) in path.enumerated() {
            #expect(abs(d - previous) <= RackFocus.maxRate / 30 + 1e-12, "frame \(i + 1)")
            #expect(d <= previous + 1e-12 && d >= 0.25 - 1e-12, "monotonic, no overshoot at frame \(i + 1)")
            previous = d
        }
        #expect(path[2] > 0.25 + 0.5 * 0.75, "not a jump: a tenth of a second in, most of the way is still to go")
        #expect(abs(path[23] - 0.25) <= 0.02 * 0.75, "within 2 % at 0.8 s")
        #expect(abs(path[17] - 0.25) > 0.02 * 0.75, "but not much sooner")
    }

    @Test("the same path at 24 and 60 pictures a second; a long rack is held to 4 dioptres a second")
    func rates() {
        let slow = Self.rack(from: 1.0, to: 0.25, frames: 12, fps: 24), fast = Self.rack(from: 1.0, to: 0.25, frames: 30, fps: 60)
        #expect(abs(slow[11] - fast[29]) < 1e-9)
        // 5 → 0.25 dioptres: the spring alone would reach 12.7 dioptres a second.
        let long = Self.rack(from: 5.0, to: 0.25, frames: 30)
        let steps = zip([5.0] + long, long).map { abs($0 - $1) }
        let limit = RackFocus.maxRate / 30
        #expect(steps.allSatisfy { $0 <= limit + 1e-12 })
        #expect(steps.filter { abs($0 - limit) < 1e-12 }.count >= 10, "held at the limit for a third of a second or more")
    }

    @Test("a new target mid-rack: no jump, the speed carries on")
    func retarget() {
        var focus = RackFocus()
        _ = focus.advance(to: 1.0, at: Self.at(0))
        var last = 1.0, lastSpeed = 0.0
        for frame in 1...40 {
            let d = focus.advance(to: frame < 8 ? 0.25 : 2.0, at: Self.at(frame))!
            #expect(abs(d - last) <= RackFocus.maxRate / 30 + 1e-12)
            // The spring's pull changes the speed by at most ω²·|gap|·dt + 2ω·|speed|·dt a picture.
            let bound = (RackFocus.omega * RackFocus.omega * 2 + 2 * RackFocus.omega * RackFocus.maxRate) / 30
            #expect(abs(focus.velocity - lastSpeed) <= bound, "speed continuous at frame \(frame)")
            last = d
            lastSpeed = focus.velocity
        }
        let stays = focus.advance(to: nil, at: Self.at(41))
        #expect(stays == last, "no target: stays")
    }

    @Test("a followed subject carries the focus: its depth's jitter and slow moves are in focus at every picture, a jump of it is racked, another subject is racked to")
    func followsTheSubject() {
        var focus = RackFocus()
        // A face whose depth from its box jitters by ±2 steps and drifts at 0.5 D/s.
        let depth = { (frame: Int) in 1.0 + 0.5 * Double(frame) / 30 + (frame % 2 == 0 ? 0.05 : -0.05) }
        for frame in 0...30 {
            let d = focus.advance(to: depth(frame), following: 1, at: Self.at(frame))!
            #expect(abs(d - depth(frame)) < 1e-9, "frame \(frame): focus \(d), the face at \(depth(frame))")
        }
        // The same jitter without the subject named: the spring lags it.
        var plain = RackFocus()
        let lags = (0...30).map { frame in abs(plain.advance(to: depth(frame), at: Self.at(frame))! - depth(frame)) }
        #expect(lags.max()! > 0.05, "the spring alone is behind: \(lags.max()!) D")
        // Found again 1.5 D away (after a gap): racked, not jumped.
        let far = focus.advance(to: depth(31) + 1.5, following: 1, at: Self.at(31))!
        #expect(abs(far - depth(30)) <= RackFocus.maxRate / 30 + 1e-9)
        // Another subject: racked to, whatever its own moves.
        var other = RackFocus()
        _ = other.advance(to: 1.0, following: 1, at: Self.at(0))
        let next = other.advance(to: 0.25, following: 2, at: Self.at(1))!
        #expect(next > 0.9 && next < 1.0, "the first step of a rack to subject 2: \(next)")
    }

    @Test("the focus on a followed subject renders its layer exactly; a focus further than half a step is left as it is")
    func focusOnTheLayer() {
        let step = LayerMap.dioptreStep, subject = 1.013
        #expect(LayerMap.focus(1.013 + 0.4 * step, following: subject) == LayerMap.dioptres(LayerMap.code(subject)))
        #expect(LayerMap.focus(1.013 + 0.6 * step, following: subject) == 1.013 + 0.6 * step)
        #expect(LayerMap.focus(1.013, following: nil) == 1.013)
        #expect(CinematicSidecar.subject(in: CinematicSidecar.text(of: .subject(12))) == 12)
        #expect(CinematicSidecar.subject(in: CinematicSidecar.text(of: .point(x: 0.5, y: 0.5))) == nil)
        #expect(CinematicSidecar.subject(in: nil) == nil)
    }

    @Test("aperture: f/2...f/16, f/4.5 by default; blur grows with the depth gap and the opening, capped")
    func aperture() throws {
        #expect(Aperture.standard.fNumber == 4.5)
        #expect(throws: Aperture.OutOfRange.self) { try Aperture(fNumber: 1.4) }
        #expect(throws: Aperture.OutOfRange.self) { try Aperture(fNumber: 22) }
        #expect(throws: Aperture.OutOfRange.self) { try Aperture(fNumber: .nan) }
        let wide = try Aperture(fNumber: 2), narrow = try Aperture(fNumber: 8)
        // c = 0.05² / 2 · 1 = 1.25 mm of a 36 mm sensor; half of it over 1000 px: 17.36 px.
        #expect(abs(wide.blurRadius(dioptres: 0.25, focus: 1.25, width: 1000) - 1000 * 0.00125 / 0.036 / 2) < 1e-9)
        #expect(wide.blurRadius(dioptres: 1, focus: 1, width: 1000) == 0)
        #expect(abs(narrow.blurRadius(dioptres: 0.25, focus: 1.25, width: 1000) * 4 - wide.blurRadius(dioptres: 0.25, focus: 1.25, width: 1000)) < 1e-9)
        #expect(wide.blurRadius(dioptres: 0.25, focus: 5, width: 1000) == 30, "capped at 3 % of the width")
    }

    @Test("light: raised after a second of dark pictures, cleared after two of bright ones; in between it holds")
    func light() {
        var monitor = LightMonitor()
        let dark = LightMonitor.Reading(meanLuma: 30, noise: 1), bright = LightMonitor.Reading(meanLuma: 120, noise: 0.5)
        let between = LightMonitor.Reading(meanLuma: 50, noise: 1)
        var frame = 0
        func run(_ reading: LightMonitor.Reading, seconds: Double) -> [Bool] {
            (0..<Int(seconds * 30)).map { _ in defer { frame += 1 }; return monitor.update(reading, at: Self.at(frame)) }
        }
        #expect(run(dark, seconds: 0.9).allSatisfy { !$0 })
        #expect(run(bright, seconds: 0.1).allSatisfy { !$0 }, "a break")
        let raised = run(dark, seconds: 1.2)
        #expect(raised.firstIndex(of: true) == 30, "after exactly a second of dark")
        #expect(run(between, seconds: 5).allSatisfy { $0 }, "neither dark nor bright: holds")
        let cleared = run(bright, seconds: 2.5)
        #expect(cleared.firstIndex(of: false) == 60)
        #expect(LightMonitor.isDark(.init(meanLuma: 65, noise: 3.5)) && LightMonitor.isDark(.init(meanLuma: 65, noise: 1, gain: 0.95)))
        #expect(!LightMonitor.isDark(.init(meanLuma: 65, noise: 1, gain: 0.5)) && !LightMonitor.isBright(.init(meanLuma: 120, noise: 1, gain: 0.95)))
    }
}
