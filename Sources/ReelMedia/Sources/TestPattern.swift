import ReelCore

/// Draws the synthetic source's picture: scrolling colour bars, a sweeping white box, the
/// capture time and frame number as text, and the frame number as a 24-bit strip along the
/// bottom edge (large black/white blocks that survive compression, so tests can read back
/// which source frame an encoded picture came from).
enum TestPattern {
    /// BT.601 limited-range YUV of the classic bars: white, yellow, cyan, green, magenta, red, blue, black.
    private static let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]
    /// Bits in the frame-number strip.
    static let stripBits = 24

    /// "HH:MM:SS.mmm #NNNNNN" for a time since the start and a frame number.
    static func label(time: MediaTime, frameIndex: Int64) -> String {
        let ms = max(0, time.converted(to: 1000).value)
        let (h, m, s, f) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        func pad(_ n: Int64, _ w: Int) -> String { let t = String(n); return String(repeating: "0", count: max(0, w - t.count)) + t }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3)) #\(pad(frameIndex, 6))"
    }

    static func draw(into p: PlanarPicture, frameIndex: Int, label: String) {
        let (w, h) = (p.width, p.height)
        let stripHeight = max(8, h / 16) & ~1
        let barsHeight = h - stripHeight
        // Bars scroll left by 4 px a frame.
        let barWidth = max(1, w / bars.count)
        let shift = (frameIndex &* 4) % (barWidth * bars.count)
        var lumaOfColumn = [UInt8](repeating: 0, count: w)
        var uOfColumn = [UInt8](repeating: 0, count: w / 2)
        var vOfColumn = [UInt8](repeating: 0, count: w / 2)
        for x in 0..<w {
            let bar = ((x &+ shift) / barWidth) % bars.count
            lumaOfColumn[x] = bars[bar].0
            if x & 1 == 0 { uOfColumn[x / 2] = bars[bar].1; vOfColumn[x / 2] = bars[bar].2 }
        }
        lumaOfColumn.withUnsafeBufferPointer { row in
            for y in 0..<barsHeight { (p.y + y * p.yStride).update(from: row.baseAddress!, count: w) }
        }
        uOfColumn.withUnsafeBufferPointer { row in
            for y in 0..<(barsHeight / 2) { (p.u + y * p.uStride).update(from: row.baseAddress!, count: w / 2) }
        }
        vOfColumn.withUnsafeBufferPointer { row in
            for y in 0..<(barsHeight / 2) { (p.v + y * p.vStride).update(from: row.baseAddress!, count: w / 2) }
        }
        // A white box bouncing horizontally through the middle third.
        let box = max(8, h / 6) & ~1
        let travel = max(1, w - box)
        let phase = (frameIndex &* 8) % (2 * travel)
        let boxX = (phase < travel ? phase : 2 * travel - phase) & ~1
        fill(p, x: boxX, y: (barsHeight - box) / 2 & ~1, width: box, height: box, yuv: (235, 128, 128))
        // The label, white on black, at the top left.
        let scale = max(1, h / 120)
        let textWidth = label.count * 6 * scale + 2 * scale
        fill(p, x: 0, y: 0, width: min(w, textWidth + scale * 2) & ~1, height: (9 * scale + scale * 2) & ~1 + 2, yuv: (16, 128, 128))
        BitmapFont.draw(label, into: p, x: 2 * scale, y: 2 * scale, scale: scale, luma: 235)
        // The frame number, most significant bit first, white = 1.
        let cell = w / stripBits
        for bit in 0..<stripBits {
            let on = (frameIndex >> (stripBits - 1 - bit)) & 1 == 1
            fill(p, x: bit * cell & ~1, y: barsHeight, width: cell & ~1, height: stripHeight, yuv: on ? (235, 128, 128) : (16, 128, 128))
        }
        if cell * stripBits < w {
            fill(p, x: cell * stripBits & ~1, y: barsHeight, width: w - (cell * stripBits & ~1), height: stripHeight, yuv: (16, 128, 128))
        }
    }

    /// Fills a rectangle (even coordinates) with one colour, clipped to the picture.
    static func fill(_ p: PlanarPicture, x: Int, y: Int, width: Int, height: Int, yuv: (UInt8, UInt8, UInt8)) {
        let x0 = max(0, x), y0 = max(0, y)
        let x1 = min(p.width, x + width), y1 = min(p.height, y + height)
        guard x1 > x0, y1 > y0 else { return }
        for row in y0..<y1 { (p.y + row * p.yStride + x0).update(repeating: yuv.0, count: x1 - x0) }
        let cx0 = x0 / 2, cx1 = (x1 + 1) / 2
        for row in (y0 / 2)..<((y1 + 1) / 2) {
            (p.u + row * p.uStride + cx0).update(repeating: yuv.1, count: cx1 - cx0)
            (p.v + row * p.vStride + cx0).update(repeating: yuv.2, count: cx1 - cx0)
        }
    }

    /// Reads the frame number back from a decoded picture's luma plane (nil when the strip
    /// is not there). Thresholds each cell's centre at mid-grey.
    static func readFrameIndex(luma: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> Int? {
        let stripHeight = max(8, height / 16) & ~1
        let yMid = height - stripHeight / 2
        let cell = width / stripBits
        guard cell >= 2 else { return nil }
        var value = 0
        for bit in 0..<stripBits {
            let x = (bit * cell & ~1) + cell / 2
            var sum = 0
            for dy in -1...1 { for dx in -1...1 { sum += Int(luma[(yMid + dy) * stride + x + dx]) } }
            value = value << 1 | (sum / 9 > 125 ? 1 : 0)
        }
        return value
    }
}

/// A 5x7 pixel font for the digits and the few signs the test pattern prints.
enum BitmapFont {
    private static let glyphs: [Character: [UInt8]] = [
        "0": [0x0E, 0x11, 0x13, 0x15, 0x19, 0x11, 0x0E], "1": [0x04, 0x0C, 0x04, 0x04, 0x04, 0x04, 0x0E],
        "2": [0x0E, 0x11, 0x01, 0x02, 0x04, 0x08, 0x1F], "3": [0x1F, 0x02, 0x04, 0x02, 0x01, 0x11, 0x0E],
        "4": [0x02, 0x06, 0x0A, 0x12, 0x1F, 0x02, 0x02], "5": [0x1F, 0x10, 0x1E, 0x01, 0x01, 0x11, 0x0E],
        "6": [0x06, 0x08, 0x10, 0x1E, 0x11, 0x11, 0x0E], "7": [0x1F, 0x01, 0x02, 0x04, 0x08, 0x08, 0x08],
        "8": [0x0E, 0x11, 0x11, 0x0E, 0x11, 0x11, 0x0E], "9": [0x0E, 0x11, 0x11, 0x0F, 0x01, 0x02, 0x0C],
        ":": [0x00, 0x0C, 0x0C, 0x00, 0x0C, 0x0C, 0x00], ".": [0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x0C],
        "#": [0x0A, 0x0A, 0x1F, 0x0A, 0x1F, 0x0A, 0x0A], " ": [0, 0, 0, 0, 0, 0, 0],
    ]

    /// Draws `text` into the luma plane at (x, y), each font pixel `scale` picture pixels wide.
    static func draw(_ text: String, into p: PlanarPicture, x: Int, y: Int, scale: Int, luma: UInt8) {
        var penX = x
        for character in text {
            let rows = glyphs[character] ?? glyphs[" "]!
            for (r, bits) in rows.enumerated() {
                for c in 0..<5 where bits & (0x10 >> c) != 0 {
                    let px = penX + c * scale, py = y + r * scale
                    guard px + scale <= p.width, py + scale <= p.height else { continue }
                    for dy in 0..<scale { (p.y + (py + dy) * p.yStride + px).update(repeating: luma, count: scale) }
                }
            }
            penX += 6 * scale
        }
    }
}
