import Foundation
import ReelTestSupport

/// The golden files in `Tests/ReelCoreTests/Golden/` (see ``GoldenFiles``); re-record after an
/// intended change of output with `REEL_RECORD_GOLDEN=1 swift test --filter ReelCoreTests`.
let GoldenFile = GoldenFiles(
    bundle: .module,
    sourceDirectory: URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Support/
        .deletingLastPathComponent()  // ReelCoreTests/
        .appendingPathComponent("Golden", isDirectory: true))
