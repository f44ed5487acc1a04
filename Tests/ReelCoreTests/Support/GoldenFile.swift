import Foundation
import Testing

/// Compares text with a golden file in `Tests/ReelCoreTests/Golden/`.
///
/// The goldens are a copied resource of the test target and are read through `Bundle.module`.
///
/// Re-recording after an intended change of output:
///
///     REEL_RECORD_GOLDEN=1 swift test --filter ReelCoreTests
///
/// rewrites every compared golden in the source tree (found from this file's path) and records
/// a test issue for each, so a recording run never passes by accident. Review the change with
/// `git diff Tests/ReelCoreTests/Golden`, then run the tests again without the variable.
enum GoldenFile {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["REEL_RECORD_GOLDEN"] == "1" }

    /// `Tests/ReelCoreTests/Golden/` in the source tree.
    static var sourceDirectory: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support/
            .deletingLastPathComponent()  // ReelCoreTests/
            .appendingPathComponent("Golden", isDirectory: true)
    }

    static func expect(_ actual: String, matches name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if isRecording {
            let url = sourceDirectory.appendingPathComponent(name)
            try Data(actual.utf8).write(to: url, options: .atomic)
            Issue.record("Re-recorded golden file \(url.path); review it with git diff and run the tests again without REEL_RECORD_GOLDEN.", sourceLocation: sourceLocation)
            return
        }
        guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Golden") else {
            Issue.record("Golden file Golden/\(name) is missing; record it with REEL_RECORD_GOLDEN=1.", sourceLocation: sourceLocation)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "output differs from golden file Golden/\(name) (re-record with REEL_RECORD_GOLDEN=1 if the change is intended)", sourceLocation: sourceLocation)
    }
}
