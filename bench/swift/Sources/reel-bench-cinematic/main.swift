// reel-bench-cinematic: the cinematic camera's cost per picture, stage by stage, on one raw
// yuv420p frame (bench/cinematic.sh makes it with ffmpeg): the person matte at the layer map's
// size (the segmentation network and the guided filter), the layer map from the subjects, and
// the renderer (the depth-dependent blur of all three planes). Prints median and p95 of wall
// time and of process CPU time per call (CPU counts OpenCV's worker threads).
import BenchTable
import Foundation
import Glibc
import ReelCore
import ReelVision

struct Options {
    var frame = ""
    var width = 1280
    var height = 720
    var runs = 100

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
            default: throw BenchError("unknown option \(flag); usage: reel-bench-cinematic --frame FILE.yuv [--size 1280x720] [--runs 100]")
            }
        }
        if frame.isEmpty { throw BenchError("--frame FILE.yuv (raw yuv420p) is required") }
    }
}

struct BenchError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

func nanoseconds(_ clock: clockid_t) -> UInt64 {
    var t = timespec()
    clock_gettime(clock, &t)
    return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
}

func measure(_ name: String, runs: Int, _ body: () throws -> Void) throws {
    try body()  // warm-up (the first run allocates)
    var wall: [Double] = [], cpu: [Double] = []
    for _ in 0..<runs {
        let w0 = nanoseconds(CLOCK_MONOTONIC), c0 = nanoseconds(CLOCK_PROCESS_CPUTIME_ID)
        try body()
        wall.append(Double(nanoseconds(CLOCK_MONOTONIC) - w0) / 1e6)
        cpu.append(Double(nanoseconds(CLOCK_PROCESS_CPUTIME_ID) - c0) / 1e6)
    }
    wall.sort()
    cpu.sort()
    print(row(name, [percentile(wall, 0.5), percentile(wall, 0.95), percentile(cpu, 0.5), percentile(cpu, 0.95)].map { String(format: "%.1f", $0) }, nameWidth: 34))
}

do {
    let options = try Options(Array(CommandLine.arguments.dropFirst()))
    var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: options.frame)))
    let w = options.width, h = options.height, cw = (w + 1) / 2, ch = (h + 1) / 2
    guard bytes.count == w * h + 2 * cw * ch else {
        throw BenchError("\(options.frame) has \(bytes.count) bytes; a \(w)x\(h) yuv420p frame has \(w * h + 2 * cw * ch)")
    }
    let threads = ProcessInfo.processInfo.environment["OPENCV_THREADS"] ?? "default"
    if let count = Int(threads) { VisionThreads.limit(count) }
    let models = VisionModels.current()
    let cells = LayerMap.size(forWidth: w, height: h)
    print("Cinematic cost per picture, \(w)x\(h) yuv420p, layer map \(cells.width)x\(cells.height), \(options.runs) runs, "
          + "\(ProcessInfo.processInfo.activeProcessorCount) CPUs, OpenCV threads: \(threads)")
    print(row("stage (ms per picture)", ["wall p50", "wall p95", "CPU p50", "CPU p95"], nameWidth: 34))
    // Where the photo's face is (bench/cinematic.sh: the astronaut 720 px high at x = 280).
    let face = CinematicSubject(id: 1, kind: .face, bounds: NormalizedRect(x: 0.414, y: 0.152, width: 0.103, height: 0.195), prominence: 0.02)
    let aperture = try Aperture(fNumber: 2)
    let renderer = try BokehRenderer()
    var output = bytes
    try bytes.withUnsafeMutableBytes { raw in
        let base = UnsafeRawPointer(raw.baseAddress!)
        let picture = DetectorPicture(yuv420p: (.init(base: base, stride: w), .init(base: base + w * h, stride: cw),
                                                .init(base: base + w * h + cw * ch, stride: cw)), width: w, height: h)
        var matte = [UInt8](repeating: 255, count: cells.width * cells.height)
        if FileManager.default.fileExists(atPath: models.segmentationModel) {
            let segmenter = try PersonSegmenter(modelPath: models.segmentationModel)
            try measure("person matte (network + filter)", runs: options.runs) {
                matte = try segmenter.matte(picture, width: cells.width, height: cells.height)
            }
        } else {
            print("person matte: model missing at \(models.segmentationModel) (run scripts/fetch-segmentation-model.sh); a full matte stands in")
        }
        // The detectors of one detection round (every 0.2 s), as the cinematic vision runs them.
        let bodies = try UpperBodyDetector(cascadePath: models.upperBodyCascade, inputWidth: 320, methods: .cascade)
        try measure("upper bodies (cascade at 320)", runs: options.runs) { _ = try bodies.detect(picture) }
        let cats = try HaarFaceDetector(cascadePath: models.catFaceCascade, settings: .init(inputWidth: 320, minNeighbors: 4, minSizeFraction: 0.1))
        try measure("cat faces (cascade at 320)", runs: options.runs) { _ = try cats.detect(picture) }
        var map = LayerMap.empty(width: cells.width, height: cells.height)
        try measure("layer map (one face)", runs: options.runs) {
            map = LayerZones.map(subjects: [face], personMatte: matte, width: cells.width, height: cells.height)
        }
        let focus = LayeredDepth.dioptres(of: .face, bounds: face.bounds)
        try output.withUnsafeMutableBytes { out in
            let o = out.baseAddress!
            let planes: [BokehRenderer.OutputPlane] = [.init(base: o, stride: w), .init(base: o + w * h, stride: cw),
                                                       .init(base: o + w * h + cw * ch, stride: cw)]
            try measure("render f/2, focus on the face", runs: options.runs) {
                try renderer.render(picture, layers: map, focus: focus, aperture: aperture, into: planes)
            }
            try measure("render f/2, focus on the background", runs: options.runs) {
                try renderer.render(picture, layers: map, focus: LayeredDepth.backgroundDioptres, aperture: aperture, into: planes)
            }
        }
    }
} catch {
    FileHandle.standardError.write(Data("reel-bench-cinematic: \(error)\n".utf8))
    exit(1)
}
