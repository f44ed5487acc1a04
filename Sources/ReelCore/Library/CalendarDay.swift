import Foundation

/// A day of the calendar, without a time or a time zone: how the library keys daily goals
/// (`YYYY-MM-DD`) and how stats group study time. Which instants belong to a day
/// depends on a time zone, given where it matters (``start(in:)``, ``init(containing:in:)``).
public struct CalendarDay: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    /// The year (proleptic Gregorian), month 1–12 and day 1–31.
    public let year: Int, month: Int, day: Int

    /// A day that does not exist, or text that is not `YYYY-MM-DD`.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// Not of the form `YYYY-MM-DD`.
        case notADate(String)
        /// Of the form, but no such day (`2026-02-30`).
        case noSuchDay(String)

        public var description: String {
            switch self {
            case .notADate(let text): "'\(text)' is not a date: write it as YYYY-MM-DD, e.g. 2026-11-30"
            case .noSuchDay(let text): "'\(text)' is not a day of the calendar (check the month's length)"
            }
        }
    }

    /// The day `year`-`month`-`day`; throws when it does not exist.
    public init(year: Int, month: Int, day: Int) throws(Error) {
        let text = CalendarDay.format(year, month, day)
        guard (1...9999).contains(year), (1...12).contains(month), day >= 1,
              day <= CalendarDay.length(ofMonth: month, in: year) else { throw .noSuchDay(text) }
        self.year = year
        self.month = month
        self.day = day
    }

    /// Parses `YYYY-MM-DD` (exactly that: four, two and two digits).
    public init(_ text: String) throws(Error) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
              parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
              let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2]) else { throw .notADate(text) }
        try self.init(year: y, month: m, day: d)
    }

    /// The day `instant` falls on in `timeZone`.
    public init(containing instant: Date, in timeZone: TimeZone) {
        let parts = CalendarDay.calendar(timeZone).dateComponents([.year, .month, .day], from: instant)
        year = parts.year!
        month = parts.month!
        day = parts.day!
    }

    /// `YYYY-MM-DD`.
    public var description: String { CalendarDay.format(year, month, day) }

    /// The first instant of the day in `timeZone` (midnight, or the first hour that exists on a
    /// day whose midnight a clock change skips).
    public func start(in timeZone: TimeZone) -> Date {
        let calendar = CalendarDay.calendar(timeZone)
        return calendar.startOfDay(for: calendar.date(from: DateComponents(year: year, month: month, day: day, hour: 12))!)
    }

    /// The day `count` days later (earlier when negative).
    public func adding(days count: Int) -> CalendarDay {
        CalendarDay(ordinal: ordinal + count)
    }

    /// Days from `self` to `other` (positive when `other` is later).
    public func days(to other: CalendarDay) -> Int { other.ordinal - ordinal }

    /// The ISO weekday: 1 Monday … 7 Sunday.
    public var isoWeekday: Int { ((ordinal % 7) + 7) % 7 + 1 }

    /// The English weekday abbreviation: "Mon" … "Sun".
    public var weekdayAbbreviation: String { ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"][isoWeekday - 1] }

    /// Days in `month` of `year`.
    public static func length(ofMonth month: Int, in year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Earlier days sort first.
    public static func < (a: CalendarDay, b: CalendarDay) -> Bool { a.ordinal < b.ordinal }

    /// Encoded as its `YYYY-MM-DD` text.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    /// Decoded from `YYYY-MM-DD` text (checked like ``init(_:)``).
    public init(from decoder: any Decoder) throws {
        try self.init(try decoder.singleValueContainer().decode(String.self))
    }

    // Days since 0001-01-01 (a Monday in the proleptic Gregorian calendar), so the weekday
    // and day arithmetic need no Calendar.
    private var ordinal: Int {
        let y = year - 1
        var days = y * 365 + y / 4 - y / 100 + y / 400
        for m in 1..<month { days += CalendarDay.length(ofMonth: m, in: year) }
        return days + day - 1
    }

    private init(ordinal: Int) {
        var y = 1 + ordinal / 366
        func first(_ year: Int) -> Int { let p = year - 1; return p * 365 + p / 4 - p / 100 + p / 400 }
        while first(y + 1) <= ordinal { y += 1 }
        var rest = ordinal - first(y), m = 1
        while rest >= CalendarDay.length(ofMonth: m, in: y) { rest -= CalendarDay.length(ofMonth: m, in: y); m += 1 }
        year = y
        month = m
        day = rest + 1
    }

    private static func format(_ y: Int, _ m: Int, _ d: Int) -> String {
        func pad(_ v: Int, _ width: Int) -> String { let s = String(v); return String(repeating: "0", count: max(0, width - s.count)) + s }
        return "\(pad(y, 4))-\(pad(m, 2))-\(pad(d, 2))"
    }

    private static func calendar(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        return calendar
    }
}
