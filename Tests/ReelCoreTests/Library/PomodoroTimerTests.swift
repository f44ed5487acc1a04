import Foundation
import ReelCore
import Testing

@Suite("Pomodoro timer")
struct PomodoroTimerTests {
    @Test("running with the time left and the share done, then finished; notified once")
    func status() throws {
        let start = Date(timeIntervalSince1970: 1_790_000_000)
        var timer = try PomodoroTimer(minutes: 25, now: start)
        #expect(timer.endsAt == start.addingTimeInterval(1500))
        #expect(timer.status(at: start) == .running(remaining: 1500, done: 0))
        #expect(timer.status(at: start.addingTimeInterval(375)) == .running(remaining: 1125, done: 0.25))
        #expect(timer.status(at: start.addingTimeInterval(1500)) == .finished)
        #expect(!timer.needsNotification(at: start.addingTimeInterval(1499.9)))
        #expect(timer.needsNotification(at: start.addingTimeInterval(1500)))
        timer.notifiedAt = start.addingTimeInterval(1501)
        #expect(!timer.needsNotification(at: start.addingTimeInterval(2000)))
        // A clock set back before the start still reads as running, never above 100 %.
        #expect(timer.status(at: start.addingTimeInterval(-10)) == .running(remaining: 1510, done: 0))
    }

    @Test("lengths outside (0, 1440] minutes are refused; the clock rounds seconds up")
    func limits() {
        #expect(throws: PomodoroTimer.Error.badLength(0)) { try PomodoroTimer(minutes: 0, now: Date()) }
        #expect(throws: PomodoroTimer.Error.badLength(1441)) { try PomodoroTimer(minutes: 1441, now: Date()) }
        #expect(throws: PomodoroTimer.Error.self) { try PomodoroTimer(minutes: .nan, now: Date()) }
        #expect(PomodoroTimer.clock(1500) == "25:00" && PomodoroTimer.clock(59.2) == "1:00" && PomodoroTimer.clock(0.1) == "0:01")
        #expect(PomodoroTimer.clock(0) == "0:00" && PomodoroTimer.clock(-3) == "0:00" && PomodoroTimer.clock(3723) == "1:02:03")
    }
}
