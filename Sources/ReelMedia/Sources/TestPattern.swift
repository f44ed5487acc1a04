import ReelCore

/// Draws the synthetic source's picture: scrolling colour bars, a sweeping white box, the
/// capture time and frame number as text, and the frame number as a 24-bit strip along the
/// bottom edge (large black/white blocks that survive compression, so tests can read back
/// which source frame an encoded picture came from).
///
/// Just above the frame number, the source draws a second strip: the wall-clock time
/// (CLOCK_REALTIME, milliseconds modulo 2^32) at which the picture was made. A player on the
/// same machine reads it from the picture it shows and subtracts it from its own clock, which
/// is how glass-to-glass latency is measured without any side channel (bench/glass-to-glass.sh).
enum TestPattern {
    /// BT.601 limited-range YUV of the classic bars: white, yellow, cyan, green, magenta, red, blue, black.
    private static let bars: [(UInt8, UInt8, UInt8)] = [
        (235, 128, 128), (210, 16, 146), (170, 166, 16), (145, 54, 34),
        (106, 202, 222), (81, 90, 240), (41, 240, 110), (16, 128, 128),
    ]
    /// Bits in the frame-number strip.
    static let stripBits = 24
    /// Bits in the wall-clock strip: milliseconds modulo 2^32 (wraps every 49.7 days; a reader
    /// compares with its own clock modulo 2^32).
    static let clockBits = 32

    /// Rows of each strip: 1/16 of the height, even, at least 8.
    static func stripHeight(pictureHeight h: Int) -> Int { max(8, h / 16) & ~1 }

    /// "HH:MM:SS.mmm #NNNNNN" for a time since the start and a frame number.
    static func label(time: MediaTime, frameIndex: Int64) -> String {
        let ms = max(0, time.converted(to: 1000).value)
        let (h, m, s, f) = (ms / 3_600_000, ms / 60_000 % 60, ms / 1000 % 60, ms % 1000)
        func pad(_ n: Int64, _ w: Int) -> String { let t = String(n); return String(repeating: "0", count: max(0, w - t.count)) + t }
        return "\(pad(h, 2)):\(pad(m, 2)):\(pad(s, 2)).\(pad(f, 3)) #\(pad(frameIndex, 6))"
    }

    /// Draws frame `frameIndex`; with `clockMilliseconds`, the wall-clock strip above the
    /// frame-number strip too (without it, the bars run down to the frame-number strip).
    static func draw(into p: PlanarPicture, frameIndex: Int, label: String, clockMilliseconds: UInt64? = nil) {
        let (w, h) = (p.width, p.height)
        let stripHeight = stripHeight(pictureHeight: h)
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
        drawBits(UInt64(truncatingIfNeeded: frameIndex), count: stripBits, into: p, y: barsHeight, height: stripHeight)
        if let clockMilliseconds {
            drawClock(clockMilliseconds, into: p, y: barsHeight - stripHeight, height: stripHeight)
        }
    }

    /// The low ``clockBits`` bits of `milliseconds`, white = 1, most significant first. Unlike
    /// the frame number's, these cells divide the width exactly (cell i spans i/32 to (i+1)/32
    /// of it, rounded to even pixels), so a reader finds each centre at (i + ½)/32 of any
    /// picture scaled from this one, without knowing the source's size.
    static func drawClock(_ milliseconds: UInt64, into p: PlanarPicture, y: Int, height: Int) {
        for bit in 0..<clockBits {
            let on = (milliseconds >> UInt64(clockBits - 1 - bit)) & 1 == 1
            let x0 = bit * p.width / clockBits & ~1
            let x1 = bit == clockBits - 1 ? p.width : (bit + 1) * p.width / clockBits & ~1
            fill(p, x: x0, y: y, width: x1 - x0, height: height, yuv: on ? (235, 128, 128) : (16, 128, 128))
        }
    }

    /// The low `count` bits of `value` as a row of equal cells across the width, most
    /// significant first, white = 1; the rest of the row black.
    static func drawBits(_ value: UInt64, count: Int, into p: PlanarPicture, y: Int, height: Int) {
        let w = p.width
        let cell = w / count
        for bit in 0..<count {
            let on = (value >> UInt64(count - 1 - bit)) & 1 == 1
            fill(p, x: bit * cell & ~1, y: y, width: cell & ~1, height: height, yuv: on ? (235, 128, 128) : (16, 128, 128))
        }
        if cell * count < w {
            fill(p, x: cell * count & ~1, y: y, width: w - (cell * count & ~1), height: height, yuv: (16, 128, 128))
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
        let stripHeight = stripHeight(pictureHeight: height)
        return readBits(stripBits, luma: luma, stride: stride, width: width, row: height - stripHeight / 2).map { Int($0) }
    }

    /// Reads the wall-clock strip (milliseconds modulo 2^32 when the picture was made) from a
    /// decoded picture's luma plane, also one scaled from the source's size; nil when the
    /// picture is too small to hold it. A picture drawn without the clock reads as whatever the
    /// bars there threshold to.
    static func readClockMilliseconds(luma: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int) -> UInt32? {
        let stripHeight = stripHeight(pictureHeight: height)
        let row = height - stripHeight - stripHeight / 2
        guard width / clockBits >= 4, row >= 1 else { return nil }
        var value: UInt32 = 0
        for bit in 0..<clockBits {
            let x = (2 * bit + 1) * width / (2 * clockBits)
            var sum = 0
            for dy in -1...1 { for dx in -1...1 { sum += Int(luma[(row + dy) * stride + x + dx]) } }
            value = value << 1 | (sum / 9 > 125 ? 1 : 0)
        }
        return value
    }

    /// `count` cells across the width on `row`, each the mean of the 3x3 pixels at its
    /// centre thresholded at mid-grey, most significant first.
    private static func readBits(_ count: Int, luma: UnsafePointer<UInt8>, stride: Int, width: Int, row: Int) -> UInt64? {
        let cell = width / count
        guard cell >= 2, row >= 1 else { return nil }
        var value: UInt64 = 0
        for bit in 0..<count {
            let x = (bit * cell & ~1) + cell / 2
            var sum = 0
            for dy in -1...1 { for dx in -1...1 { sum += Int(luma[(row + dy) * stride + x + dx]) } }
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
