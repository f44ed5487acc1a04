import Foundation
import Testing

/// Compares text with a golden file in `Tests/ReelStoreTests/Golden/` (as ReelCoreTests do).
/// Re-record after an intended change (a new migration) with
/// `REEL_RECORD_GOLDEN=1 swift test --filter ReelStoreTests`, review with git diff, run again.
enum GoldenFile {
    static var isRecording: Bool { ProcessInfo.processInfo.environment["REEL_RECORD_GOLDEN"] == "1" }

    static var sourceDirectory: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true)
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
        #expect(actual == expected, "differs from golden file Golden/\(name) (re-record with REEL_RECORD_GOLDEN=1 if intended)", sourceLocation: sourceLocation)
    }
}
