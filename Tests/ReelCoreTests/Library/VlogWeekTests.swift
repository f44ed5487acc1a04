import Foundation
import ReelCore
import Testing

@Suite("Vlog week")
struct VlogWeekTests {
    static let tokyo = TimeZone(identifier: "Asia/Tokyo")!

    /// `local` ("YYYY-MM-DD HH:mm") in `zone`.
    static func date(_ local: String, in zone: TimeZone = tokyo) -> Date {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        formatter.dateFormat = "yyyy-MM-dd HH:mm"
        return formatter.date(from: local)!
    }

    static func session(_ local: String, title: String, minutes: Double = 30) -> StudySession {
        let start = date(local)
        return StudySession(id: UUID(), startedAt: start, endedAt: start.addingTimeInterval(minutes * 60), activeSeconds: minutes * 60,
                            videoSeconds: 10, mode: .timelapse, intervalSeconds: 5, filePath: "/v.mp4", thumbnailPath: nil,
                            faceTrackPath: nil, title: title, tags: [])
    }

    @Test("this and last week start on Monday in local time, from any day of the week, across a year")
    func weeks() {
        for today in ["2026-11-23 00:00", "2026-11-25 12:00", "2026-11-29 23:59"] {
            #expect(VlogWeek(.this, now: Self.date(today), timeZone: Self.tokyo, sessions: []).monday.description == "2026-11-23", "\(today)")
            #expect(VlogWeek(.last, now: Self.date(today), timeZone: Self.tokyo, sessions: []).monday.description == "2026-11-16", "\(today)")
        }
        #expect(VlogWeek(.last, now: Self.date("2027-01-03 10:00"), timeZone: Self.tokyo, sessions: []).monday.description == "2026-12-21")
        #expect(VlogWeek(.this, now: Self.date("2026-11-23 00:00"), timeZone: Self.tokyo, sessions: []).sunday.description == "2026-11-29")
        // Monday 00:30 in Tokyo is still Sunday in UTC: the zone decides.
        let instant = Self.date("2026-11-23 00:30")
        #expect(VlogWeek(.this, now: instant, timeZone: Self.tokyo, sessions: []).monday.description == "2026-11-23")
        #expect(VlogWeek(.this, now: instant, timeZone: TimeZone(identifier: "UTC")!, sessions: []).monday.description == "2026-11-16")
    }

    @Test("sessions go to the day they started on, days and sessions in order; other weeks are left out")
    func days() {
        let sessions = [Self.session("2026-11-18 20:00", title: "late"), Self.session("2026-11-16 09:00", title: "first", minutes: 90),
                        Self.session("2026-11-18 08:00", title: "early"), Self.session("2026-11-15 23:30", title: "sunday before"),
                        Self.session("2026-11-22 23:50", title: "sunday night", minutes: 40), Self.session("2026-11-23 00:00", title: "next monday")]
        let week = VlogWeek(.last, now: Self.date("2026-11-25 12:00"), timeZone: Self.tokyo, sessions: sessions)
        #expect(week.days.map(\.date.description) == ["2026-11-16", "2026-11-18", "2026-11-22"])
        #expect(week.days.map { $0.sessions.map { $0.title ?? "" } } == [["first"], ["early", "late"], ["sunday night"]])
        #expect(week.days[0].activeSeconds == 90 * 60)
        #expect(VlogWeek(.this, now: Self.date("2030-01-01 12:00"), timeZone: Self.tokyo, sessions: sessions).days.isEmpty)
    }

    @Test("study time on a card: minutes, then hours with two-digit minutes")
    func studyText() {
        #expect(VlogWeek.studyText(seconds: 0) == "0 min")
        #expect(VlogWeek.studyText(seconds: 59 * 60 + 29) == "59 min")
        #expect(VlogWeek.studyText(seconds: 60 * 60) == "1 h 00 min")
        #expect(VlogWeek.studyText(seconds: 125 * 60) == "2 h 05 min")
    }
}
