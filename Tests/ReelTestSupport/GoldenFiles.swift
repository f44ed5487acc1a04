import Foundation
import Testing

/// Compares text with golden files: a test target's `Golden/` folder, copied as a resource
/// and read through its bundle.
///
/// Re-recording after an intended change of output:
///
///     REEL_RECORD_GOLDEN=1 swift test --filter ReelCoreTests
///
/// rewrites every compared golden in the source tree and records a test issue for each, so a
/// recording run never passes by accident. Review the change with `git diff`, then run the
/// tests again without the variable.
public struct GoldenFiles: Sendable {
    /// The test target's resource bundle (its `Bundle.module`).
    public let bundle: Bundle
    /// The `Golden/` folder in the source tree (where re-recording writes).
    public let sourceDirectory: URL

    public init(bundle: Bundle, sourceDirectory: URL) {
        self.bundle = bundle
        self.sourceDirectory = sourceDirectory
    }

    public static var isRecording: Bool { ProcessInfo.processInfo.environment["REEL_RECORD_GOLDEN"] == "1" }

    /// Expects `actual` to equal `Golden/name` (or re-records it).
    public func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if Self.isRecording {
            let url = sourceDirectory.appendingPathComponent(name)
            try Data(actual.utf8).write(to: url, options: .atomic)
            Issue.record("Re-recorded golden file \(url.path); review it with git diff and run the tests again without REEL_RECORD_GOLDEN.", sourceLocation: sourceLocation)
            return
        }
        guard let url = bundle.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
            Issue.record("Golden file Golden/\(name) is missing; record it with REEL_RECORD_GOLDEN=1.", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "output differs from golden file Golden/\(name) (re-record with REEL_RECORD_GOLDEN=1 if the change is intended)", sourceLocation: sourceLocation)
    }
}
