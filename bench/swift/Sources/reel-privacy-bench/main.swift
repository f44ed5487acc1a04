import Foundation
import ReelPrivacyBench

// reel-privacy-bench: privacy test clips and the leak meter for bench scripts.
let usage = """
usage: reel-privacy-bench make-clips DIR [--photo PNG] [--only SCENARIO-WxH]
       reel-privacy-bench measure --clip C.mp4 --truth T.json --export E.mp4 [--by-time] [--json] [--threshold X]
       reel-privacy-bench reference (reencode|mosaic|full-mosaic) --clip C.mp4 --truth T.json -o OUT.mp4 [--block N]
       reel-privacy-bench calibrate --clip C.mp4 --truth T.json --work DIR

make-clips  writes every clip (.mp4 + .truth.json): single-1280x720, single-1920x1080, and at
            1280x720 twoFaces, edges, roll, profile, small, fast, dim, crossing, and the
            overlapping faces passing, passingTilted, merging, hidden, smallCrossing; --only makes
            one clip, any scenario at any even size (e.g. crossing-1920x1080);
            the photo defaults to $REEL_TEST_PHOTO, else Tests/Fixtures/astronaut.png.
measure     leaks and coverage of an export; exit 0 (the figures decide, not the exit code).
            --by-time pairs frames by their times (a live stream that left frames out).
reference   exports made with ffmpeg: untouched re-encode, box mosaic over the known faces
            (block: 3 % of the long side), whole-frame mosaic.
calibrate   measures the re-encode and the mosaics and prints the correlation ranges.
"""

struct UsageError: Error, CustomStringConvertible { var description: String }

func value(_ name: String, in arguments: [String]) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
func required(_ name: String, in arguments: [String]) throws -> String {
    guard let v = value(name, in: arguments) else { throw UsageError(description: "missing \(name)\n\(usage)") }
    return v
}
func scenario(of truth: ClipTruth) -> PrivacyClips.Scenario {
    PrivacyClips.Scenario.allCases.first { truth.name.hasPrefix($0.rawValue + "-") } ?? .single
}
/// `--only`'s NAME, `SCENARIO-WxH`: any scenario at any even size (`crossing-1920x1080`).
func clipSpec(_ name: String) throws -> (scenario: PrivacyClips.Scenario, width: Int, height: Int) {
    let dash = name.lastIndex(of: "-") ?? name.endIndex
    let size = name[dash...].dropFirst().split(separator: "x").compactMap { Int($0) }
    guard let scenario = PrivacyClips.Scenario(rawValue: String(name[..<dash])), size.count == 2,
          size.allSatisfy({ $0 > 0 && $0 % 2 == 0 }) else {
        throw UsageError(description: "no clip \(name): SCENARIO-WxH, the size even, the scenario one of "
            + PrivacyClips.Scenario.allCases.map(\.rawValue).joined(separator: ", "))
    }
    return (scenario, size[0], size[1])
}
func percentile(_ values: [Double], _ p: Double) -> Double {
    guard !values.isEmpty else { return .nan }
    let sorted = values.sorted()
    return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * p))]
}

func run(_ arguments: [String]) throws {
    guard let command = arguments.first else { throw UsageError(description: usage) }
    let rest = Array(arguments.dropFirst())
    switch command {
    case "make-clips":
        guard let directory = rest.first, !directory.hasPrefix("-") else { throw UsageError(description: usage) }
        let photo = value("--photo", in: rest) ?? ProcessInfo.processInfo.environment["REEL_TEST_PHOTO"]
            ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../../Tests/Fixtures/astronaut.png").standardized.path
        let clips = try value("--only", in: rest).map { [try clipSpec($0)] } ?? PrivacyClips.catalog
        for (s, w, h) in clips {
            let clip = try PrivacyClips.make(s, width: w, height: h, in: directory, photo: photo)
            print("\(clip.video) \(clip.truthPath)")
        }
    case "measure":
        let truth = try ClipTruth.read(from: try required("--truth", in: rest))
        var settings = FrameMeasure.Settings()
        if let t = value("--threshold", in: rest).flatMap(Double.init) { settings.leakThreshold = t }
        let report = try LeakMeter(settings: settings).measure(clip: try required("--clip", in: rest), truth: truth,
                                                                export: try required("--export", in: rest),
                                                                pairing: rest.contains("--by-time") ? .byTime : .byIndex)
        if rest.contains("--json") {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(report.summary)
        }
    case "reference":
        guard let kind = rest.first else { throw UsageError(description: usage) }
        let clip = try required("--clip", in: rest), output = try required("-o", in: rest)
        let truth = try ClipTruth.read(from: try required("--truth", in: rest))
        let block = value("--block", in: rest).flatMap(Int.init) ?? Int((0.03 * Double(max(truth.width, truth.height))).rounded())
        switch kind {
        case "reencode": try ReferenceExports.reencode(clip, to: output)
        case "mosaic":
            try ReferenceExports.trackedMosaic(clip, scenario: scenario(of: truth), width: truth.width, height: truth.height,
                                               block: block, to: output)
        case "full-mosaic": try ReferenceExports.fullMosaic(clip, width: truth.width, height: truth.height, block: block, to: output)
        default: throw UsageError(description: usage)
        }
    case "calibrate":
        let clip = try required("--clip", in: rest), work = try required("--work", in: rest)
        let truth = try ClipTruth.read(from: try required("--truth", in: rest))
        try FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: true)
        let long = max(truth.width, truth.height)
        let block = Int((0.03 * Double(long)).rounded())
        var cases: [(String, String)] = []
        for crf in [18, 23, 28] {
            let out = "\(work)/reencode-crf\(crf).mp4"
            try ReferenceExports.reencode(clip, to: out, crf: crf)
            cases.append(("re-encode CRF \(crf)", out))
        }
        for b in [block, max(2, block / 2), max(2, block / 4)] {
            let out = "\(work)/mosaic-\(b).mp4"
            try ReferenceExports.trackedMosaic(clip, scenario: scenario(of: truth), width: truth.width, height: truth.height, block: b, to: out)
            cases.append(("box mosaic \(b) px", out))
        }
        for (label, out) in cases {
            let report = try LeakMeter().measure(clip: clip, truth: truth, export: out)
            let c = report.frames.flatMap { $0.result.faces.map(\.correlation) }
            print(String(format: "%@: correlation min %.3f p5 %.3f median %.3f p95 %.3f max %.3f; leaks %d/%d; coverage mean %.2f×",
                         label, c.min() ?? .nan, percentile(c, 0.05), percentile(c, 0.5), percentile(c, 0.95), c.max() ?? .nan,
                         report.leakedFrames.count, report.framesWithFace, report.meanCoverage))
        }
    default:
        throw UsageError(description: usage)
    }
}

do {
    try run(Array(CommandLine.arguments.dropFirst()))
} catch {
    FileHandle.standardError.write("reel-privacy-bench: \(error)\n".data(using: .utf8)!)
    exit(1)
}
