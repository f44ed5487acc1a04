import Testing
import ReelCore

@Suite("Active clock")
struct ActiveClockTests {
    private func ms(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 1000) }

    @Test("counts capture-time deltas; the first frame adds nothing")
    func countsDeltas() {
        var clock = ActiveClock()
        #expect(clock.advance(to: ms(5_000)) == .zero, "the first frame has nothing to measure from")
        #expect(clock.advance(to: ms(5_040)) == ms(40))
        #expect(clock.advance(to: ms(5_100)) == ms(60))
        #expect(clock.active == ms(100))
        #expect(clock.lastPTS == ms(5_100))
    }

    @Test("a reset (pause, resume) makes the next frame add nothing, however late it is")
    func resetForgetsTheReference() {
        var clock = ActiveClock()
        clock.advance(to: ms(0))
        clock.advance(to: ms(1_000))
        clock.resetReference()
        #expect(clock.lastPTS == nil)
        #expect(clock.advance(to: ms(3_600_000)) == .zero, "an hour-long pause never counts")
        #expect(clock.advance(to: ms(3_600_033)) == ms(33))
        #expect(clock.active == ms(1_033))
    }

    @Test("a timestamp going backwards adds nothing and becomes the new reference")
    func backwards() {
        var clock = ActiveClock()
        clock.advance(to: ms(10_000))
        clock.advance(to: ms(10_500))
        #expect(clock.advance(to: ms(2_000)) == .zero)
        #expect(clock.lastPTS == ms(2_000))
        #expect(clock.advance(to: ms(2_100)) == ms(100), "time after a clock reset counts from the new reference")
        #expect(clock.active == ms(600))
        #expect(clock.advance(to: ms(2_100)) == .zero, "a repeated timestamp adds nothing")
    }

    @Test("exact in nanoseconds over long runs")
    func exact() {
        var clock = ActiveClock()
        let start: Int64 = 3 * 86_400 * 1_000_000_000  // three days of uptime
        for frame in 0...(30 * 3600) {  // an hour at 30 fps
            clock.advance(to: .nanoseconds(start + Int64(frame) * 1_000_000_000 / 30))
        }
        #expect(clock.active == MediaTime(value: 3600, timescale: 1))
    }

    @Test("moving forward never moves back")
    func moveForward() {
        var clock = ActiveClock(active: ms(500))
        clock.moveForward(to: ms(400))
        #expect(clock.active == ms(500))
        clock.moveForward(to: ms(520))
        #expect(clock.active == ms(520))
    }
}

@Suite("Timelapse schedule")
struct TimelapseScheduleTests {
    private func s(_ seconds: Double) -> MediaTime { MediaTime(seconds: seconds) }

    @Test("an interval of 0, below 0 or above an hour is refused", arguments: [0.0, -1, 3600.001])
    func refusesBadIntervals(_ seconds: Double) {
        #expect(throws: TimelapseSchedule.Error.invalidInterval(s(seconds))) { try TimelapseSchedule(interval: s(seconds)) }
    }

    @Test("the message says what is accepted")
    func message() {
        #expect("\(TimelapseSchedule.Error.invalidInterval(.zero))".contains("more than 0 s and at most 1 hour"))
    }

    @Test("the first frame always, then one per interval of active time, shown at k/10 s")
    func schedule() throws {
        var schedule = try TimelapseSchedule(interval: s(1))
        var written: [(Int, MediaTime)] = []
        for frame in 0..<(30 * 5) {  // 5 s at 30 fps
            if let out = schedule.consider(active: .nanoseconds(Int64(frame) * 1_000_000_000 / 30)) { written.append(out) }
        }
        #expect(written.map(\.0) == [0, 1, 2, 3, 4])
        #expect(written.map(\.1) == [0, 1, 2, 3, 4].map { MediaTime(value: $0, timescale: 10) })
        #expect(schedule.lastWrittenActive == s(4))
        #expect(TimelapseSchedule.pts(ofFrame: 25) == MediaTime(value: 5, timescale: 2))
    }

    @Test("the next frame is measured from the written frame's own active time: a late frame never brings the next one early")
    func lateFrames() throws {
        var schedule = try TimelapseSchedule(interval: s(1))
        let actives = [0, 0.9, 1.5, 2.0, 2.49, 2.5, 3.0]
        let kept = actives.filter { schedule.consider(active: s($0)) != nil }
        #expect(kept == [0, 1.5, 2.5])
    }

    @Test("an interval longer than the recording gives the first frame only")
    func longInterval() throws {
        var schedule = try TimelapseSchedule(interval: s(3600))
        #expect(schedule.consider(active: s(0)) != nil)
        #expect(schedule.consider(active: s(3599.9)) == nil)
        #expect(schedule.consider(active: s(3600))?.index == 1)
    }
}

@Suite("Full mode timestamps")
struct FullModeTimestampsTests {
    private func ticks(_ value: Int64) -> MediaTime { MediaTime(value: value, timescale: 600) }

    @Test("the active time on a timescale of 600")
    func activeTime() {
        var stamps = FullModeTimestamps()
        #expect(stamps.stamp(active: .zero) == (ticks(0), .zero))
        let third = MediaTime(value: 1, timescale: 3)
        let stamped = stamps.stamp(active: third)
        #expect(stamped.pts == ticks(200))
        #expect(stamped.pts.timescale == 600)
        #expect(stamped.active == third, "the clock is left alone when the time moves forward")
        // 29.97 fps: 1001/30000 s rounds to the nearest 1/600.
        #expect(stamps.stamp(active: MediaTime(value: 11011, timescale: 30000)).pts == ticks(220))
        #expect(stamps.corrections == 0)
    }

    @Test("not strictly increasing: the last timestamp + 1/30 s, and the active time moves to it")
    func strictlyIncreasing() {
        var stamps = FullModeTimestamps()
        _ = stamps.stamp(active: ticks(600))
        let same = stamps.stamp(active: ticks(600))
        #expect(same == (ticks(620), ticks(620)))
        // Less than half a tick later still rounds onto the previous timestamp.
        let close = stamps.stamp(active: MediaTime(value: 620 * 1000 + 400, timescale: 600_000))
        #expect(close.pts == ticks(640))
        let back = stamps.stamp(active: ticks(10))
        #expect(back.pts == ticks(660), "a time going backwards still gets a later timestamp")
        #expect(stamps.corrections == 3)
    }
}
