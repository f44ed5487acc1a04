import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

/// The fast formatters the servers use on every request give exactly what the slow ones give,
/// and ISO 8601 times read back.
@Suite struct TimestampFormatTests {
    /// The HTTP date as the origin made it before: gmtime_r and string interpolation.
    static func referenceHTTPDate(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) "
            + "\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }

    @Test func httpDatesMatchTheCalendar() {
        let known: [(Int64, String)] = [
            (784_111_777, "Sun, 06 Nov 1994 08:49:37 GMT"),
            (0, "Thu, 01 Jan 1970 00:00:00 GMT"),
            (-1, "Wed, 31 Dec 1969 23:59:59 GMT"),
            (951_782_400, "Tue, 29 Feb 2000 00:00:00 GMT"),
            (4_107_542_399, "Sun, 28 Feb 2100 23:59:59 GMT"),
            (4_107_542_400, "Mon, 01 Mar 2100 00:00:00 GMT"),
            (253_402_300_799, "Fri, 31 Dec 9999 23:59:59 GMT"),
        ]
        for (seconds, text) in known {
            #expect(TimestampFormat.httpDate(secondsSince1970: seconds) == text)
            #expect(Self.referenceHTTPDate(Date(timeIntervalSince1970: Double(seconds))) == text)
        }
        var generator = SplitMix64(seed: 0x4854_5450)
        for _ in 0..<20_000 {
            // Every day from year 1 to 9999, and fractions (rounded down, also before 1970).
            let time = Double.random(in: -62_135_596_800 ..< 253_402_300_800, using: &generator)
            let date = Date(timeIntervalSince1970: time)
            #expect(TimestampFormat.httpDate(date) == Self.referenceHTTPDate(date), "\(time)")
        }
    }

    @Test func isoTimestampsMatchFoundation() {
        var generator = SplitMix64(seed: 0x150_8601)
        var times: [Double] = [0, 0.9996, 0.9994, 0.0005, 1.0015, -0.5, -1.0005, 1_700_000_000, 1_764_474_000.1235,
                               1_764_474_000.9999, 951_782_399.999, 4_107_542_400.001, 253_402_300_799.9995]
        for _ in 0..<20_000 { times.append(Double.random(in: 1.5e9 ..< 2.2e9, using: &generator)) }
        for _ in 0..<5_000 { times.append(Double.random(in: -2e9 ..< 2.5e11, using: &generator)) }
        for time in times {
            let date = Date(timeIntervalSince1970: time)
            #expect(TimestampFormat.iso8601Milliseconds(date) == StreamSummary.timestamp(date), "\(time)")
        }
    }

    @Test func isoTimesReadBack() {
        #expect(TimestampFormat.secondsSince1970("20130524T000000Z") == 1_369_353_600)
        #expect(TimestampFormat.secondsSince1970("2013-05-24T00:16:01Z") == 1_369_354_561)
        #expect(TimestampFormat.secondsSince1970("2013-05-24T00:16:01.123Z") == 1_369_354_561)
        #expect(TimestampFormat.secondsSince1970("yesterday") == nil)
        #expect(TimestampFormat.secondsSince1970("20131324T000000Z") == nil, "month 13")
        for seconds in stride(from: -86_400.0 * 400, to: 4_102_444_800, by: 86_400 * 97 + 3_661) {
            let text = TimestampFormat.iso8601Milliseconds(Date(timeIntervalSince1970: seconds))
            #expect(TimestampFormat.secondsSince1970(text) == Int64(seconds), "\(text)")
        }
    }
}
