import Foundation
import ReelHLS

/// UTC timestamps as text, by arithmetic (no calendar, no time zone lookup, no intermediate
/// strings): the HTTP date of `Last-Modified` and the access log's ISO 8601 time, which the
/// servers write on every request, the library's ISO 8601 times, and the reading of ISO 8601
/// UTC times (S3's and playlists').
///
/// ```
/// Sun, 06 Nov 1994 08:49:37 GMT        httpDate (RFC 9110 §5.6.7, IMF-fixdate)
/// 2026-11-30T03:40:00.123Z             iso8601Milliseconds (what StreamSummary.timestamp writes)
/// ```
///
/// Both give exactly what the slower Foundation formatters give (unit-tested against them):
/// UTC, seconds rounded down, milliseconds truncated.
public enum TimestampFormat {
    /// `Sun, 06 Nov 1994 08:49:37 GMT` for a time in seconds since 1970 (rounded down).
    public static func httpDate(secondsSince1970 seconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendHTTPDate(secondsSince1970: seconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// ``httpDate(secondsSince1970:)`` of a `Date`.
    public static func httpDate(_ date: Date) -> String {
        httpDate(secondsSince1970: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Appends ``httpDate(secondsSince1970:)``'s bytes.
    public static func appendHTTPDate(secondsSince1970 seconds: Int64, to bytes: inout [UInt8]) {
        let (days, secondOfDay) = floorDivide(seconds, 86_400)
        let civil = CivilDate(daysSince1970: days)
        let weekday = Int(floorDivide(days + 4, 7).remainder)  // 1970-01-01 was a Thursday (4)
        bytes.append(contentsOf: weekdayNames[weekday])
        bytes.append(contentsOf: [UInt8(ascii: ","), UInt8(ascii: " ")])
        appendTwoDigits(civil.day, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        bytes.append(contentsOf: monthNames[civil.month - 1])
        bytes.append(UInt8(ascii: " "))
        appendDecimal(civil.year, to: &bytes)
        bytes.append(UInt8(ascii: " "))
        appendTimeOfDay(secondOfDay, to: &bytes)
        bytes.append(contentsOf: [UInt8(ascii: " "), UInt8(ascii: "G"), UInt8(ascii: "M"), UInt8(ascii: "T")])
    }

    /// `2026-11-30T03:40:00.123Z` (UTC, milliseconds truncated).
    public static func iso8601Milliseconds(_ date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendISO8601Milliseconds(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``iso8601Milliseconds(_:)``'s bytes.
    public static func appendISO8601Milliseconds(_ date: Date, to bytes: inout [UInt8]) {
        let interval = date.timeIntervalSince1970
        let whole = interval.rounded(.down)
        guard whole.magnitude < 1e15 else {
            bytes.append(contentsOf: StreamSummary.timestamp(date).utf8)  // beyond any real clock: the slow way
            return
        }
        let milliseconds = min(999, Int(((interval - whole) * 1000).rounded(.down)))
        appendISO8601(secondsSince1970: Int64(whole), milliseconds: milliseconds, date: date, to: &bytes)
    }

    /// `2026-11-30T03:40:00.123Z` with the milliseconds rounded to the nearest, not truncated:
    /// a time parsed from such text (which a `Double` may hold a hair below it) is written
    /// back as the same text, so dates survive any number of reads and writes.
    public static func iso8601NearestMillisecond(_ date: Date) -> String {
        let total = (date.timeIntervalSince1970 * 1000).rounded()
        guard total.magnitude < 1e15 else { return StreamSummary.timestamp(date) }
        let (seconds, milliseconds) = floorDivide(Int64(total), 1000)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        appendISO8601(secondsSince1970: seconds, milliseconds: Int(milliseconds), date: date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private static func appendISO8601(secondsSince1970 whole: Int64, milliseconds: Int, date: Date, to bytes: inout [UInt8]) {
        let (days, secondOfDay) = floorDivide(whole, 86_400)
        let civil = CivilDate(daysSince1970: days)
        if civil.year < 0 || civil.year > 9999 {
            bytes.append(contentsOf: StreamSummary.timestamp(date).utf8)
            return
        }
        appendTwoDigits(civil.year / 100, to: &bytes)
        appendTwoDigits(civil.year % 100, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(civil.month, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendTwoDigits(civil.day, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendTimeOfDay(secondOfDay, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        bytes.append(UInt8(ascii: "0") + UInt8(milliseconds / 100))
        appendTwoDigits(milliseconds % 100, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends an integer in decimal (a minus sign first for a negative one), as `String(value)` writes it.
    public static func appendDecimal(_ value: Int64, to bytes: inout [UInt8]) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        appendDecimal(value.magnitude, to: &bytes)
    }

    /// Appends an integer in decimal.
    public static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        appendDecimal(Int64(value), to: &bytes)
    }

    /// Appends an unsigned integer in decimal.
    public static func appendDecimal(_ value: UInt64, to bytes: inout [UInt8]) {
        // 20 digits at most, written backwards into a buffer on the stack.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var rest = value
            var index = buffer.count
            repeat {
                index -= 1
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            } while rest > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index...]))
        }
    }

    /// Reads `yyyyMMdd'T'HHmmss'Z'` (ISO 8601 basic, S3's `x-amz-date`) or
    /// `yyyy-MM-dd'T'HH:mm:ss[.fff]Z` (extended) as seconds since 1970, the fraction dropped;
    /// nil for anything else.
    public static func secondsSince1970(_ text: String) -> Int64? {
        let digits = text.filter { $0.isASCII && $0.isNumber }
        let compact = text.count == 16 && text.hasSuffix("Z")
        let extended = text.hasSuffix("Z") && text.count >= 20 && text.dropFirst(4).first == "-"
        guard compact || extended, digits.count >= 14, let y = Int64(digits.prefix(4)) else { return nil }
        let parts = (0..<5).map { Int64(digits.dropFirst(4 + 2 * $0).prefix(2))! }
        let (m, d, hh, mm, ss) = (parts[0], parts[1], parts[2], parts[3], parts[4])
        guard (1...12).contains(m), (1...31).contains(d), hh < 24, mm < 60, ss < 61 else { return nil }
        return CivilDate.daysSince1970(year: y, month: m, day: d) * 86_400 + hh * 3600 + mm * 60 + ss
    }

    // MARK: Arithmetic

    /// A proleptic Gregorian date from days since 1970-01-01 (the arithmetic is ReelHLS's
    /// ``HLSDateTime``, the lowest module that needs it).
    public struct CivilDate: Sendable, Hashable {
        public var year: Int
        public var month: Int  // 1...12
        public var day: Int    // 1...31

        /// (year, month, day) → days since 1970-01-01, the inverse of ``init(daysSince1970:)``.
        public static func daysSince1970(year: Int64, month: Int64, day: Int64) -> Int64 {
            HLSDateTime.daysSince1970(year: year, month: month, day: day)
        }

        public init(daysSince1970 days: Int64) {
            let (year, month, day) = HLSDateTime.civilDate(daysSince1970: days)
            (self.year, self.month, self.day) = (Int(year), Int(month), Int(day))
        }
    }

    /// Quotient rounded towards minus infinity, and the remainder (0 ..< divisor).
    public static func floorDivide(_ value: Int64, _ divisor: Int64) -> (quotient: Int64, remainder: Int64) {
        HLSDateTime.floorDivide(value, divisor)
    }

    private static func appendTimeOfDay(_ secondOfDay: Int64, to bytes: inout [UInt8]) {
        let second = Int(secondOfDay)
        appendTwoDigits(second / 3600, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(second / 60 % 60, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendTwoDigits(second % 60, to: &bytes)
    }

    private static func appendTwoDigits(_ value: Int, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    private static let weekdayNames: [[UInt8]] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"].map { Array($0.utf8) }
    private static let monthNames: [[UInt8]] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }
}
