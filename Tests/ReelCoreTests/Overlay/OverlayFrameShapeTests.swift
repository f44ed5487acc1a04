import ReelCore
import Testing

@Suite("OverlayFrameShape: the photo's shape, and where artwork sits in each")
struct OverlayFrameShapeTests {
    let landscape = VideoDimensions(width: 1280, height: 720)
    let portrait = VideoDimensions(width: 720, height: 1280)
    let square = VideoDimensions(width: 640, height: 640)

    func close(_ p: (x: Double, y: Double), _ x: Double, _ y: Double) -> Bool {
        abs(p.x - x) <= 1e-9 && abs(p.y - y) <= 1e-9
    }

    @Test("auto keeps the source's shape; portrait and landscape turn a picture of the other shape a quarter; a square is never turned")
    func turnsAndSizes() {
        #expect(OverlayFrameShape.allCases.map(\.rawValue) == ["portrait", "landscape", "auto"])
        let table: [(OverlayFrameShape, VideoDimensions, CaptureRotation, VideoDimensions)] = [
            (.auto, landscape, .none, landscape),
            (.auto, portrait, .none, portrait),
            (.portrait, landscape, .clockwise, portrait),
            (.portrait, portrait, .none, portrait),
            (.landscape, portrait, .anticlockwise, landscape),
            (.landscape, landscape, .none, landscape),
            (.portrait, square, .none, square),
            (.landscape, square, .none, square),
        ]
        for (shape, source, turn, size) in table {
            #expect(shape.rotation(for: source) == turn, "\(shape) of \(source)")
            #expect(shape.outputSize(for: source) == size, "\(shape) of \(source)")
        }
        #expect(CaptureRotation.forPicture(landscape) == OverlayFrameShape.portrait.rotation(for: landscape))
        #expect(CaptureRotation.anticlockwise.apply(to: portrait) == landscape)
    }

    @Test("a preview's crop of a landscape picture: the whole of it, or the centred columns a taller frame shows")
    func landscapeCrop() {
        #expect(PhotoCropSpec.whole.pixels(of: landscape) == PixelRect(x: 0, y: 0, width: 1280, height: 720))
        #expect(PhotoCropSpec(aspectWidth: 3, aspectHeight: 4).pixels(of: landscape) == PixelRect(x: 370, y: 0, width: 540, height: 720))
        #expect(PhotoCropSpec(aspectWidth: 1, aspectHeight: 1).pixels(of: landscape) == PixelRect(x: 280, y: 0, width: 720, height: 720))
        #expect(PhotoCropSpec(aspectWidth: 16, aspectHeight: 9, zoom: 2).pixels(of: landscape) == PixelRect(x: 320, y: 180, width: 640, height: 360))
    }

    @Test("artwork is fitted into the frame's shape: a 2:1 banner fills a landscape frame's width and sits mid-height; in portrait it is a strip")
    func fittedInEachShape() {
        let banner = VideoDimensions(width: 64, height: 32)
        let wide = OverlayPlacement.default.transform(art: banner, preview: landscape)
        // 1280 wide → 640 tall of 720: 40 pixels above and below.
        #expect(close(wide.apply(x: 0, y: 0), 0, 40.0 / 720))
        #expect(close(wide.apply(x: 1, y: 1), 1, 680.0 / 720))
        let tall = OverlayPlacement.default.transform(art: banner, preview: portrait)
        // 720 wide → 360 tall of 1280, centred: rows 460…820.
        #expect(close(tall.apply(x: 0, y: 0), 0, 460.0 / 1280))
        #expect(close(tall.apply(x: 1, y: 1), 1, 820.0 / 1280))
    }

    @Test("a square sticker in a landscape frame is as tall as the frame; anchored top-right it touches that corner")
    func anchoredInLandscape() {
        let sticker = VideoDimensions(width: 100, height: 100)
        let centred = OverlayPlacement.default.transform(art: sticker, preview: landscape)
        #expect(close(centred.apply(x: 0, y: 0), 280.0 / 1280, 0))
        #expect(close(centred.apply(x: 1, y: 1), 1000.0 / 1280, 1))
        let corner = OverlayPlacement(anchor: .topRight, scale: 0.5).transform(art: sticker, preview: landscape)
        #expect(close(corner.apply(x: 1, y: 0), 1, 0))
        #expect(close(corner.apply(x: 0, y: 1), (1280.0 - 360) / 1280, 0.5))
    }
}
