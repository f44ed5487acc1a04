import Foundation
import ReelTestSupport
import Testing
@testable import ReelMedia

/// Device inputs come from libavdevice, which Reel loads with dlopen when a device is opened
/// instead of linking it (it would add ~120 libraries to every command's start-up).
@Suite("Device inputs (libavdevice, loaded on use)")
struct DeviceInputTests {
    @Test("an input of libavdevice (lavfi) opens and decodes through the loaded library")
    func lavfiDecodes() throws {
        let reader = try MediaReader(url: "testsrc2=size=64x48:rate=10:duration=1", inputFormat: "lavfi", wantAudio: false)
        var pictures = 0
        while try reader.readFrames({ if case .video = $0 { pictures += 1 } }) {}
        #expect(pictures == 10)
    }

    @Test("an input format no library has is a clear error")
    func unknownFormat() {
        #expect { try MediaReader(url: "x", inputFormat: "reel-no-such-device", wantAudio: false) } throws: {
            "\($0)".contains("this FFmpeg has no 'reel-no-such-device' input")
        }
    }

    @Test("the reel binary does not link libavdevice (nor SDL and X11 through it)")
    func notLinked() throws {
        let linked = try Subprocess.run("/usr/bin/ldd", [try ReelBinary.path()]).stdout
        #expect(linked.contains("libavformat") && !linked.contains("libavdevice") && !linked.contains("libSDL2"), "\(linked)")
    }
}
