import CText
import Foundation

/// Renders caption text (study time and date, e.g. "勉強時間 1:23:45 · 2026-11-30") into an
/// RGBA image: HarfBuzz shapes the UTF-8 string, FreeType rasterizes the glyphs of a CJK font
/// (Noto Sans CJK from Debian's `fonts-noto-cjk` by default), white text on a translucent
/// dark rounded plate so it stays legible on any picture.
///
/// One renderer holds one FreeType face; use it from one thread. Rendering costs a few
/// milliseconds, so callers render a string once and reuse the image while the text is the
/// same (``FrameCompositor`` does).
public final class CaptionRenderer {
    /// Where Debian (and a few other distributions) install Noto Sans CJK, tried in order.
    public static let knownFontPaths = [
        "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/opentype/noto/NotoSansCJKjp-Regular.otf",
        "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
        "/usr/share/fonts/google-noto-cjk/NotoSansCJK-Regular.ttc",
    ]

    /// The font file in use.
    public let fontPath: String
    private var library: FT_Library?
    private var face: FT_Face?
    private var font: OpaquePointer?
    private var currentPixelSize = 0

    /// A caption that cannot be rendered.
    public enum Error: Swift.Error, CustomStringConvertible, Equatable {
        /// No CJK font was found in the known places nor through fontconfig.
        case fontNotFound(searched: [String])
        /// A font file given explicitly does not exist.
        case fontFileMissing(path: String)
        /// FreeType cannot read the file as a font.
        case unreadableFont(path: String, code: Int32)
        /// FreeType failed at `step` (a bug or an exhausted machine).
        case freeType(step: String, code: Int32)
        /// The requested text size is outside 4…512 pixels.
        case badPixelSize(Int)

        /// What went wrong and what to do about it.
        public var description: String {
            switch self {
            case .fontNotFound(let searched):
                "no Japanese-capable font found (looked at \(searched.joined(separator: ", ")) and asked fc-match for 'Noto Sans CJK JP'); install Debian's fonts-noto-cjk (sudo apt-get install fonts-noto-cjk) or give a font file"
            case .fontFileMissing(let path):
                "font file \(path) does not exist; give an existing .ttf/.otf/.ttc file, or install Debian's fonts-noto-cjk (sudo apt-get install fonts-noto-cjk) and use the default"
            case let .unreadableFont(path, code):
                "FreeType cannot read \(path) as a font (FreeType error \(code)); give a .ttf, .otf or .ttc file"
            case let .freeType(step, code): "FreeType failed to \(step) (error \(code))"
            case .badPixelSize(let size): "caption size \(size) px is outside 4…512 px"
            }
        }
    }

    /// A rendered caption.
    public struct Rendered: Sendable {
        /// The caption: text and plate, straight alpha, transparent outside the plate.
        public var image: RGBAImage
        /// Characters the font has no glyph for (drawn as the font's .notdef box). Empty when
        /// everything rendered.
        public var missingCharacters: [Unicode.Scalar]
        /// Number of glyphs shaped.
        public var glyphCount: Int
    }

    /// Look of a caption.
    public struct Style: Sendable, Equatable {
        /// Text colour (R, G, B, A).
        public var text: (UInt8, UInt8, UInt8, UInt8)
        /// Plate colour (R, G, B, A); alpha 0 for no plate.
        public var plate: (UInt8, UInt8, UInt8, UInt8)
        /// Space between text and plate edge, as a fraction of the pixel size (horizontal).
        public var paddingX: Double
        /// Vertical padding, as a fraction of the pixel size.
        public var paddingY: Double
        /// Plate corner radius, as a fraction of the pixel size.
        public var cornerRadius: Double

        /// White text on black at 55 % opacity, padding 0.5 × 0.25 em, corners 0.3 em.
        public static let `default` = Style(text: (255, 255, 255, 255), plate: (0, 0, 0, 140),
                                            paddingX: 0.5, paddingY: 0.25, cornerRadius: 0.3)

        /// A style.
        public init(text: (UInt8, UInt8, UInt8, UInt8), plate: (UInt8, UInt8, UInt8, UInt8),
                    paddingX: Double, paddingY: Double, cornerRadius: Double) {
            self.text = text
            self.plate = plate
            self.paddingX = paddingX
            self.paddingY = paddingY
            self.cornerRadius = cornerRadius
        }

        /// Same colours and geometry.
        public static func == (a: Style, b: Style) -> Bool {
            a.text == b.text && a.plate == b.plate && a.paddingX == b.paddingX && a.paddingY == b.paddingY
                && a.cornerRadius == b.cornerRadius
        }
    }

    /// A renderer with the font at `fontPath`, or the first Japanese-capable font of
    /// ``locateFont(knownPaths:askFontconfig:)`` when `nil`.
    public init(fontPath: String? = nil) throws {
        let path: String
        if let fontPath {
            guard FileManager.default.fileExists(atPath: fontPath) else { throw Error.fontFileMissing(path: fontPath) }
            path = fontPath
        } else {
            path = try Self.locateFont()
        }
        self.fontPath = path
        var library: FT_Library?
        var code = FT_Init_FreeType(&library)
        guard code == 0, let library else { throw Error.freeType(step: "start", code: code) }
        self.library = library
        var face: FT_Face?
        code = FT_New_Face(library, path, 0, &face)
        guard code == 0, let face else {
            FT_Done_FreeType(library)
            self.library = nil
            throw Error.unreadableFont(path: path, code: code)
        }
        self.face = face
    }

    deinit {
        if let font { hb_font_destroy(font) }
        if let face { FT_Done_Face(face) }
        if let library { FT_Done_FreeType(library) }
    }

    /// The first of `knownPaths`, then fontconfig's match for "Noto Sans CJK JP", that exists
    /// and has Japanese glyphs.
    public static func locateFont(knownPaths: [String] = knownFontPaths, askFontconfig: Bool = true) throws -> String {
        var candidates = knownPaths
        if askFontconfig, let matched = fontconfigMatch() { candidates.append(matched) }
        for path in candidates where FileManager.default.fileExists(atPath: path) && hasJapaneseGlyphs(path) {
            return path
        }
        throw Error.fontNotFound(searched: knownPaths)
    }

    private static func fontconfigMatch() -> String? {
        guard let tool = ["/usr/bin/fc-match", "/bin/fc-match"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            return nil
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: tool)
        process.arguments = ["-f", "%{file}", "Noto Sans CJK JP:lang=ja"]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { return nil }
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let path = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        return process.terminationStatus == 0 && !path.isEmpty ? path : nil
    }

    /// Whether the font file has a glyph for 勉 (a kanji every Japanese font has).
    private static func hasJapaneseGlyphs(_ path: String) -> Bool {
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { return false }
        defer { FT_Done_FreeType(library) }
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, let face else { return false }
        defer { FT_Done_Face(face) }
        return FT_Get_Char_Index(face, 0x52C9) != 0
    }

    /// Renders `text` (one line) at `pixelSize` (the font's em in pixels): shaped by
    /// HarfBuzz, each glyph rasterized at its pen position, the line laid out with the
    /// padding, then the plate and the text composed into straight-alpha RGBA.
    public func render(_ text: String, pixelSize: Int, style: Style = .default) throws -> Rendered {
        let face = try sizedFace(pixelSize)
        let shaped = shape(text)
        let line = try CaptionGlyphs(shaped, face: face)
        let layout = CaptionLayout(line, face: face, pixelSize: pixelSize, style: style)
        let pixels = Self.compose(coverage: layout.coverage(of: line), layout: layout, style: style, pixelSize: pixelSize)
        return Rendered(image: RGBAImage(width: layout.width, height: layout.height, pixels: pixels),
                        missingCharacters: line.missing, glyphCount: shaped.glyphs.count)
    }

    /// The face at `pixelSize` (set, and the HarfBuzz font told, only when it changes).
    private func sizedFace(_ pixelSize: Int) throws -> FT_Face {
        guard (4...512).contains(pixelSize) else { throw Error.badPixelSize(pixelSize) }
        guard let face else { throw Error.freeType(step: "use a closed face", code: -1) }
        if pixelSize != currentPixelSize {
            let code = FT_Set_Pixel_Sizes(face, 0, FT_UInt(pixelSize))
            guard code == 0 else { throw Error.freeType(step: "set the size to \(pixelSize) px", code: code) }
            if let font { hb_ft_font_changed(font) } else { font = hb_ft_font_create_referenced(face) }
            currentPixelSize = pixelSize
        }
        return face
    }

    /// `text` shaped by HarfBuzz (language `ja`): its glyphs and their positions, in order.
    private func shape(_ text: String) -> CaptionGlyphs.Shaped {
        let buffer = hb_buffer_create()
        defer { hb_buffer_destroy(buffer) }
        let utf8 = Array(text.utf8)
        utf8.withUnsafeBufferPointer { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                hb_buffer_add_utf8(buffer, chars.baseAddress, Int32(chars.count), 0, Int32(chars.count))
            }
        }
        hb_buffer_set_language(buffer, hb_language_from_string("ja", -1))
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        let infos = hb_buffer_get_glyph_infos(buffer, &count)
        let positions = hb_buffer_get_glyph_positions(buffer, &count)
        let glyphs = (0..<Int(count)).map { i in
            CaptionGlyphs.Shaped.Glyph(codepoint: infos![i].codepoint, cluster: Int(infos![i].cluster),
                                       xOffset: Int(positions![i].x_offset), yOffset: Int(positions![i].y_offset),
                                       xAdvance: Int(positions![i].x_advance))
        }
        return CaptionGlyphs.Shaped(utf8: utf8, glyphs: glyphs)
    }

    /// The plate (a rounded rectangle, anti-aliased corners) with the text over it, RGBA.
    private static func compose(coverage text: [UInt8], layout: CaptionLayout, style: Style, pixelSize: Int) -> [UInt8] {
        let width = layout.width, height = layout.height
        var pixels = [UInt8](repeating: 0, count: width * height * 4)
        let radius = style.cornerRadius * Double(pixelSize)
        for y in 0..<height {
            for x in 0..<width {
                let plateCoverage = Self.roundedRectCoverage(x: Double(x) + 0.5, y: Double(y) + 0.5,
                                                             width: Double(width), height: Double(height), radius: radius)
                let plateAlpha = Double(style.plate.3) / 255 * plateCoverage
                let textAlpha = Double(text[y * width + x]) / 255 * Double(style.text.3) / 255
                let alpha = textAlpha + plateAlpha * (1 - textAlpha)
                let o = (y * width + x) * 4
                guard alpha > 0 else { continue }
                func mix(_ t: UInt8, _ p: UInt8) -> UInt8 {
                    UInt8(min(255, ((Double(t) * textAlpha + Double(p) * plateAlpha * (1 - textAlpha)) / alpha).rounded()))
                }
                pixels[o] = mix(style.text.0, style.plate.0)
                pixels[o + 1] = mix(style.text.1, style.plate.1)
                pixels[o + 2] = mix(style.text.2, style.plate.2)
                pixels[o + 3] = UInt8(min(255, (alpha * 255).rounded()))
            }
        }
        return pixels
    }

    /// Coverage (0…1) of a pixel centred at (`x`, `y`) by a rounded rectangle at the origin.
    private static func roundedRectCoverage(x: Double, y: Double, width: Double, height: Double, radius: Double) -> Double {
        let r = min(radius, width / 2, height / 2)
        guard r > 0 else { return 1 }
        let cx = min(max(x, r), width - r), cy = min(max(y, r), height - r)
        let distance = ((x - cx) * (x - cx) + (y - cy) * (y - cy)).squareRoot()
        return min(1, max(0, r - distance + 0.5))
    }
}
