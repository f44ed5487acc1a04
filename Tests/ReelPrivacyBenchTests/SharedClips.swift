import Foundation
import ReelPrivacyBench
import ReelTestSupport

/// `PrivacyClips` made once per test process and shared by the tests that only read them:
/// `LeakMeterTests` read the 640×360 `.single` clip six times over and `.twoFaces` once, and
/// `PrivacyClipsTests` check the same clips' pixels. Each clip costs seconds of ffmpeg.
enum SharedClips {
    static func clip(_ scenario: PrivacyClips.Scenario, width: Int, height: Int) throws -> PrivacyClips.Clip {
        try SharedFixtures.shared("privacy-\(PrivacyClips.name(scenario, width: width, height: height))") { folder in
            try PrivacyClips.make(scenario, width: width, height: height, in: folder, photo: TestPhotos.astronautPath)
        }
    }
}
