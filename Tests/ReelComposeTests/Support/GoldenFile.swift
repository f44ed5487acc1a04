import Foundation
import ReelTestSupport

/// The golden files in `Tests/ReelComposeTests/Golden/` (see ``GoldenFiles``); re-record after
/// an intended change of the mosaic with `REEL_RECORD_GOLDEN=1 swift test --filter ReelComposeTests`.
let GoldenFile = GoldenFiles(
    bundle: .module,
    sourceDirectory: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Golden", isDirectory: true))
