// reel-bench-detector: the cost of one face-tracker tick (one detection, run every 0.2 s of
// capture) at 1080p, for each detector and CenterFace input width. Reads one raw yuv420p
// frame (bench/detector.sh makes it with ffmpeg), runs each detector `--runs` times after a
// warm-up, and prints median and p95 of wall time and of process CPU time per call (CPU counts
// OpenCV's worker threads), and the share of one core at 5 ticks per second.
import BenchTable
import Foundation
import Glibc
import ReelCore
import ReelVision

struct Options {
    var frame = ""
    var width = 1920
    var height = 1080
    var runs = 100
    var centerFaceWidths = [320, 480, 640, 960]

    init(_ arguments: [String]) throws {
        var rest = arguments.makeIterator()
        while let flag = rest.next() {
            guard let value = rest.next() else { throw BenchError("\(flag) needs a value") }
            switch flag {
            case "--frame": frame = value
            case "--size":
                let parts = value.split(separator: "x").compactMap { Int($0) }
                guard parts.count == 2 else { throw BenchError("--size wants WxH, got \(value)") }
                (width, height) = (parts[0], parts[1])
            case "--runs": guard let n = Int(value), n > 0 else { throw BenchError("--runs wants a positive number") }; runs = n
            case "--centerface-widths": centerFaceWidths = value.split(separator: ",").compactMap { Int($0) }
            default: throw BenchError("unknown option \(flag); usage: reel-bench-detector --frame FILE.yuv [--size 1920x1080] [--runs 100] [--centerface-widths 320,480,640]")
            }
        }
        if frame.isEmpty { throw BenchError("--frame FILE.yuv (raw yuv420p) is required") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func cpuNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func wallNanoseconds() -> UInt64 {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func measure(_ name: String, runs: Int, picture: DetectorPicture, detector: any FaceDetector) throws {
    var found = try detector.detect(picture)  // warm-up (first run allocates)
    var wall: [Double] = [], cpu: [Double] = []
    for _ in 0..<runs {
        let w0 = wallNanoseconds(), c0 = cpuNanoseconds()
        found = try detector.detect(picture)
        wall.append(Double(wallNanoseconds() - w0) / 1e6)
        cpu.append(Double(cpuNanoseconds() - c0) / 1e6)
    }
    wall.sort()
    cpu.sort()
    let median = percentile(cpu, 0.5)
    let cells = [percentile(wall, 0.5), percentile(wall, 0.95), median, percentile(cpu, 0.95)].map { String(format: "%.1f", $0) }
        + [String(format: "%.0f%%", median * 5 / 10), "\(found.count)"]
    print(row(name, cells, nameWidth: 28))
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    let bytes = try Data(contentsOf: URL(fileURLWithPath: options.frame))
    let w = options.width, h = options.height, cw = (w + 1) / 2, ch = (h + 1) / 2
    guard bytes.count == w * h + 2 * cw * ch else {
        throw BenchError("\(options.frame) has \(bytes.count) bytes; a \(w)x\(h) yuv420p frame has \(w * h + 2 * cw * ch)")
    }
    let models = VisionModels.current()
    let threads = ProcessInfo.processInfo.environment["OPENCV_THREADS"] ?? "default"
    if let count = Int(threads) { VisionThreads.limit(count) }
    print("Detector cost per 0.2 s tick, \(w)x\(h) yuv420p, \(options.runs) runs, \(ProcessInfo.processInfo.activeProcessorCount) CPUs, OpenCV threads: \(threads)")
    print(row("detector (ms per call)", ["wall p50", "wall p95", "CPU p50", "CPU p95", "core @5/s", "found"], nameWidth: 28))
    try bytes.withUnsafeBytes { raw in
        let base = raw.baseAddress!
        let picture = DetectorPicture(yuv420p: (.init(base: base, stride: w), .init(base: base + w * h, stride: cw),
                                                .init(base: base + w * h + cw * ch, stride: cw)), width: w, height: h)
        if models.hasCenterFaceModel {
            for width in options.centerFaceWidths {
                let detector = try CenterFaceDetector(modelPath: models.centerFaceModel, settings: .init(inputWidth: width))
                let label = "CenterFace @\(width)" + (width == CenterFaceDetector.Settings.default.inputWidth ? " (default)"
                    : width == CenterFaceDetector.Settings.export.inputWidth ? " (export)" : "")
                try measure(label, runs: options.runs, picture: picture, detector: detector)
            }
            // reel live --privacy's detector: 320 wide with the export's mirrored border.
            let padded = try CenterFaceDetector(modelPath: models.centerFaceModel, settings: .live)
            try measure("CenterFace @320 + border (live)", runs: options.runs, picture: picture, detector: padded)
        } else {
            print("CenterFace: model missing at \(models.centerFaceModel) (run scripts/fetch-model.sh); skipped")
        }
        try measure("Haar alt2 @640", runs: options.runs, picture: picture, detector: try HaarFaceDetector())
        try measure("upper body cascade @640", runs: options.runs, picture: picture, detector: try UpperBodyDetector(methods: .cascade))
        try measure("upper body HOG @640", runs: options.runs, picture: picture, detector: try UpperBodyDetector(methods: .hog))
        try measure("upper body both @640", runs: options.runs, picture: picture, detector: try UpperBodyDetector())
    }
} catch {
    FileHandle.standardError.write(Data("reel-bench-detector: \(error)\n".utf8))
    exit(1)
}
