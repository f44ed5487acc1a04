// reel-bench-compose: the export compositor's cost per frame (bench/compose.sh runs it in a
// release build). Each frame gets one face mosaic (a ~300×400 px box at 1080p that drifts a
// little, as an interpolated track does), the caption (its text changes once a second of
// 30 fps video, so it is re-rendered every 30th frame) and a watermark. The picture is
// restored from the original between frames, outside the timed part.
//
//   reel-bench-compose [--frames N] [--size WxH] [--font PATH] [--input IN.yuv] [--output OUT.yuv]
//
// --input takes the picture from a raw yuv420p file of that size (else a generated pattern);
// --output writes the last composited frame there, to look at (e.g. with ffmpeg -f rawvideo).
import Foundation
import ReelCompose
import ReelCore

var frames = 300, width = 1920, height = 1080
var fontPath: String?, inputPath: String?, outputPath: String?
var arguments = CommandLine.arguments.dropFirst().makeIterator()
while let argument = arguments.next() {
    switch argument {
    case "--frames": frames = Int(arguments.next() ?? "") ?? frames
    case "--size":
        let parts = (arguments.next() ?? "").split(separator: "x").compactMap { Int($0) }
        if parts.count == 2 { width = parts[0]; height = parts[1] }
    case "--font": fontPath = arguments.next()
    case "--input": inputPath = arguments.next()
    case "--output": outputPath = arguments.next()
    default:
        FileHandle.standardError.write(Data("usage: reel-bench-compose [--frames N] [--size WxH] [--font PATH] [--input IN.yuv] [--output OUT.yuv]\n".utf8))
        exit(2)
    }
}

/// A deterministic busy picture (gradient + noise), as the tests use.
func pattern(width: Int, height: Int) -> YUVPictureBuffer {
    let buffer = YUVPictureBuffer(width: width, height: height)
    let p = buffer.picture
    var seed: UInt32 = 12345
    for y in 0..<height {
        for x in 0..<width {
            seed = seed &* 1_664_525 &+ 1_013_904_223
            p.y[y * p.yStride + x] = UInt8(40 + (x * 3 + y * 2) % 150 + Int(seed >> 28))
        }
    }
    for y in 0..<p.chromaHeight { for x in 0..<p.chromaWidth { p.u[y * p.uStride + x] = UInt8(90 + x % 60); p.v[y * p.vStride + x] = UInt8(100 + y % 50) } }
    return buffer
}

func milliseconds(_ d: Duration) -> Double {
    Double(d.components.seconds) * 1000 + Double(d.components.attoseconds) / 1e15
}

func padded(_ name: String) -> String { name + String(repeating: " ", count: max(0, 30 - name.count)) }

func summary(_ name: String, _ samples: [Double]) -> String {
    let sorted = samples.sorted()
    let median = sorted[sorted.count / 2], p95 = sorted[min(sorted.count - 1, Int(Double(sorted.count) * 0.95))]
    let mean = samples.reduce(0, +) / Double(samples.count)
    return padded(name) + String(format: " median %7.3f ms  p95 %7.3f ms  mean %7.3f ms  (%d frames)", median, p95, mean, samples.count)
}

do {
    let original = pattern(width: width, height: height)
    if let inputPath {
        let data = try Data(contentsOf: URL(fileURLWithPath: inputPath))
        guard data.count >= original.bytes.count else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSFilePathErrorKey: inputPath])
        }
        original.load([UInt8](data.prefix(original.bytes.count)))
    }
    let frame = original.copy()
    let bytes = original.bytes
    let mark = Watermark(image: RGBAImage(width: 320, height: 120, red: 255, green: 255, blue: 255, alpha: 200))
    let renderer = try CaptionRenderer(fontPath: fontPath)
    let compositor = FrameCompositor(captionRenderer: renderer, watermark: mark)
    let mosaic = MosaicCompositor()
    let boxW = 300.0 / Double(width), boxH = 400.0 / Double(height)
    func box(_ i: Int) -> NormalizedRect {
        NormalizedRect(x: 0.42 + 0.02 * sin(Double(i) / 40), y: 0.2 + 0.01 * cos(Double(i) / 50), width: boxW, height: boxH)
    }
    func caption(_ i: Int) -> String {
        let s = 5025 + i / 30
        return String(format: "勉強時間 %d:%02d:%02d · 2026-11-30", s / 3600, s / 60 % 60, s % 60)
    }
    let clock = ContinuousClock()
    var mosaicOnly: [Double] = [], full: [Double] = [], cachedOnly: [Double] = []
    for i in 0..<(frames + 10) {  // 10 warm-up frames
        frame.load(bytes)
        let m = clock.measure { mosaic.apply(to: frame.picture, boxes: [box(i)]) }
        frame.load(bytes)
        let text = caption(i)
        let f = try clock.measure { try compositor.composite(frame.picture, covers: [.mosaic(box(i))], caption: text) }
        guard i >= 10 else { continue }
        mosaicOnly.append(milliseconds(m))
        full.append(milliseconds(f))
        if i % 30 != 0 { cachedOnly.append(milliseconds(f)) }
    }
    if let outputPath { try Data(frame.bytes).write(to: URL(fileURLWithPath: outputPath)) }
    let first = try clock.measure { _ = try renderer.render(caption(999_999), pixelSize: 38) }
    print("reel-bench-compose: \(width)x\(height) yuv420p, face box 300x400 px, font \(renderer.fontPath)")
    print(summary("mosaic (1 box)", mosaicOnly))
    print(summary("mosaic+caption+watermark", full))
    print(summary("  frames with cached caption", cachedOnly))
    print(padded("caption render (new text)") + String(format: " %7.3f ms  (%d renders in the run)", milliseconds(first), compositor.captionRenders))
} catch {
    FileHandle.standardError.write(Data("reel-bench-compose: \(error)\n".utf8))
    exit(1)
}
