import Foundation
import ReelCore
import Testing

@Suite("OverlayAsset names")
struct OverlayAssetTests {
    @Test("a name comes from the file's name without its extension, cleaned and bounded")
    func names() {
        #expect(OverlayAsset.name(fromFile: "/home/u/Pictures/cat sticker.png") == "cat sticker")
        #expect(OverlayAsset.name(fromFile: "frame.v2.heic") == "frame.v2")
        #expect(OverlayAsset.name(fromFile: ".hidden") == ".hidden")
        #expect(OverlayAsset.name(fromFile: "tab\there\n.png") == "tab here")
        #expect(OverlayAsset.name(fromFile: "   .png") == "artwork")
        #expect(OverlayAsset.name(fromFile: String(repeating: "x", count: 200) + ".png").count == OverlayAsset.maxNameLength)
        #expect(OverlayAsset.cleanName("  \u{7} ") == nil)
        #expect(OverlayAsset.cleanName(" 猫のステッカー ") == "猫のステッカー")
    }

    @Test("the kept file's name is the id and a tame extension: nothing a user typed reaches the file system")
    func fileNames() {
        let id = UUID(uuidString: "3F2C1A9B-0D4E-4A53-9D1C-2F6F9D0C0002")!
        #expect(OverlayAsset.fileName(id: id, extension: "PNG") == "3f2c1a9b-0d4e-4a53-9d1c-2f6f9d0c0002.png")
        #expect(OverlayAsset.fileName(id: id, extension: "../../x") == "3f2c1a9b-0d4e-4a53-9d1c-2f6f9d0c0002.x")
        #expect(OverlayAsset.fileName(id: id, extension: "") == "3f2c1a9b-0d4e-4a53-9d1c-2f6f9d0c0002.img")
        #expect(OverlayAsset.fileName(id: id, extension: "verylongext") == "3f2c1a9b-0d4e-4a53-9d1c-2f6f9d0c0002.img")
    }
}
