import Foundation
import ReelCore

/// The pomodoro's waiting loops over its shared state file, for any front end (the command
/// line today; a studio page later): follow the timer for a status bar, wait for its end, and
/// announce the end exactly once whoever notices it first. The rules (status, the notify-once
/// rule) are `PomodoroTimer`'s; this type adds the file, the lock and the clock.
public struct PomodoroWatch: Sendable {
    /// The state file every process reads (`reel/pomodoro.json` in the XDG state folder).
    public let file: PomodoroStateFile
    /// Announces a finished timer (a desktop notification); called once per timer, by the
    /// process that claimed the announcement under the file's lock.
    public let announce: @Sendable (PomodoroTimer) -> Void

    /// How ``wait()`` ended.
    public enum WaitOutcome: Sendable, Equatable {
        /// The timer ran out (and its end was announced, by this process or another).
        case finished(PomodoroTimer)
        /// The timer was stopped before its end.
        case stopped
        /// No timer was running when the wait began.
        case notRunning
    }

    /// A watch over `file` that announces ends with `announce`.
    public init(file: PomodoroStateFile, announce: @escaping @Sendable (PomodoroTimer) -> Void) {
        self.file = file
        self.announce = announce
    }

    /// Reads the timer; when it has ended and nobody announced it, claims the announcement
    /// under the lock and announces it.
    public func noticeEnd(now: Date) throws -> PomodoroTimer? {
        let (timer, claimed) = try file.update { current -> (PomodoroTimer?, (PomodoroTimer?, Bool)) in
            guard var timer = current, timer.needsNotification(at: now) else { return (current, (current, false)) }
            timer.notifiedAt = now
            return (timer, (timer, true))
        }
        if claimed, let timer { announce(timer) }
        return timer
    }

    /// Follows the timer: `emit` gets `render`'s line at once and again whenever it changes,
    /// until `emit` returns false (the reader went away). Wakes on the running timer's next
    /// whole second (a clock shows seconds rounded up), else every second to notice a start or
    /// a stop; the file is read, and locked only to claim the end's announcement.
    public func follow(render: (PomodoroTimer?, Date) throws -> String, emit: (String) -> Bool) throws {
        var shown: String?
        while true {
            let now = Date()
            var timer = try file.read()
            if let current = timer, current.needsNotification(at: now) { timer = try noticeEnd(now: now) }
            let line = try render(timer, now)
            if line != shown {
                guard emit(line) else { return }
                shown = line
            }
            var pause = 1.0
            if let timer, case .running(let remaining, _) = timer.status(at: Date()) {
                pause = remaining - remaining.rounded(.down) + 0.005
            }
            Thread.sleep(forTimeInterval: pause)
        }
    }

    /// Sleeps until the timer's end, following stops and restarts (noticed within a second),
    /// then announces the end unless another process did. `waiting` is told the running timer
    /// and the seconds it has left once, when the wait begins: from then on a stop is noticed.
    public func wait(waiting: (PomodoroTimer, Double) -> Void = { _, _ in }) throws -> WaitOutcome {
        guard var timer = try file.read() else { return .notRunning }
        if case .running(let remaining, _) = timer.status(at: Date()) { waiting(timer, remaining) }
        while case .running(let remaining, _) = timer.status(at: Date()) {
            Thread.sleep(forTimeInterval: min(1, remaining))
            guard let next = try file.read() else { return .stopped }
            timer = next
        }
        _ = try noticeEnd(now: Date())
        return .finished(timer)
    }
}
