import ReelCore
import Testing

/// The cinematic vision's rate in real time, on virtual time: down a step for a drop (at most a
/// step a second, never under 5 looks a second), back up a step after 10 s without a drop.
@Suite("VisionRate: the vision looks less often while pictures are dropped")
struct VisionRateTests {
    /// Feeds `dropped` at `seconds`; whether the rate changed, and the rate after.
    static func feed(_ rate: inout VisionRate, dropped: Int, at seconds: Double) -> (changed: Bool, rate: Double) {
        let changed = rate.update(dropped: dropped, at: MediaTime(seconds: seconds))
        return (changed, rate.looksPerSecond)
    }

    @Test("no drop: 15 looks a second for ever")
    func steady() {
        var rate = VisionRate()
        var changes = 0
        for i in 0..<3000 where Self.feed(&rate, dropped: 0, at: Double(i) / 30).changed { changes += 1 }
        #expect(changes == 0 && rate.looksPerSecond == 15 && rate.lowest == 15)
    }

    @Test("a drop lowers a step; more drops within the second do not; a drop a second later lowers again; the floor is 5")
    func lowering() {
        var rate = VisionRate()
        let first = Self.feed(&rate, dropped: 1, at: 2)
        #expect(first.changed && first.rate == 12)
        let soon = Self.feed(&rate, dropped: 3, at: 2.5)
        #expect(!soon.changed && soon.rate == 12)
        let noNewDrop = Self.feed(&rate, dropped: 3, at: 3.5)
        #expect(!noNewDrop.changed && noNewDrop.rate == 12)
        let later = Self.feed(&rate, dropped: 4, at: 3.6)
        #expect(later.changed && later.rate == 10)
        for second in 5...14 { _ = Self.feed(&rate, dropped: 4 + second, at: Double(second)) }
        #expect(rate.looksPerSecond == 5 && rate.lowest == 5)
        let floor = Self.feed(&rate, dropped: 100, at: 20)
        #expect(!floor.changed && floor.rate == 5)
        #expect(rate.interval == MediaTime(seconds: 0.2))
    }

    @Test("10 s without a drop raises a step, 10 s more the next; a drop on the way lowers again and restarts the wait")
    func raising() {
        var rate = VisionRate()
        _ = Self.feed(&rate, dropped: 1, at: 0)
        #expect(Self.feed(&rate, dropped: 2, at: 1).rate == 10)
        #expect(!Self.feed(&rate, dropped: 2, at: 10.9).changed)
        #expect(Self.feed(&rate, dropped: 2, at: 11) == (true, 12))
        #expect(Self.feed(&rate, dropped: 3, at: 15) == (true, 10))
        #expect(!Self.feed(&rate, dropped: 3, at: 24.9).changed)
        #expect(Self.feed(&rate, dropped: 3, at: 25) == (true, 12))
        #expect(Self.feed(&rate, dropped: 3, at: 35) == (true, 15))
        #expect(!Self.feed(&rate, dropped: 3, at: 60).changed && rate.lowest == 10)
    }
}
