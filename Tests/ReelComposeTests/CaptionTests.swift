import Foundation
import ReelCompose
import ReelCore
import ReelTestSupport
import Testing

@Suite("Captions")
struct CaptionTests {
    /// Text only (no plate), so every non-transparent pixel is ink.
    let inkOnly = CaptionRenderer.Style(text: (255, 255, 255, 255), plate: (0, 0, 0, 0), paddingX: 0, paddingY: 0, cornerRadius: 0)

    func inked(_ image: RGBAImage) -> Int { stride(from: 3, to: image.pixels.count, by: 4).filter { image.pixels[$0] >= 128 }.count }

    @Test("Japanese renders with real glyphs, not .notdef boxes")
    func japanese() throws {
        let renderer = try CaptionRenderer()
        let kanji = try renderer.render("勉強", pixelSize: 48, style: inkOnly)
        #expect(kanji.missingCharacters.isEmpty)
        #expect(kanji.glyphCount == 2)
        // Two full-width glyphs: the line is two em wide (±2 px of side bearing).
        #expect(abs(kanji.image.width - 96) <= 2, "width \(kanji.image.width)")
        // Two characters the font lacks (private use) render as .notdef: reported, and their
        // ink differs from the kanji's (a font without kanji would draw exactly this).
        let tofu = try renderer.render("\u{E000}\u{E001}", pixelSize: 48, style: inkOnly)
        #expect(tofu.missingCharacters == ["\u{E000}", "\u{E001}"])
        let kanjiInk = inked(kanji.image), tofuInk = inked(tofu.image)  // at 48 px: about 1600 and 1190
        #expect(kanjiInk > 300, "only \(kanjiInk) inked pixels")
        #expect(kanji.image.pixels != tofu.image.pixels)
        #expect(abs(kanjiInk - tofuInk) > 50, "kanji ink \(kanjiInk) looks like two .notdef boxes (\(tofuInk))")
    }

    static let latinFont = "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"

    @Test("a font without kanji: the characters are reported missing, and the font is not picked as a caption font",
          .enabled(if: FileManager.default.fileExists(atPath: latinFont), "needs DejaVu Sans (fonts-dejavu-core)"))
    func latinOnlyFont() throws {
        let renderer = try CaptionRenderer(fontPath: Self.latinFont)
        let caption = try renderer.render("勉強 1:23", pixelSize: 40, style: inkOnly)
        #expect(caption.missingCharacters == ["勉", "強"])
        #expect(throws: CaptionRenderer.Error.fontNotFound(searched: [Self.latinFont])) {
            try CaptionRenderer.locateFont(knownPaths: [Self.latinFont], askFontconfig: false)
        }
    }

    @Test("the study caption shapes every character and has a translucent plate")
    func studyCaption() throws {
        let renderer = try CaptionRenderer()
        let text = "勉強時間 1:23:45 · 2026-11-30"
        let caption = try renderer.render(text, pixelSize: 38)
        #expect(caption.missingCharacters.isEmpty)
        #expect(caption.glyphCount == text.unicodeScalars.count)
        let image = caption.image
        // The plate: half-transparent black in the padding (away from the rounded corners).
        let plate = image[image.width / 2, 2]
        #expect(plate == (0, 0, 0, 140))
        // Corners are rounded: the very corner pixel is transparent.
        #expect(image[0, 0].a == 0)
        // Ink: white text pixels.
        let white = (0..<image.height).flatMap { y in (0..<image.width).map { image[$0, y] } }.filter { $0.r > 250 && $0.a > 250 }.count
        #expect(white > 1000)
    }

    @Test("a missing font file and a missing CJK font give the documented errors")
    func missingFont() throws {
        let dir = try TemporaryDirectory()
        defer { dir.cleanup() }
        #expect(throws: CaptionRenderer.Error.fontFileMissing(path: dir.path("none.ttc"))) {
            try CaptionRenderer(fontPath: dir.path("none.ttc"))
        }
        #expect(CaptionRenderer.Error.fontFileMissing(path: "/x.ttc").description.contains("fonts-noto-cjk"))
        #expect(throws: CaptionRenderer.Error.fontNotFound(searched: [dir.path("none.ttc")])) {
            try CaptionRenderer.locateFont(knownPaths: [dir.path("none.ttc")], askFontconfig: false)
        }
        #expect(CaptionRenderer.Error.fontNotFound(searched: []).description.contains("apt-get install fonts-noto-cjk"))
        try Data("not a font".utf8).write(to: URL(fileURLWithPath: dir.path("bad.ttf")))
        do {
            _ = try CaptionRenderer(fontPath: dir.path("bad.ttf"))
            Issue.record("a text file was accepted as a font")
        } catch CaptionRenderer.Error.unreadableFont(let path, _) {
            #expect(path == dir.path("bad.ttf"))
        }
        #expect(throws: CaptionRenderer.Error.badPixelSize(2)) { try CaptionRenderer().render("a", pixelSize: 2) }
    }

    @Test("the frame compositor renders a caption once per text and draws it bottom-left")
    func frameCompositorCaches() throws {
        let compositor = FrameCompositor(captionRenderer: try CaptionRenderer(),
                                         watermark: Watermark(image: RGBAImage(width: 64, height: 32, red: 255, green: 255, blue: 255, alpha: 255)))
        let box = NormalizedRect(x: 0.4, y: 0.2, width: 0.16, height: 0.4)
        let base = TestPictures.pattern(width: 1920, height: 1080)
        var frames: [YUVPictureBuffer] = []
        for text in ["勉強時間 0:00:01 · 2026-11-30", "勉強時間 0:00:01 · 2026-11-30", "勉強時間 0:00:02 · 2026-11-30"] {
            let frame = base.copy()
            try compositor.composite(frame.picture, covers: [.mosaic(box)], caption: text)
            frames.append(frame)
        }
        #expect(compositor.captionRenders == 2)
        #expect(compositor.missingCharacters.isEmpty)
        #expect(frames[0].bytes == frames[1].bytes)
        #expect(frames[1].bytes != frames[2].bytes)
        // The mosaic is the mosaic alone: the caption and watermark do not reach the face.
        let mosaicOnly = base.copy()
        MosaicCompositor().apply(to: mosaicOnly.picture, boxes: [box])
        let p = frames[0].picture, q = mosaicOnly.picture
        #expect((300..<700).allSatisfy { y in p.y[y * p.yStride + 860] == q.y[y * q.yStride + 860] })
        // Bottom-left: the plate darkens the picture there; the top-left stays as it was.
        #expect(p.y[(1080 - 40) * p.yStride + 60] < base.picture.y[(1080 - 40) * p.yStride + 60])
        #expect(p.y[40 * p.yStride + 60] == base.picture.y[40 * p.yStride + 60])
    }
}
