import Foundation
import ReelTestSupport
import Testing
@testable import ReelCore

/// The fast formatters the origin uses on every request give exactly what the slow ones give.
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

    /// The access log line as AccessLogEntry made it before: string interpolation throughout.
    static func referenceLine(_ entry: AccessLogEntry) -> String {
        func escaped(_ text: String) -> String {
            var result = ""
            for byte in text.utf8.prefix(512) {
                if byte > 0x20 && byte < 0x7F && byte != UInt8(ascii: "%") {
                    result.unicodeScalars.append(Unicode.Scalar(byte))
                } else {
                    result += "%" + (byte < 16 ? "0" : "") + String(byte, radix: 16, uppercase: true)
                }
            }
            return result.isEmpty ? "-" : result
        }
        let milliseconds = (entry.duration * 1000 * 10).rounded() / 10
        var text = "\(StreamSummary.timestamp(entry.time)) \(escaped(entry.client)) \(escaped(entry.method)) \(escaped(entry.path)) "
            + "\(entry.status) \(entry.bytes) \(milliseconds)ms"
        if let note = entry.note { text += " \(escaped(note))" }
        return text
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

    @Test func accessLogLinesMatchTheStringBuiltOnes() {
        var generator = SplitMix64(seed: 0xACCE55)
        let pieces = ["/streams/desk/playlist.m3u8", "GET", "PUT", "a b", "%", "\n", "é", "\u{0}", "x", "-", "",
                      "/streams/%2e%2e/token", "::1", "127.0.0.1", String(repeating: "y", count: 600)]
        for round in 0..<3_000 {
            func text() -> String {
                (0..<Int.random(in: 0...3, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            }
            let durations: [Double] = [0, 0.00321, 0.00005, 0.00015, 1e-9, 12.34567, 86_400 * 365.0, 1e9, -1e-9, -3,
                                       Double.random(in: 0..<2, using: &generator), Double.random(in: 0..<0.001, using: &generator)]
            let entry = AccessLogEntry(time: Date(timeIntervalSince1970: Double.random(in: 1.6e9..<2e9, using: &generator)),
                                       client: text(), method: text(), path: text(),
                                       status: [0, 200, 304, 404, 500][round % 5], bytes: Int64.random(in: -1...5_000_000, using: &generator),
                                       duration: durations[round % durations.count], note: round % 3 == 0 ? text() : nil)
            #expect(entry.line == Self.referenceLine(entry), "\(entry)")
        }
    }
}
