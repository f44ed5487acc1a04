import CText

/// A caption's line of glyphs, rasterized: each glyph's coverage bitmap placed at its pen
/// position (baseline at y = 0, y down), the pen's end, and the characters the font lacks.
struct CaptionGlyphs {
    /// HarfBuzz's answer for a line: the glyphs and their positions (26.6 fixed point).
    struct Shaped {
        struct Glyph {
            var codepoint: UInt32
            /// The byte offset in the UTF-8 text the glyph came from.
            var cluster: Int
            var xOffset: Int, yOffset: Int, xAdvance: Int
        }
        /// The text as UTF-8.
        var utf8: [UInt8]
        var glyphs: [Glyph]
    }

    /// A glyph's coverage bitmap and its top-left corner on the line.
    struct Placed {
        var x: Int, y: Int, width: Int, height: Int
        var coverage: [UInt8]
    }

    private(set) var placed: [Placed] = []
    /// Characters drawn as the font's .notdef box.
    private(set) var missing: [Unicode.Scalar] = []
    /// The pen after the last glyph (26.6).
    private(set) var pen = 0

    /// Rasterizes `shaped` with `face` (already at its size).
    init(_ shaped: Shaped, face: FT_Face) throws {
        let utf8 = shaped.utf8
        for glyph in shaped.glyphs {
            if glyph.codepoint == 0,
               let scalar = String(decoding: utf8[glyph.cluster...], as: UTF8.self).unicodeScalars.first {
                missing.append(scalar)
            }
            var code = FT_Load_Glyph(face, glyph.codepoint, reel_ft_load_default())
            guard code == 0 else { throw CaptionRenderer.Error.freeType(step: "load glyph \(glyph.codepoint)", code: code) }
            code = FT_Render_Glyph(face.pointee.glyph, FT_RENDER_MODE_NORMAL)
            guard code == 0 else { throw CaptionRenderer.Error.freeType(step: "render glyph \(glyph.codepoint)", code: code) }
            let slot = face.pointee.glyph.pointee
            if let coverage = Self.coverage(of: slot.bitmap) {
                let originX = (pen + glyph.xOffset + 32) >> 6
                let originY = -((glyph.yOffset + 32) >> 6)
                placed.append(Placed(x: originX + Int(slot.bitmap_left), y: originY - Int(slot.bitmap_top),
                                     width: Int(slot.bitmap.width), height: Int(slot.bitmap.rows), coverage: coverage))
            }
            pen += glyph.xAdvance
        }
    }

    /// A rendered glyph's 8-bit coverage, rows top to bottom; nil for an empty one (a space).
    private static func coverage(of bitmap: FT_Bitmap) -> [UInt8]? {
        let width = Int(bitmap.width), rows = Int(bitmap.rows), pitch = Int(bitmap.pitch)
        guard width > 0 && rows > 0, let buffer = bitmap.buffer else { return nil }
        var coverage = [UInt8](repeating: 0, count: width * rows)
        for row in 0..<rows {
            let source = pitch >= 0 ? buffer + row * pitch : buffer + (rows - 1 - row) * (-pitch)
            for x in 0..<width { coverage[row * width + x] = source[x] }
        }
        return coverage
    }
}

/// Where a caption's line sits in its image: the line box (ascender to descender, 0 to the
/// advance) grown to any ink past it, plus the style's padding.
struct CaptionLayout {
    let width: Int, height: Int
    /// Added to a glyph's line position to get its place in the image.
    let shiftX: Int, shiftY: Int

    init(_ line: CaptionGlyphs, face: FT_Face, pixelSize: Int, style: CaptionRenderer.Style) {
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int((metrics.ascender + 63) >> 6), descender = Int(metrics.descender >> 6)
        var left = 0, right = (line.pen + 63) >> 6, top = -ascender, bottom = -descender
        for glyph in line.placed {
            left = min(left, glyph.x); right = max(right, glyph.x + glyph.width)
            top = min(top, glyph.y); bottom = max(bottom, glyph.y + glyph.height)
        }
        let padX = Int((style.paddingX * Double(pixelSize)).rounded()), padY = Int((style.paddingY * Double(pixelSize)).rounded())
        width = right - left + 2 * padX
        height = bottom - top + 2 * padY
        shiftX = padX - left
        shiftY = padY - top
    }

    /// The text's coverage over the whole image (overlapping glyphs: the larger value).
    func coverage(of line: CaptionGlyphs) -> [UInt8] {
        var text = [UInt8](repeating: 0, count: width * height)
        for glyph in line.placed {
            for row in 0..<glyph.height {
                let start = (glyph.y + shiftY + row) * width + glyph.x + shiftX
                for x in 0..<glyph.width {
                    let c = glyph.coverage[row * glyph.width + x]
                    if c > text[start + x] { text[start + x] = c }
                }
            }
        }
        return text
    }
}
