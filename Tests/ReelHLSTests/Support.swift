import Foundation
@testable import ReelHLS

/// Fixtures and values the tests share.
enum HLSFixtures {
    /// The text of `Fixtures/name`.
    static func text(_ name: String) throws -> String {
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Fixtures") else {
            throw CocoaError(.fileNoSuchFile, userInfo: [NSFilePathErrorKey: "Fixtures/" + name])
        }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// `2025-11-30T02:43:11.123Z` plus `seconds`, held to the millisecond as the parser reads it.
    static func date(_ seconds: Double) -> Date {
        Date(timeIntervalSince1970: Double(Int64((1_764_470_591.123 + seconds) * 1000)) / 1000)
    }

    /// The parse error of `read`, nil when it did not throw one.
    static func error(_ read: () throws(HLSParseError) -> Void) -> HLSParseError? {
        do throws(HLSParseError) {
            try read()
            return nil
        } catch {
            return error
        }
    }
}
