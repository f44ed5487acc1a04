import Testing
@testable import ReelCore

@Suite("Live supervisor")
struct LiveSupervisorTests {
    @Test("a status line every second of wall time, at the first tick past each second")
    func status() {
        var supervisor = LiveSupervisor(startedAt: MediaTime(seconds: 50), duration: nil)
        var seen: [Double] = []
        for tenth in 1...35 {
            for action in supervisor.tick(now: MediaTime(seconds: 50 + Double(tenth) / 10)) {
                if case .reportStatus(let elapsed) = action { seen.append(elapsed) }
            }
        }
        #expect(seen.count == 3)
        #expect(zip(seen, [1.0, 2.0, 3.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(seen)")
    }

    @Test("a run with a duration is ended once, the grace after it, if the capture has not ended it; none without a duration")
    func quietSource() {
        var timed = LiveSupervisor(startedAt: .zero, duration: 10)
        var stops: [Double] = []
        for tenth in 1...200 {
            let t = Double(tenth) / 10
            if timed.tick(now: MediaTime(seconds: t)).contains(.stopQuietSource) { stops.append(t) }
        }
        #expect(stops == [15])
        var open = LiveSupervisor(startedAt: .zero, duration: nil)
        #expect(!open.tick(now: MediaTime(seconds: 3600)).contains(.stopQuietSource))
    }
}
