import Foundation
import ReelCinematic
import ReelCore
import ReelTestSupport
import Testing
@testable import ReelStudio

/// A studio clip on a disk that fills before its first fragment is whole: as `reel cinematic`,
/// nothing is left (no MP4, no sidecar, nothing in the clips list) and the clip says so.
@Suite("Studio cinematic clip without a whole fragment", .serialized)
struct StudioCinematicEmptyClipTests {
    @Test("an editable clip on a disk that fills before the first fragment (8 KiB: while recording; 12 KiB: stopped at once, in the last flush): no MP4, no sidecar, not listed, the problem says nothing was written",
          arguments: [(8, false), (12, true)])
    func fullDiskBeforeFirstFragment(kibibytes: Int, stops: Bool) async throws {
        let folder = try TemporaryDirectory()
        defer { folder.cleanup() }
        let scene = try StudioCinematicTests.scene(in: folder, seconds: 30)
        // Room for the MP4's header and the sidecar's first records, not for a 2 s fragment of noise.
        let disk = try PrivateDisk(bytes: kibibytes << 10)
        defer { disk.stop() }
        try await withStudio(configure: { settings in
            StudioCinematicTests.configure(&settings, scene: scene)
            settings.folders = XDGDirectories(environment: ["XDG_DATA_HOME": settings.folders.data, "XDG_STATE_HOME": settings.folders.state,
                                                            "XDG_CACHE_HOME": settings.folders.cache, "XDG_VIDEOS_DIR": disk.path],
                                              accountHome: settings.folders.home)
        }) { studio in
            let cookie = try studio.signIn()
            let started = try studio.post("/api/cinematic/record", json: #"{"editable":true}"#, cookie: cookie)
            #expect(started.status == 201, "\(started.text)")
            if stops {
                // A picture in the clip first (a clip stopped before its first picture holds none either,
                // but says so instead), then the stop; 409 when the disk has ended the clip already.
                try await eventually("a picture in the clip", within: 30) { () -> Bool? in
                    let clip = (try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                    return (clip?["pictures"] as? Int ?? 0) >= 1 || clip?["recording"] as? Bool == false ? true : nil
                }
                let stopped = try studio.post("/api/cinematic/record/stop", cookie: cookie)
                #expect(stopped.status == 200 || stopped.status == 409, "\(stopped.text)")
            }
            let clip = try await eventually("the clip ended by the full disk", within: 30) { () -> [String: Any]? in
                let clip = (try? StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic"])))?["clip"] as? [String: Any]
                return clip?["recording"] as? Bool == false ? clip : nil
            }
            let problem = clip["problem"] as? String ?? ""
            #expect(problem.contains("the disk is full") && problem.contains("nothing was written"), "\(clip)")
            let cinematic = studio.server.settings.cinematicFolder
            let left = ((try? FileManager.default.contentsOfDirectory(atPath: cinematic)) ?? []).sorted()
            #expect(left.isEmpty, "\(left)")
            let list = try StudioCinematicTests.json(try studio.api([studio.base + "/api/cinematic/clips"]))
            #expect((list["clips"] as? [[String: Any]])?.isEmpty == true, "\(list)")
        }
    }
}
