import Foundation
import ReelCore
import ReelTestSupport
import ReelVision

/// An RGB picture held in memory for the detector tests, with the few edits they need
/// (paste, rotate, darken) and the conversions to every ``DetectorPicture`` format.
struct TestPicture {
    var width: Int
    var height: Int
    /// R, G, B per pixel, rows packed.
    var rgb: [UInt8]

    /// A plain picture of one grey level.
    init(width: Int, height: Int, grey: UInt8) {
        self.width = width
        self.height = height
        rgb = [UInt8](repeating: grey, count: width * height * 3)
    }

    init(width: Int, height: Int, rgb: [UInt8]) {
        precondition(rgb.count == width * height * 3)
        self.width = width
        self.height = height
        self.rgb = rgb
    }

    /// Seeded noise: every byte random.
    static func noise(width: Int, height: Int, seed: UInt64) -> TestPicture {
        var generator = SplitMix64(seed: seed)
        return TestPicture(width: width, height: height, rgb: (0..<width * height * 3).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    /// A soft grey gradient (a wall), the background the astronaut is pasted on.
    static func wall(width: Int, height: Int) -> TestPicture {
        var picture = TestPicture(width: width, height: height, grey: 0)
        for y in 0..<height {
            for x in 0..<width {
                let level = UInt8(90 + (70 * x) / width + (30 * y) / height)
                let i = (y * width + x) * 3
                picture.rgb[i] = level
                picture.rgb[i + 1] = level
                picture.rgb[i + 2] = level &+ 6
            }
        }
        return picture
    }

    /// The astronaut test photo (512 × 512, Tests/Fixtures), decoded by the ffmpeg CLI.
    static func astronaut() throws -> TestPicture {
        let path = astronautPath
        guard FileManager.default.fileExists(atPath: path) else {
            throw TestPictureError("test photo \(path) is missing (set REEL_TEST_PHOTO to the 512x512 astronaut PNG)")
        }
        let temporary = try TemporaryDirectory()
        defer { temporary.cleanup() }
        let raw = temporary.path("astronaut.rgb")
        let run = try Subprocess.run("ffmpeg", ["-loglevel", "error", "-y", "-i", path, "-pix_fmt", "rgb24", "-f", "rawvideo", raw])
        guard run.status == 0 else { throw TestPictureError("ffmpeg could not decode \(path): \(run.stderr)") }
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: raw)))
        guard bytes.count == 512 * 512 * 3 else { throw TestPictureError("decoded \(bytes.count) bytes, want 512x512 RGB") }
        return TestPicture(width: 512, height: 512, rgb: bytes)
    }

    /// The photo: `REEL_TEST_PHOTO` when set (as bench/detector.sh), else the fixture.
    static var astronautPath: String { TestPhotos.astronautPath }

    /// Where the face is in ``astronaut()`` (pixels, looked up by eye: cheek to cheek, hairline
    /// to chin; hair and ears excluded).
    static let astronautFace = (x: 178.0, y: 78.0, width: 94.0, height: 100.0)

    /// `other` pasted with its top-left corner at (`x`, `y`) (must fit).
    mutating func paste(_ other: TestPicture, x: Int, y: Int) {
        precondition(x >= 0 && y >= 0 && x + other.width <= width && y + other.height <= height)
        for row in 0..<other.height {
            let source = row * other.width * 3
            let target = ((y + row) * width + x) * 3
            rgb.replaceSubrange(target..<target + other.width * 3, with: other.rgb[source..<source + other.width * 3])
        }
    }

    /// `other` pasted with its top-left corner at (`x`, `y`), which may lie outside: only the
    /// part over this picture is copied (a photo cut by the picture's edge).
    mutating func pasteClipped(_ other: TestPicture, x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + other.width)
        guard x0 < x1 else { return }
        for row in max(0, y)..<max(max(0, y), min(height, y + other.height)) {
            let source = ((row - y) * other.width + (x0 - x)) * 3
            let target = (row * width + x0) * 3
            rgb.replaceSubrange(target..<target + (x1 - x0) * 3, with: other.rgb[source..<source + (x1 - x0) * 3])
        }
    }

    /// Rotated by `degrees` (clockwise on screen) about its centre, same size, bilinear,
    /// uncovered corners filled with `fill`.
    func rotated(degrees: Double, fill: UInt8 = 128) -> TestPicture {
        var out = TestPicture(width: width, height: height, grey: fill)
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        for y in 0..<height {
            for x in 0..<width {
                // Inverse mapping: where this output pixel comes from.
                let dx = Double(x) - cx, dy = Double(y) - cy
                let sx = c * dx + s * dy + cx, sy = -s * dx + c * dy + cy
                guard sx >= 0, sy >= 0, sx <= Double(width - 1), sy <= Double(height - 1) else { continue }
                let x0 = Int(sx), y0 = Int(sy), x1 = min(x0 + 1, width - 1), y1 = min(y0 + 1, height - 1)
                let fx = sx - Double(x0), fy = sy - Double(y0)
                for channel in 0..<3 {
                    func at(_ px: Int, _ py: Int) -> Double { Double(rgb[(py * width + px) * 3 + channel]) }
                    let top = at(x0, y0) * (1 - fx) + at(x1, y0) * fx
                    let bottom = at(x0, y1) * (1 - fx) + at(x1, y1) * fx
                    out.rgb[(y * width + x) * 3 + channel] = UInt8((top * (1 - fy) + bottom * fy).rounded())
                }
            }
        }
        return out
    }

    /// Where the point (`x`, `y`) lands after ``rotated(degrees:fill:)``.
    func rotatedPoint(x: Double, y: Double, degrees: Double) -> (x: Double, y: Double) {
        let angle = degrees * .pi / 180, c = cos(angle), s = sin(angle)
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let dx = x - cx, dy = y - cy
        return (c * dx - s * dy + cx, s * dx + c * dy + cy)
    }

    /// Scaled by `factor` (nearest neighbour; enough for a test picture).
    func scaled(by factor: Double) -> TestPicture {
        let w = max(1, Int(Double(width) * factor)), h = max(1, Int(Double(height) * factor))
        var out = TestPicture(width: w, height: h, grey: 0)
        for y in 0..<h {
            let sy = min(height - 1, Int(Double(y) / factor))
            for x in 0..<w {
                let sx = min(width - 1, Int(Double(x) / factor))
                for c in 0..<3 { out.rgb[(y * w + x) * 3 + c] = rgb[(sy * width + sx) * 3 + c] }
            }
        }
        return out
    }

    /// Scaled down by `factor` (< 1), each output pixel the mean of the input pixels it
    /// covers (as a camera or FFmpeg's area scaler would give a small face; nearest neighbour
    /// aliases a 20 px face into noise).
    func scaledAveraging(by factor: Double) -> TestPicture {
        let w = max(1, Int(Double(width) * factor)), h = max(1, Int(Double(height) * factor))
        var out = TestPicture(width: w, height: h, grey: 0)
        for y in 0..<h {
            let y0 = Int(Double(y) / factor), y1 = max(y0 + 1, min(height, Int(Double(y + 1) / factor)))
            for x in 0..<w {
                let x0 = Int(Double(x) / factor), x1 = max(x0 + 1, min(width, Int(Double(x + 1) / factor)))
                for c in 0..<3 {
                    var sum = 0
                    for sy in y0..<y1 { for sx in x0..<x1 { sum += Int(rgb[(sy * width + sx) * 3 + c]) } }
                    out.rgb[(y * w + x) * 3 + c] = UInt8(sum / ((y1 - y0) * (x1 - x0)))
                }
            }
        }
        return out
    }

    /// Every channel multiplied by `factor`.
    func scaled(brightness factor: Double) -> TestPicture {
        TestPicture(width: width, height: height, rgb: rgb.map { UInt8(min(255, (Double($0) * factor).rounded())) })
    }

    /// The picture in `format`, borrowed for `body`.
    func withDetectorPicture<T>(_ format: DetectorPicture.Format, _ body: (DetectorPicture) throws -> T) rethrows -> T {
        switch format {
        case .rgb24:
            return try rgb.withUnsafeBytes { try body(DetectorPicture(format: .rgb24, base: $0.baseAddress!, width: width, height: height, stride: width * 3)) }
        case .bgr24:
            var bgr = rgb
            for i in stride(from: 0, to: bgr.count, by: 3) { bgr.swapAt(i, i + 2) }
            return try bgr.withUnsafeBytes { try body(DetectorPicture(format: .bgr24, base: $0.baseAddress!, width: width, height: height, stride: width * 3)) }
        case .gray8:
            var grey = [UInt8](repeating: 0, count: width * height)
            for i in 0..<width * height {
                let r: Double = 0.299 * Double(rgb[3 * i]), g: Double = 0.587 * Double(rgb[3 * i + 1]), b: Double = 0.114 * Double(rgb[3 * i + 2])
                grey[i] = UInt8((r + g + b).rounded())
            }
            return try grey.withUnsafeBytes { try body(DetectorPicture(format: .gray8, base: $0.baseAddress!, width: width, height: height, stride: width)) }
        case .yuv420p:
            let (y, u, v, chromaWidth) = yuv420p()
            return try y.withUnsafeBytes { yb in
                try u.withUnsafeBytes { ub in
                    try v.withUnsafeBytes { vb in
                        try body(DetectorPicture(yuv420p: (DetectorPicture.Plane(base: yb.baseAddress!, stride: width),
                                                           DetectorPicture.Plane(base: ub.baseAddress!, stride: chromaWidth),
                                                           DetectorPicture.Plane(base: vb.baseAddress!, stride: chromaWidth)),
                                                 width: width, height: height))
                    }
                }
            }
        }
    }

    /// BT.601 limited-range planes, chroma averaged over 2 × 2 pixels.
    private func yuv420p() -> (y: [UInt8], u: [UInt8], v: [UInt8], chromaWidth: Int) {
        let cw = (width + 1) / 2, ch = (height + 1) / 2
        var y = [UInt8](repeating: 0, count: width * height)
        var u = [UInt8](repeating: 128, count: cw * ch), v = u
        for row in 0..<height {
            for col in 0..<width {
                let i = (row * width + col) * 3
                let r = Double(rgb[i]), g = Double(rgb[i + 1]), b = Double(rgb[i + 2])
                let luma: Double = 65.481 * r + 128.553 * g + 24.966 * b
                y[row * width + col] = UInt8((16 + luma / 255).rounded())
            }
        }
        for row in 0..<ch {
            for col in 0..<cw {
                var r = 0.0, g = 0.0, b = 0.0, n = 0.0
                for py in (2 * row)..<min(2 * row + 2, height) {
                    for px in (2 * col)..<min(2 * col + 2, width) {
                        let i = (py * width + px) * 3
                        r += Double(rgb[i]); g += Double(rgb[i + 1]); b += Double(rgb[i + 2]); n += 1
                    }
                }
                r /= n; g /= n; b /= n
                let cb: Double = -37.797 * r - 74.203 * g + 112 * b
                let cr: Double = 112 * r - 93.786 * g - 18.214 * b
                u[row * cw + col] = UInt8((128 + cb / 255).rounded())
                v[row * cw + col] = UInt8((128 + cr / 255).rounded())
            }
        }
        return (y, u, v, cw)
    }
}

struct TestPictureError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// Intersection over union of two normalized boxes.
func iou(_ a: NormalizedRect, _ b: NormalizedRect) -> Double {
    let w = max(0, min(a.x + a.width, b.x + b.width) - max(a.x, b.x))
    let h = max(0, min(a.y + a.height, b.y + b.height) - max(a.y, b.y))
    let intersection = w * h
    return intersection / (a.width * a.height + b.width * b.height - intersection)
}
