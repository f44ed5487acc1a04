import Foundation
import ReelCore
import Testing

@Suite("OverlayAsset.freeName: no two assets share a name")
struct OverlayAssetNameTests {
    @Test("a free name is kept; a taken one gets the first free number from 2, shortened to fit")
    func freeNames() {
        #expect(OverlayAsset.freeName("frame", taken: []) == "frame")
        #expect(OverlayAsset.freeName("frame", taken: ["frame"]) == "frame 2")
        #expect(OverlayAsset.freeName("frame", taken: ["frame", "frame 2", "frame 3"]) == "frame 4")
        #expect(OverlayAsset.freeName("frame", taken: ["frame", "frame 3"]) == "frame 2")
        let long = String(repeating: "x", count: OverlayAsset.maxNameLength)
        let numbered = OverlayAsset.freeName(long, taken: [long])
        #expect(numbered.count == OverlayAsset.maxNameLength && numbered.hasSuffix(" 2"))
    }
}
