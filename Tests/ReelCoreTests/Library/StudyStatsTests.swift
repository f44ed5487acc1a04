import Foundation
import ReelCore
import Testing

@Suite("Study stats")
struct StudyStatsTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// A session starting at `local` ("YYYY-MM-DD HH:mm" in Tokyo), `wall` minutes long with
    /// `active` minutes of study.
    static func session(_ local: String, active: Double, wall: Double? = nil) -> StudySession {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = tokyo
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        let start = formatter.date(from: local)!
        return StudySession(id: UUID(), startedAt: start, endedAt: start.addingTimeInterval((wall ?? active) * 60), activeSeconds: active * 60,
                            videoSeconds: 10, mode: .timelapse, intervalSeconds: 5, filePath: "/v.mp4", thumbnailPath: nil,
                            faceTrackPath: nil, title: nil, tags: [])
    }

    static func day(_ text: String) -> CalendarDay { try! CalendarDay(text) }

    @Test("weeks run Monday to Sunday (ISO), months from the 1st to their last day")
    func periods() {
        let week = StudyStats.Period.week.days(containing: Self.day("2026-12-02"))
        #expect(week.map(\.description) == ["2026-11-30", "2026-12-01", "2026-12-02", "2026-12-03", "2026-12-04", "2026-12-05", "2026-12-06"])
        #expect(StudyStats.Period.week.days(containing: Self.day("2026-11-30")) == week, "a Monday starts its own week")
        #expect(StudyStats.Period.week.days(containing: Self.day("2026-12-06")) == week, "a Sunday ends it")
        #expect(StudyStats.Period.week.days(containing: Self.day("2027-01-01")).first?.description == "2026-12-28", "across the year")
        let february = StudyStats.Period.month.days(containing: Self.day("2028-02-15"))
        #expect(february.count == 29 && february.first?.description == "2028-02-01" && february.last?.description == "2028-02-29")
        #expect(StudyStats.Period.month.days(containing: Self.day("2026-11-30")).count == 30)
    }

    @Test("active minutes go to the local day a session started; the time zone decides the day")
    func perDay() {
        let sessions = [Self.session("2026-11-30 09:00", active: 50, wall: 60), Self.session("2026-11-30 14:00", active: 30),
                        Self.session("2026-12-01 08:30", active: 0.5)]
        let minutes = StudyStats.activeMinutes(of: sessions, timeZone: Self.tokyo)
        #expect(minutes[Self.day("2026-11-30")] == 80)
        #expect(minutes[Self.day("2026-12-01")] == 0.5)
        // In UTC the 08:30 Tokyo session (23:30 UTC) belongs to the 30th.
        let utc = StudyStats.activeMinutes(of: sessions, timeZone: TimeZone(identifier: "UTC")!)
        #expect(utc[Self.day("2026-11-30")] == 80.5 && utc[Self.day("2026-12-01")] == nil)
    }

    @Test("a session across midnight is split by its wall-clock time on each side, active total kept")
    func acrossMidnight() {
        let late = Self.session("2026-11-30 23:00", active: 100, wall: 120)            // 23:00–01:00
        let minutes = StudyStats.activeMinutes(of: [late], timeZone: Self.tokyo)
        #expect(abs(minutes[Self.day("2026-11-30")]! - 50) < 1e-9)
        #expect(abs(minutes[Self.day("2026-12-01")]! - 50) < 1e-9)
        let long = Self.session("2026-11-30 18:00", active: 60, wall: 36 * 60)         // 18:00 → two days later 06:00
        let split = StudyStats.activeMinutes(of: [long], timeZone: Self.tokyo)
        #expect(split.count == 3)
        #expect(abs(split[Self.day("2026-11-30")]! - 60 * 6 / 36) < 1e-9)
        #expect(abs(split[Self.day("2026-12-01")]! - 60 * 24 / 36) < 1e-9)
        #expect(abs(split[Self.day("2026-12-02")]! - 60 * 6 / 36) < 1e-9)
        #expect(abs(split.values.reduce(0, +) - 60) < 1e-9)
        // Ending exactly at midnight stays on its day.
        let toMidnight = StudyStats.activeMinutes(of: [Self.session("2026-11-30 23:00", active: 60)], timeZone: Self.tokyo)
        #expect(toMidnight == [Self.day("2026-11-30"): 60])
    }

    @Test("each day has its goal in force and whether it met it; totals and counts over the period")
    func week() throws {
        let sessions = [Self.session("2026-11-30 09:00", active: 90), Self.session("2026-12-01 09:00", active: 89.5),
                        Self.session("2026-12-03 09:00", active: 130), Self.session("2026-12-03 20:00", active: 10)]
        let goals = [try DailyGoal(date: Self.day("2026-11-01"), minutes: 90), try DailyGoal(date: Self.day("2026-12-03"), minutes: 120)]
        let stats = StudyStats(period: .week, containing: Self.day("2026-12-02"), today: Self.day("2026-12-03"),
                               sessions: sessions, goals: goals, timeZone: Self.tokyo)
        #expect(stats.days.map(\.goalMinutes) == [90, 90, 90, 120, 120, 120, 120])
        #expect(stats.days.map(\.activeMinutes) == [90, 89.5, 0, 140, 0, 0, 0])
        #expect(stats.days.map(\.metGoal) == [true, false, false, true, nil, nil, nil])
        #expect(stats.days.map(\.verdict) == [.met, .below, .below, .met, .toCome, .toCome, .toCome])
        #expect(stats.days.map(\.sessionCount) == [1, 1, 0, 2, 0, 0, 0])
        #expect(stats.totalMinutes == 319.5 && stats.daysMet == 2 && stats.daysWithGoal == 4)
        #expect(stats.streak == 1, "the 3rd met its goal, the 2nd did not")
        let none = StudyStats(period: .week, containing: Self.day("2026-12-02"), today: Self.day("2026-12-03"),
                              sessions: sessions, goals: [], timeZone: Self.tokyo)
        #expect(none.days.allSatisfy { $0.goalMinutes == nil && $0.metGoal == nil } && none.daysWithGoal == 0)
    }

    @Test("only a day that is over can miss its goal: today is 'so far' until met, later days 'to come', neither counted")
    func daysNotOver() throws {
        let goals = [try DailyGoal(date: Self.day("2026-11-01"), minutes: 60)]
        let sessions = [Self.session("2026-12-01 09:00", active: 30), Self.session("2026-11-30 09:00", active: 59.99)]
        let stats = StudyStats(period: .week, containing: Self.day("2026-12-01"), today: Self.day("2026-12-01"),
                               sessions: sessions, goals: goals, timeZone: Self.tokyo)
        #expect(stats.days.map(\.verdict) == [.below, .sofar, .toCome, .toCome, .toCome, .toCome, .toCome])
        #expect(stats.daysWithGoal == 1 && stats.daysMet == 0)
        let met = StudyStats(period: .week, containing: Self.day("2026-12-01"), today: Self.day("2026-12-01"),
                             sessions: sessions + [Self.session("2026-12-01 12:00", active: 30)], goals: goals, timeZone: Self.tokyo)
        #expect(met.days[1].verdict == .met && met.daysWithGoal == 2 && met.daysMet == 1)
        // A whole past week: every day is over.
        let past = StudyStats(period: .week, containing: Self.day("2026-11-24"), today: Self.day("2026-12-01"),
                              sessions: sessions, goals: goals, timeZone: Self.tokyo)
        #expect(past.days.allSatisfy { $0.verdict == .below } && past.daysWithGoal == 7)
    }

    @Test("times are cut down, never rounded up: what reads as reaching a goal has reached it")
    func shownAsDecided() {
        #expect(StudyStatsChart.duration(0.8) == "0 min")
        #expect(StudyStatsChart.duration(59.99) == "59 min")
        #expect(StudyStatsChart.duration(60) == "1 h" && StudyStatsChart.duration(89.9999999999) == "1 h 30")
        #expect(StudyStatsChart.duration(125.5) == "2 h 05")
        // The property: the minutes a person reads reach the goal exactly when the verdict says met.
        func read(_ text: String) -> Int {
            let parts = text.split(separator: " ")
            if parts.last == "min" { return Int(parts[0])! }
            return Int(parts[0])! * 60 + (parts.count == 3 ? Int(parts[2])! : 0)
        }
        for minutes in stride(from: 0.0, through: 130, by: 0.05) {
            for goal in [1, 30, 60, 90, 120] {
                #expect((read(StudyStatsChart.duration(minutes)) >= goal) == StudyStats.reaches(minutes, goal), "\(minutes) vs \(goal)")
            }
        }
    }

    @Test("sessions recorded at the same time count their overlap once, at the busier session's rate")
    func overlapCountsOnce() {
        let a = Self.session("2026-11-30 10:00", active: 60)
        var twin = a
        twin.id = UUID()
        #expect(StudyStats.activeMinutes(of: [a, twin], timeZone: Self.tokyo)[Self.day("2026-11-30")] == 60)
        // Half overlapping: the union of the spans.
        let later = Self.session("2026-11-30 10:30", active: 60)
        #expect(abs(StudyStats.activeMinutes(of: [a, later], timeZone: Self.tokyo)[Self.day("2026-11-30")]! - 90) < 1e-9)
        // A paused session inside a busy one: the busy one's rate wins where they overlap.
        let paused = Self.session("2026-11-30 10:00", active: 15, wall: 60)
        #expect(abs(StudyStats.activeMinutes(of: [paused, a], timeZone: Self.tokyo)[Self.day("2026-11-30")]! - 60) < 1e-9)
        // Separate sessions still add up; an overlap across midnight is split there.
        let evening = Self.session("2026-11-30 20:00", active: 30)
        #expect(abs(StudyStats.activeMinutes(of: [a, evening], timeZone: Self.tokyo)[Self.day("2026-11-30")]! - 90) < 1e-9)
        let night1 = Self.session("2026-11-30 23:00", active: 120), night2 = Self.session("2026-11-30 23:30", active: 60)
        let split = StudyStats.activeMinutes(of: [night1, night2], timeZone: Self.tokyo)
        #expect(abs(split[Self.day("2026-11-30")]! - 60) < 1e-9 && abs(split[Self.day("2026-12-01")]! - 60) < 1e-9)
    }

    @Test("the streak counts back from today (or yesterday while today is not met); goal-less days count when studied")
    func streak() throws {
        let goals = [try DailyGoal(date: Self.day("2026-11-28"), minutes: 60)]
        let sessions = [Self.session("2026-11-25 10:00", active: 5), Self.session("2026-11-26 10:00", active: 5),   // no goal yet: studied
                        Self.session("2026-11-27 10:00", active: 1),
                        Self.session("2026-11-28 10:00", active: 60), Self.session("2026-11-29 10:00", active: 75),
                        Self.session("2026-11-30 10:00", active: 20)]                                                 // today, not yet met
        #expect(StudyStats.streak(endingAt: Self.day("2026-11-30"), sessions: sessions, goals: goals, timeZone: Self.tokyo) == 5)
        var met = sessions
        met.append(Self.session("2026-11-30 18:00", active: 40))
        #expect(StudyStats.streak(endingAt: Self.day("2026-11-30"), sessions: met, goals: goals, timeZone: Self.tokyo) == 6)
        // A missed day with a goal ends it; so does a day without any study before the first goal.
        #expect(StudyStats.streak(endingAt: Self.day("2026-12-02"), sessions: met, goals: goals, timeZone: Self.tokyo) == 0)
        var gap = sessions
        gap.remove(at: 1)                                                                                          // nothing on the 26th
        #expect(StudyStats.streak(endingAt: Self.day("2026-11-29"), sessions: gap, goals: goals, timeZone: Self.tokyo) == 3)
        #expect(StudyStats.streak(endingAt: Self.day("2026-11-29"), sessions: [], goals: goals, timeZone: Self.tokyo) == 0)
    }
}
