import Foundation
import ReelCore
@testable import ReelStudio
import Testing

/// The live view's faces option: `POST /api/live`'s `privacy` becomes `reel live --privacy`, judged
/// as the command line judges it.
@Suite("Studio live: the faces option")
struct StudioLivePrivacyTests {
    static let folders = XDGDirectories(environment: ["XDG_STATE_HOME": "/tmp/reel-studio-live-privacy/state",
                                                      "XDG_VIDEOS_DIR": "/tmp/reel-studio-live-privacy/videos"], accountHome: "/tmp")

    func request(_ json: String) throws -> LiveRequest {
        try JSONDecoder().decode(LiveRequest.self, from: Data(json.utf8))
    }

    @Test("mosaic and mask are taken, with the archive covered on request; none or nothing streams the faces")
    func taken() throws {
        let source = try SourceSpec(parsing: "test", audio: nil)
        for mode in ["mosaic", "mask"] {
            let settings = try request(#"{"output": "/tmp/out", "privacy": "\#(mode)", "privacyArchive": true}"#).settings(source: source, folders: Self.folders)
            #expect(settings.privacy?.rawValue == mode && settings.privacyArchive)
        }
        for json in [#"{"output": "/tmp/out", "privacy": "none"}"#, #"{"output": "/tmp/out"}"#, #"{"output": "/tmp/out", "privacy": ""}"#] {
            #expect(try request(json).settings(source: source, folders: Self.folders).privacy == nil)
        }
    }

    @Test("an unknown cover, or the archive covered without a cover, is refused with 400")
    func refused() throws {
        let source = try SourceSpec(parsing: "test", audio: nil)
        for (json, words) in [(#"{"output": "/tmp/out", "privacy": "blur"}"#, "privacy: mosaic, mask or none"),
                              (#"{"output": "/tmp/out", "privacyArchive": true}"#, "--privacy-archive")] {
            let body = try request(json)
            do {
                _ = try body.settings(source: source, folders: Self.folders)
                Issue.record("\(json) was taken")
            } catch {
                #expect(error.status == 400 && error.message.contains(words), "\(error.message)")
            }
        }
    }
}
