import Foundation
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelHTTP

/// The access log's fast line (bytes by arithmetic) gives exactly what string interpolation gives.
@Suite struct AccessLogLineTests {
    /// The access log line as AccessLogEntry made it before: string interpolation throughout
    /// (its time is ISO 8601 with milliseconds, checked against Foundation in ReelCoreTests).
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
        var text = "\(TimestampFormat.iso8601Milliseconds(entry.time)) \(escaped(entry.client)) \(escaped(entry.method)) \(escaped(entry.path)) "
            + "\(entry.status) \(entry.bytes) \(milliseconds)ms"
        if let note = entry.note { text += " \(escaped(note))" }
        return text
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
