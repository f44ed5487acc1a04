import Testing
@testable import ReelCore

@Suite("Live supervisor")
struct LiveSupervisorTests {
    @Test("a status line every second of wall time, at the first tick past each second")
    func status() {
        var supervisor = LiveSupervisor(startedAt: MediaTime(seconds: 50), duration: nil)
        var seen: [Double] = []
        for tenth in 1...35 {
            let now = MediaTime(seconds: 50 + Double(tenth) / 10)
            for action in supervisor.tick(now: now, lastSample: now) {
                if case .reportStatus(let elapsed) = action { seen.append(elapsed) }
            }
        }
        #expect(seen.count == 3)
        #expect(zip(seen, [1.0, 2.0, 3.0]).allSatisfy { abs($0 - $1) < 1e-9 }, "\(seen)")
    }

    @Test("past its duration, a run whose source has been quiet for the grace is ended once; samples still coming, or no duration: never")
    func quietSource() {
        // Samples until 7 s, then nothing: quiet for 5 s at 12 s, past the 10 s duration.
        var timed = LiveSupervisor(startedAt: .zero, duration: 10)
        var stops: [Double] = []
        for tenth in 1...200 {
            let t = Double(tenth) / 10
            if timed.tick(now: MediaTime(seconds: t), lastSample: MediaTime(seconds: min(t, 7))).contains(.stopQuietSource) { stops.append(t) }
        }
        #expect(stops == [12])
        // Quiet from the start: the duration is what it waits for.
        var silent = LiveSupervisor(startedAt: .zero, duration: 10)
        let silentStops = (1...200).filter { silent.tick(now: MediaTime(seconds: Double($0) / 10), lastSample: nil).contains(.stopQuietSource) }
        #expect(silentStops == [100])
        // Samples still coming long after the duration (a slow pipeline): never stopped here.
        var busy = LiveSupervisor(startedAt: .zero, duration: 10)
        #expect(!(1...600).contains { busy.tick(now: MediaTime(seconds: Double($0) / 10), lastSample: MediaTime(seconds: Double($0) / 10 - 1)).contains(.stopQuietSource) })
        var open = LiveSupervisor(startedAt: .zero, duration: nil)
        #expect(!open.tick(now: MediaTime(seconds: 3600), lastSample: nil).contains(.stopQuietSource))
    }
}
