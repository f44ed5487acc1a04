import Foundation
import ReelTestSupport

/// The golden files in `Tests/ReelStoreTests/Golden/` (see ``GoldenFiles``); re-record after
/// an intended change (a new migration) with `REEL_RECORD_GOLDEN=1 swift test --filter ReelStoreTests`.
let GoldenFile = GoldenFiles(
    bundle: .module,
    sourceDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden", isDirectory: true))
