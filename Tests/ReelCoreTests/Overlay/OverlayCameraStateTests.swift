import Foundation
import ReelCore
import Testing

@Suite("The overlay camera's state, filters and photo names")
struct OverlayCameraStateTests {
    let id = UUID(uuidString: "3F2C1A9B-0D4E-4A53-9D1C-2F6F9D0C0002")!

    @Test("a change replaces only the fields it gives; the shutter's crop and mask follow the chosen preview")
    func changes() throws {
        let start = OverlayCameraState()
        #expect(start.crop == OverlayCameraState.unfilteredCrop && start.mask == .none)
        let placed = try start.applying(.init(asset: id.uuidString, placement: OverlayPlacement(anchor: .topLeft, scale: 0.5), orientation: -90))
        #expect(placed.assetID == id && placed.placement.anchor == .topLeft && placed.placement.scale == 0.5)
        #expect(placed.orientation == .right && placed.format == .heic && placed.filter == .square && placed.preview == .unfiltered)
        let filtered = try placed.applying(.init(format: .tiff, filter: .circle, preview: .filtered))
        #expect(filtered.assetID == id && filtered.placement == placed.placement && filtered.format == .tiff)
        #expect(filtered.crop == PhotoCropSpec(aspectWidth: 1, aspectHeight: 1) && filtered.mask == .circle)
        #expect(try filtered.applying(.init(filter: .tall)).crop == PhotoCropSpec(aspectWidth: 9, aspectHeight: 16))
        #expect(try filtered.applying(.init(filter: .tall)).mask == .none)
        #expect(try filtered.applying(.init(asset: "")).assetID == nil)
    }

    @Test("a change with one bad field is refused whole")
    func refusals() {
        let start = OverlayCameraState(assetID: id)
        #expect(throws: OverlayCameraState.ChangeError.asset("../x")) { try start.applying(.init(asset: "../x", format: .jpeg)) }
        #expect(throws: OverlayCameraState.ChangeError.orientation(45)) { try start.applying(.init(orientation: 45, format: .jpeg)) }
        #expect(throws: OverlayCameraState.ChangeError.placement(.scale(0))) {
            try start.applying(.init(placement: OverlayPlacement(scale: 0), format: .jpeg))
        }
        #expect(throws: OverlayCameraState.ChangeError.placement(.notFinite("rotation"))) {
            try start.applying(.init(placement: OverlayPlacement(rotationDegrees: .infinity)))
        }
    }

    @Test("removing the chosen asset leaves no artwork; removing another changes nothing")
    func forgetting() {
        let state = OverlayCameraState(assetID: id)
        #expect(state.forgetting(asset: id).assetID == nil)
        #expect(state.forgetting(asset: UUID()) == state)
    }

    @Test("the state's JSON is what the page sends and reads")
    func json() throws {
        let change = try JSONDecoder().decode(OverlayCameraState.Change.self, from: Data("""
            {"placement":{"anchor":"bottom-right","offsetX":0.1,"offsetY":-0.2,"scale":1.5,"rotationDegrees":30},"orientation":90,"filter":"tall"}
            """.utf8))
        let state = try OverlayCameraState().applying(change)
        #expect(state.placement == OverlayPlacement(anchor: .bottomRight, offsetX: 0.1, offsetY: -0.2, scale: 1.5, rotationDegrees: 30))
        #expect(state.orientation == .left && state.filter == .tall)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(OverlayCameraState.Change.self, from: Data(#"{"filter":"sepia"}"#.utf8)) }
    }

    @Test("the circle mask keeps the inscribed circle, with a one-pixel soft edge")
    func circleMask() {
        #expect(PhotoMask.none.coverage(x: 0, y: 0, width: 10, height: 10) == 1)
        #expect(PhotoMask.circle.coverage(x: 50, y: 50, width: 100, height: 100) == 1)
        #expect(PhotoMask.circle.coverage(x: 0, y: 0, width: 100, height: 100) == 0)
        #expect(PhotoMask.circle.coverage(x: 99, y: 99, width: 100, height: 100) == 0)
        // Near the edge: the centre of pixel (0, 50) is 49.5 from the centre (radius 50), so it is
        // almost all kept; on the diagonal, pixel (14, 14) is 50.2 away: a little kept.
        #expect(PhotoMask.circle.coverage(x: 0, y: 50, width: 100, height: 100) > 0.99)
        #expect(PhotoMask.circle.coverage(x: 15, y: 15, width: 100, height: 100) == 1)
        let edge = PhotoMask.circle.coverage(x: 14, y: 14, width: 100, height: 100)
        #expect(edge > 0 && edge < 1, "\(edge)")
        // A tall picture: the circle's diameter is the width.
        #expect(PhotoMask.circle.coverage(x: 50, y: 5, width: 100, height: 200) == 0)
        #expect(PhotoMask.circle.coverage(x: 50, y: 100, width: 100, height: 200) == 1)
    }

    @Test("photo names: made from the time, numbered on a clash, and nothing else is a photo's name")
    func photoNames() {
        var taken: Set<String> = []
        let first = OverlayPhotoName.name(stamp: "20261202-213000", format: .heic) { taken.contains($0) }
        #expect(first == "photo-20261202-213000.heic")
        taken.insert(first)
        #expect(OverlayPhotoName.name(stamp: "20261202-213000", format: .heic) { taken.contains($0) } == "photo-20261202-213000-2.heic")
        #expect(OverlayPhotoName.name(stamp: "../x", format: .jpeg) { _ in false } == "photo-0.jpg")
        for good in ["photo-20261202-213000.heic", "photo-1.jpg", "a.tiff"] { #expect(OverlayPhotoName.isValid(good), "\(good)") }
        for bad in ["../photo.jpg", "photo.jpeg", "photo.tif", "Photo.jpg", "-x.jpg", ".jpg", "photo.png", "photo", "a/b.jpg",
                    "%2e%2e.jpg", String(repeating: "a", count: 70) + ".jpg"] {
            #expect(!OverlayPhotoName.isValid(bad), "\(bad)")
        }
        #expect(OverlayPhotoName.format(of: "photo-1.tiff") == .tiff && OverlayPhotoName.format(of: "x.png") == nil)
    }
}
