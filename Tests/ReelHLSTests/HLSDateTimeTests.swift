import Foundation
import Testing
@testable import ReelHLS

@Suite("HLS program date times")
struct HLSDateTimeTests {
    @Test("dates are written in UTC with milliseconds and read back", arguments: [
        (0.0, "1970-01-01T00:00:00.000Z"), (1_764_470_591.123, "2025-11-30T02:43:11.123Z"), (951_782_400.5, "2000-02-29T00:00:00.500Z"),
        (-1.25, "1969-12-31T23:59:58.750Z"), (4_102_444_799.999, "2099-12-31T23:59:59.999Z"),
    ])
    func writtenAndRead(_ seconds: Double, _ text: String) {
        #expect(HLSDateTime.string(from: Date(timeIntervalSince1970: seconds)) == text)
        #expect(HLSDateTime.date(from: text) == Date(timeIntervalSince1970: seconds))
    }

    @Test func offsetsAndFractionsAreRead() {
        let utc = HLSDateTime.date(from: "2026-12-06T18:48:16.941Z")
        #expect(utc != nil)
        #expect(HLSDateTime.date(from: "2026-12-06T18:48:16.941+0000") == utc)
        #expect(HLSDateTime.date(from: "2026-12-06T19:48:16.941+01:00") == utc)
        #expect(HLSDateTime.date(from: "2026-12-06T17:18:16.941-0130") == utc)
        #expect(HLSDateTime.date(from: "2026-12-06T18:48:16.940500Z") == utc, "rounded to the millisecond")
        #expect(HLSDateTime.date(from: "2026-12-06T18:48:16Z") == Date(timeIntervalSince1970: 1_796_582_896))
    }

    @Test("anything else is no date", arguments: [
        "", "yesterday", "2026-12-06", "2026-12-06T18:48:16", "2026-13-06T18:48:16Z", "2026-02-30T18:48:16Z", "2026-12-06T24:00:00Z",
        "2026-12-06T18:48:16.Z", "2026-12-06T18:48:16.9Zjunk", "2026-12-06T18:48:16+1", "20261206T184816Z",
    ])
    func notDates(_ text: String) {
        #expect(HLSDateTime.date(from: text) == nil)
    }
}
