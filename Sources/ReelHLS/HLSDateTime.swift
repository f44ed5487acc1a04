import Foundation

/// `EXT-X-PROGRAM-DATE-TIME` values (ISO 8601, RFC 3339): written in UTC with milliseconds,
/// read with any fraction and offset. Integer calendar arithmetic (proleptic Gregorian), so
/// neither depends on the locale, time zone or formatters of the platform.
public enum HLSDateTime {
    /// `date` as `2026-11-30T02:43:11.123Z` (milliseconds rounded to nearest).
    public static func string(from date: Date) -> String {
        let totalMilliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (days, msOfDay) = floorDivide(totalMilliseconds, 86_400_000)
        let (year, month, day) = civilDate(daysSince1970: days)
        let hour = msOfDay / 3_600_000, minute = msOfDay / 60_000 % 60, second = msOfDay / 1000 % 60, millisecond = msOfDay % 1000
        return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(hour, 2)):\(pad(minute, 2)):\(pad(second, 2)).\(pad(millisecond, 3))Z"
    }

    /// `2026-11-30T02:43:11.123Z`, `…T02:43:11Z`, `…T02:43:11.123456+01:00` or `…+0100` back
    /// to a date, to the millisecond (the fraction rounded to nearest); nil for anything else.
    public static func date(from text: String) -> Date? {
        let characters = Array(text.utf8)
        guard characters.count >= 20, characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
              characters[10] == UInt8(ascii: "T") || characters[10] == UInt8(ascii: "t"),
              characters[13] == UInt8(ascii: ":"), characters[16] == UInt8(ascii: ":"),
              let year = number(characters[0..<4]), let month = number(characters[5..<7]), let day = number(characters[8..<10]),
              let hour = number(characters[11..<13]), let minute = number(characters[14..<16]), let second = number(characters[17..<19]),
              (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day), hour < 24, minute < 60, second < 61
        else { return nil }
        var index = 19
        var milliseconds: Int64 = 0
        if characters[index] == UInt8(ascii: ".") {
            let digits = characters[(index + 1)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty, let fraction = Double("0." + String(decoding: digits, as: UTF8.self)) else { return nil }
            milliseconds = Int64((fraction * 1000).rounded())
            index += 1 + digits.count
        }
        guard let offset = offsetSeconds(characters[index...]) else { return nil }
        let seconds = (daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + second) - offset
        return Date(timeIntervalSince1970: Double(seconds * 1000 + milliseconds) / 1000)
    }

    /// Days since 1970-01-01 to a Gregorian (year, month, day) (H. Hinnant's `civil_from_days`).
    public static func civilDate(daysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// (year, month, day) to days since 1970-01-01 (H. Hinnant's `days_from_civil`).
    public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// `Z`, `+hh:mm`, `-hh:mm`, `+hhmm` or `-hhmm` as seconds east of UTC.
    private static func offsetSeconds(_ rest: ArraySlice<UInt8>) -> Int64? {
        guard let sign = rest.first else { return nil }
        if sign == UInt8(ascii: "Z") || sign == UInt8(ascii: "z") { return rest.count == 1 ? 0 : nil }
        guard sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") else { return nil }
        let digits = rest.dropFirst().filter { $0 != UInt8(ascii: ":") }
        guard digits.count == 4, rest.count == 5 || (rest.count == 6 && rest[rest.startIndex + 3] == UInt8(ascii: ":")),
              let hours = number(digits.prefix(2)), let minutes = number(digits.suffix(2)), minutes < 60 else { return nil }
        return (sign == UInt8(ascii: "-") ? -1 : 1) * (hours * 3600 + minutes * 60)
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> Int64? {
        guard !digits.isEmpty, digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        return digits.reduce(0) { $0 * 10 + Int64($1 - UInt8(ascii: "0")) }
    }

    /// Quotient rounded towards minus infinity, and the remainder (0 ..< divisor).
    public static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    private static func pad(_ value: Int64, _ width: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
