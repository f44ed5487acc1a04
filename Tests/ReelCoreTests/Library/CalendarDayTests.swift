import Foundation
import ReelCore
import Testing

@Suite("Calendar days")
struct CalendarDayTests {
    @Test("YYYY-MM-DD parses and prints back; other forms and days that do not exist are refused")
    func parsing() throws {
        #expect(try CalendarDay("2026-11-30").description == "2026-11-30")
        #expect(try CalendarDay("2024-02-29").day == 29)
        #expect(throws: CalendarDay.Error.noSuchDay("2026-02-29")) { try CalendarDay("2026-02-29") }
        #expect(throws: CalendarDay.Error.noSuchDay("1900-02-29")) { try CalendarDay("1900-02-29") }
        #expect(throws: CalendarDay.Error.noSuchDay("2026-13-01")) { try CalendarDay("2026-13-01") }
        for bad in ["2026-1-05", "26-11-30", "2026/11/30", "2026-11-30T00:00", "", "2026-11-3x", "+026-11-30"] {
            #expect(throws: CalendarDay.Error.notADate(bad)) { try CalendarDay(bad) }
        }
    }

    @Test("day arithmetic crosses months, leap days and years; weekdays are ISO (Monday 1)")
    func arithmetic() throws {
        let d = try CalendarDay("2024-02-28")
        #expect(d.adding(days: 1).description == "2024-02-29")
        #expect(d.adding(days: 2).description == "2024-03-01")
        #expect(try CalendarDay("2026-12-31").adding(days: 1).description == "2027-01-01")
        #expect(try CalendarDay("2027-01-01").adding(days: -1).description == "2026-12-31")
        #expect(try CalendarDay("2026-01-01").days(to: CalendarDay("2027-01-01")) == 365)
        #expect(try CalendarDay("2026-11-30").isoWeekday == 1)   // a Monday
        #expect(try CalendarDay("2026-11-29").isoWeekday == 7)   // a Sunday
        #expect(try CalendarDay("2000-01-01").weekdayAbbreviation == "Sat")
        // Against Foundation's calendar over four years, day by day.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        var day = try CalendarDay("2023-01-01")
        for offset in 0..<(366 * 4) {
            let date = calendar.date(byAdding: .day, value: offset, to: calendar.date(from: DateComponents(year: 2023, month: 1, day: 1))!)!
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: date)
            #expect(day.year == parts.year && day.month == parts.month && day.day == parts.day)
            #expect(day.isoWeekday == (parts.weekday! + 5) % 7 + 1)
            day = day.adding(days: 1)
        }
    }

    @Test("the day of an instant and the start of a day follow the time zone")
    func timeZones() throws {
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!, utc = TimeZone(identifier: "UTC")!
        let instant = Date(timeIntervalSince1970: 1_796_050_800)  // 2026-11-30T15:00:00Z = 2026-12-01 00:00 in Tokyo
        #expect(CalendarDay(containing: instant, in: utc).description == "2026-11-30")
        #expect(CalendarDay(containing: instant, in: tokyo).description == "2026-12-01")
        #expect(try CalendarDay("2026-12-01").start(in: tokyo) == instant)
        // A day whose midnight a clock change skips (Santiago, 2026-09-06 00:00 → 01:00) starts at 01:00.
        let santiago = TimeZone(identifier: "America/Santiago")!
        let start = try CalendarDay("2026-09-06").start(in: santiago)
        #expect(CalendarDay(containing: start, in: santiago).description == "2026-09-06")
        #expect(CalendarDay(containing: start.addingTimeInterval(-1), in: santiago).description == "2026-09-05")
    }

    @Test("encodes as its text")
    func codable() throws {
        let data = try JSONEncoder().encode([try CalendarDay("2026-11-30")])
        #expect(String(decoding: data, as: UTF8.self) == #"["2026-11-30"]"#)
        #expect(try JSONDecoder().decode([CalendarDay].self, from: data) == [try CalendarDay("2026-11-30")])
        #expect(throws: (any Error).self) { try JSONDecoder().decode([CalendarDay].self, from: Data(#"["2026-02-30"]"#.utf8)) }
    }
}
