import Foundation

/// What `LeakMeter` found in one export (JSON: `reel-privacy-bench measure --json`).
public struct LeakReport: Codable, Sendable {
    /// One frame.
    public struct Frame: Codable, Sendable, Equatable {
        /// The clip's frame index (decode order; paired by time, the export's frames may skip some).
        public var index: Int
        /// The scenario's phase.
        public var phase: String
        /// The frame's faces and changed area.
        public var result: FrameMeasure.Result
        /// Whether any face leaked.
        public var leaked: Bool { result.faces.contains { $0.leaked } }
    }

    /// The source clip.
    public var clip: String
    /// The export measured.
    public var export: String
    /// The settings used (threshold included).
    public var settings: FrameMeasure.Settings
    /// Frames measured: the export's (paired by index, the clip has as many).
    public var frameCount: Int
    /// The clip's frames the export left out (paired by time: a live stream's dropped frames;
    /// they show nothing, so they are not measured).
    public var framesLeftOut: Int
    /// Frames in which the truth has at least one face.
    public var framesWithFace: Int
    /// Frames in which at least one face can be seen enough to be measured (the others are
    /// hidden behind a head in front; `FrameMeasure.Settings.minimumVisibleShare`).
    public var framesWithVisibleFace: Int
    /// The indices of frames where a face leaked.
    public var leakedFrames: [Int]
    /// Mean over frames with a face of changed area / face area.
    public var meanCoverage: Double
    /// The largest per-frame coverage.
    public var maxCoverage: Double
    /// Mean over frames with a face of changed area / head area (the union of the head boxes).
    public var meanHeadCoverage: Double
    /// The largest per-frame coverage against the heads.
    public var maxHeadCoverage: Double
    /// Mean correlation over faces measured.
    public var meanCorrelation: Double
    /// The largest correlation of any face.
    public var maxCorrelation: Double
    /// Per-phase: frames with a face, leaks, mean coverage, max correlation.
    public var phases: [Phase]
    /// Every frame.
    public var frames: [Frame]

    /// Figures for one phase of the scenario.
    public struct Phase: Codable, Sendable, Equatable {
        /// The phase's name.
        public var name: String
        /// Frames with a face.
        public var framesWithFace: Int
        /// Frames that leaked.
        public var leaked: Int
        /// Mean coverage over its frames with a face.
        public var meanCoverage: Double
        /// Mean coverage against the heads over its frames with a face.
        public var meanHeadCoverage: Double
        /// The largest correlation in the phase.
        public var maxCorrelation: Double
    }

    /// Builds the totals from the frames.
    /// Builds the totals from the frames; `clipFrames` is the clip's length when the export may
    /// have left frames out.
    public init(clip: String, export: String, settings: FrameMeasure.Settings, frames: [Frame], clipFrames: Int? = nil) {
        self.clip = clip; self.export = export; self.settings = settings; self.frames = frames
        frameCount = frames.count
        framesLeftOut = (clipFrames ?? frames.count) - frames.count
        let withFace = frames.filter { !$0.result.faces.isEmpty }
        framesWithFace = withFace.count
        framesWithVisibleFace = withFace.filter { $0.result.faces.contains(where: \.measured) }.count
        leakedFrames = frames.filter(\.leaked).map(\.index)
        meanCoverage = withFace.isEmpty ? 0 : withFace.reduce(0) { $0 + $1.result.coverage } / Double(withFace.count)
        maxCoverage = withFace.map(\.result.coverage).max() ?? 0
        meanHeadCoverage = withFace.isEmpty ? 0 : withFace.reduce(0) { $0 + $1.result.headCoverage } / Double(withFace.count)
        maxHeadCoverage = withFace.map(\.result.headCoverage).max() ?? 0
        let correlations = withFace.flatMap { $0.result.faces.filter(\.measured).map(\.correlation) }
        meanCorrelation = correlations.isEmpty ? 0 : correlations.reduce(0, +) / Double(correlations.count)
        maxCorrelation = correlations.max() ?? 0
        var names: [String] = []
        for frame in frames where !names.contains(frame.phase) { names.append(frame.phase) }
        phases = names.map { name in
            let mine = withFace.filter { $0.phase == name }
            return Phase(name: name, framesWithFace: mine.count, leaked: mine.filter(\.leaked).count,
                         meanCoverage: mine.isEmpty ? 0 : mine.reduce(0) { $0 + $1.result.coverage } / Double(mine.count),
                         meanHeadCoverage: mine.isEmpty ? 0 : mine.reduce(0) { $0 + $1.result.headCoverage } / Double(mine.count),
                         maxCorrelation: mine.flatMap { $0.result.faces.filter(\.measured).map(\.correlation) }.max() ?? 0)
        }
    }

    /// Leaked frames as ranges ("12-15, 40"), for reports.
    public var leakedRanges: String {
        var parts: [String] = []
        var start: Int?, last = -2
        for index in leakedFrames + [Int.min] {
            if index == last + 1 { last = index; continue }
            if let s = start { parts.append(s == last ? "\(s)" : "\(s)-\(last)") }
            start = index; last = index
        }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }

    /// A few plain lines: totals and one per phase.
    public var summary: String {
        let hidden = framesWithFace - framesWithVisibleFace
        var lines = ["\(export): \(leakedFrames.count) of \(framesWithFace) face frames leak (threshold \(settings.leakThreshold); leaked: \(leakedRanges)"
            + (hidden > 0 ? "; \(hidden) with every face hidden" : "")
            + (framesLeftOut > 0 ? "; \(framesLeftOut) of the clip's frames left out" : "") + "), "
            + "coverage mean \(String(format: "%.2f", meanCoverage))× max \(String(format: "%.2f", maxCoverage))× the face area, "
            + "\(String(format: "%.2f", meanHeadCoverage))× max \(String(format: "%.2f", maxHeadCoverage))× the head, "
            + "correlation mean \(String(format: "%.3f", meanCorrelation)) max \(String(format: "%.3f", maxCorrelation))"]
        for phase in phases {
            lines.append("  \(phase.name): \(phase.leaked)/\(phase.framesWithFace) leak, coverage \(String(format: "%.2f", phase.meanCoverage))× (head \(String(format: "%.2f", phase.meanHeadCoverage))×), max correlation \(String(format: "%.3f", phase.maxCorrelation))")
        }
        return lines.joined(separator: "\n")
    }
}
