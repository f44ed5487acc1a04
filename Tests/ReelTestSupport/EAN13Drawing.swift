import Foundation

/// EAN-13 barcodes drawn by the tests from their digits, as 8-bit grey pictures (0 black, 255
/// white), optionally turned a little and with noise, so the scanner is tested on codes whose
/// digits are known. The encoding is the standard's: a guard `101`, six left digits in the L or
/// G set chosen by the first digit, a centre guard `01010`, six right digits in the R set, a
/// guard `101`, with quiet zones of white either side.
public struct EAN13Drawing {
    /// Width and height in pixels.
    public let width: Int, height: Int
    /// One byte per pixel, rows back to back.
    public var pixels: [UInt8]

    private static let lCodes = ["0001101", "0011001", "0010011", "0111101", "0100011",
                                 "0110001", "0101111", "0111011", "0110111", "0001011"]
    private static let parity = ["LLLLLL", "LLGLGG", "LLGGLG", "LLGGGL", "LGLLGG",
                                 "LGGLLG", "LGGGLL", "LGLGLG", "LGLGGL", "LGGLGL"]

    /// The 95 modules (true = bar) of `digits` (13 digits, drawn as given: a wrong check digit
    /// is drawn wrong).
    public static func modules(_ digits: String) -> [Bool] {
        let d = digits.compactMap(\.wholeNumberValue)
        precondition(d.count == 13, "13 digits")
        func r(_ v: Int) -> String { String(lCodes[v].map { $0 == "0" ? "1" : "0" }) }
        var bits = "101"
        for (i, set) in parity[d[0]].enumerated() {
            bits += set == "L" ? lCodes[d[i + 1]] : String(r(d[i + 1]).reversed())
        }
        bits += "01010"
        for i in 7..<13 { bits += r(d[i]) }
        bits += "101"
        return bits.map { $0 == "1" }
    }

    /// `digits` drawn `module` pixels per module, `barHeight` tall, with a white margin of
    /// `quiet` modules on the left and right and `module * 10` pixels above and below.
    public init(digits: String, module: Int = 3, barHeight: Int = 120, quiet: Int = 14) {
        let bars = Self.modules(digits)
        width = (bars.count + 2 * quiet) * module
        height = barHeight + 20 * module
        pixels = [UInt8](repeating: 255, count: width * height)
        for (i, bar) in bars.enumerated() where bar {
            for y in (10 * module)..<(10 * module + barHeight) {
                for x in ((quiet + i) * module)..<((quiet + i + 1) * module) { pixels[y * width + x] = 0 }
            }
        }
    }

    private init(width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// The picture turned by `degrees` about its centre (bilinear; white where nothing was).
    public func rotated(degrees: Double) -> EAN13Drawing {
        let a = degrees * .pi / 180, c = cos(a), s = sin(a)
        let cx = Double(width) / 2, cy = Double(height) / 2
        var out = [UInt8](repeating: 255, count: width * height)
        func at(_ x: Int, _ y: Int) -> Double {
            x >= 0 && y >= 0 && x < width && y < height ? Double(pixels[y * width + x]) : 255
        }
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) + 0.5 - cx, dy = Double(y) + 0.5 - cy
                let sx = c * dx + s * dy + cx - 0.5, sy = -s * dx + c * dy + cy - 0.5
                let x0 = Int(sx.rounded(.down)), y0 = Int(sy.rounded(.down))
                let fx = sx - Double(x0), fy = sy - Double(y0)
                let v = at(x0, y0) * (1 - fx) * (1 - fy) + at(x0 + 1, y0) * fx * (1 - fy)
                    + at(x0, y0 + 1) * (1 - fx) * fy + at(x0 + 1, y0 + 1) * fx * fy
                out[y * width + x] = UInt8(max(0, min(255, v.rounded())))
            }
        }
        return EAN13Drawing(width: width, height: height, pixels: out)
    }

    /// The picture with uniform noise of ±`amplitude` grey levels added to every pixel, from a
    /// seeded generator (the same seed, the same noise).
    public func noisy(amplitude: Int, seed: UInt64) -> EAN13Drawing {
        var random = SplitMix64(seed: seed)
        let span = UInt64(2 * amplitude + 1)
        let out = pixels.map { p -> UInt8 in
            let n = Int(random.next() % span) - amplitude
            return UInt8(max(0, min(255, Int(p) + n)))
        }
        return EAN13Drawing(width: width, height: height, pixels: out)
    }

    /// The picture as a binary PGM (P5) file, which ffmpeg reads and converts.
    public func writePGM(to path: String) throws {
        var data = Data("P5\n\(width) \(height)\n255\n".utf8)
        data.append(contentsOf: pixels)
        try data.write(to: URL(fileURLWithPath: path))
    }
}
