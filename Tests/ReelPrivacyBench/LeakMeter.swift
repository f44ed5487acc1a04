import Foundation

/// Measures whether an export still shows the faces of a `PrivacyClips` clip, and how much
/// of the picture around them it changed.
///
/// Source and export are decoded to gray. Frames are paired by index (`Pairing.byIndex`: an
/// export keeps every frame, so the counts must match) or by time (`Pairing.byTime`: a live
/// stream may leave frames out under load; each of its frames is paired with the clip's frame
/// at the same time since the first, and the frames left out are counted, not measured).
/// In each frame with a known face: the Pearson correlation of fine detail (pixel minus its
/// 5 × 5 box mean) between source and export inside the ellipse inscribed in the rotated face
/// rectangle, where it can be seen (not behind a head drawn in front of it,
/// `TruthFace.hiddenBy`; a face less than `Settings.minimumVisibleShare` visible is not
/// measured). A frame *leaks* when a face's correlation exceeds `Settings.leakThreshold`.
/// Coverage: pixels in a window around the heads (3× the head box per side) where the
/// export changed the picture (7 × 7 mean |difference| above 12 levels, or fine-detail
/// energy below 20 % of the source's where it had some), divided by the area of the head
/// boxes (`TruthFace.head`, rolled with the face and whole when it turns). The older measure,
/// over a window of 4× the face box per side divided by the known face area (for tilted
/// faces the bounding box of the rotated rectangle, clipped to the frame), is reported beside
/// it. Pixels the mosaic covers but cannot change (flat areas) are not seen.
///
/// Calibration (`reel-privacy-bench calibrate`, the 720p `.single` clip, 360 face frames):
/// the source re-encoded by x264 veryfast correlates min 0.930 at CRF 18, 0.882 at CRF 23 and
/// 0.584 at CRF 28 (5th percentile 0.80); a box mosaic over the known face made by ffmpeg
/// correlates at most 0.034 with 38 px blocks (3 %), 0.030 with 19 px and 0.074 with 9 px; a
/// whole-frame mosaic at 360p at most 0.105. At 1080p: re-encodes min 0.902 / 0.820 / 0.708
/// (CRF 18 / 23 / 28), box mosaics at most 0.017 / 0.018 / 0.038 (58 / 29 / 14 px). The threshold 0.35 sits between, with a margin of
/// about 0.25 on both sides. It sees fine detail only: a blur that kept a face's coarse
/// shapes would pass it too (the mosaic's 3 % blocks keep none of either).
public struct LeakMeter: Sendable {
    /// The per-frame measure.
    public var measure: FrameMeasure

    /// A meter with `settings`.
    public init(settings: FrameMeasure.Settings = FrameMeasure.Settings()) { measure = FrameMeasure(settings: settings) }

    /// How the export's frames are paired with the clip's.
    public enum Pairing: Sendable {
        /// Frame k with frame k: an export keeps every frame.
        case byIndex
        /// Each export frame with the clip's frame at the same time since the first frame (the
        /// export's timestamps, read with ffprobe): a live stream starts on the clip's first
        /// frame and may leave frames out, never adds or reorders them.
        case byTime
    }

    /// Measures `export` against `clip` and its `truth`. The export is scaled to the clip's
    /// size when it differs. Throws when the frames cannot be paired or a decode fails.
    public func measure(clip: String, truth: ClipTruth, export: String, pairing: Pairing = .byIndex) throws -> LeakReport {
        let source = try GrayVideoReader(path: clip, width: truth.width, height: truth.height)
        let output = try GrayVideoReader(path: export, width: truth.width, height: truth.height)
        switch pairing {
        case .byIndex: return try byIndex(clip: clip, truth: truth, export: export, source: source, output: output)
        case .byTime: return try byTime(clip: clip, truth: truth, export: export, source: source, output: output)
        }
    }

    private func byIndex(clip: String, truth: ClipTruth, export: String, source: GrayVideoReader,
                         output: GrayVideoReader) throws -> LeakReport {
        var frames: [LeakReport.Frame] = []
        var index = 0
        while true {
            let s = try source.next(), e = try output.next()
            guard let s, let e else {
                var sourceCount = index, exportCount = index
                if s != nil { sourceCount += 1; while try source.next() != nil { sourceCount += 1 } }
                if e != nil { exportCount += 1; while try output.next() != nil { exportCount += 1 } }
                guard sourceCount == exportCount else {
                    throw Error.frameCountMismatch(clip: clip, source: sourceCount, export: export, exported: exportCount)
                }
                break
            }
            frames.append(try frame(index, source: s, export: e, truth: truth, clip: clip))
            index += 1
        }
        guard index == truth.frames.count else { throw Error.truthMismatch(clip: clip, frames: index, truthFrames: truth.frames.count) }
        return LeakReport(clip: clip, export: export, settings: measure.settings, frames: frames)
    }

    private func byTime(clip: String, truth: ClipTruth, export: String, source: GrayVideoReader,
                        output: GrayVideoReader) throws -> LeakReport {
        let indices = try Self.clipIndices(of: export, fps: truth.fps)
        var frames: [LeakReport.Frame] = []
        var sourceIndex = 0
        for (k, wanted) in indices.enumerated() {
            guard let e = try output.next() else {
                throw Error.frameCountMismatch(clip: clip, source: truth.frames.count, export: export, exported: k)
            }
            var s: [UInt8]?
            while sourceIndex <= wanted {
                s = try source.next()
                guard s != nil else { throw Error.pastTheClip(clip: clip, frames: sourceIndex, export: export, index: wanted) }
                sourceIndex += 1
            }
            frames.append(try frame(wanted, source: s!, export: e, truth: truth, clip: clip))
        }
        if try output.next() != nil {
            throw Error.frameCountMismatch(clip: clip, source: truth.frames.count, export: export, exported: indices.count + 1)
        }
        while try source.next() != nil { sourceIndex += 1 }
        guard sourceIndex == truth.frames.count else {
            throw Error.truthMismatch(clip: clip, frames: sourceIndex, truthFrames: truth.frames.count)
        }
        return LeakReport(clip: clip, export: export, settings: measure.settings, frames: frames, clipFrames: sourceIndex)
    }

    /// One pair of frames measured against the truth of the clip's frame `index`.
    private func frame(_ index: Int, source: [UInt8], export: [UInt8], truth: ClipTruth, clip: String) throws -> LeakReport.Frame {
        guard index < truth.frames.count else { throw Error.truthTooShort(clip: clip, truthFrames: truth.frames.count) }
        let known = truth.frames[index]
        let result = measure.measure(source: source, export: export, width: truth.width, height: truth.height, faces: known.faces)
        return LeakReport.Frame(index: index, phase: known.phase, result: result)
    }

    /// The clip frame of each of `export`'s frames, in presentation order: its time since the
    /// first frame times `fps`, rounded. Throws when two frames land on one clip frame.
    static func clipIndices(of export: String, fps: Int) throws -> [Int] {
        let data = try FFmpegTool.run("ffprobe", ["-v", "error", "-select_streams", "v:0", "-show_entries",
                                                  "frame=best_effort_timestamp_time", "-of", "csv=p=0", export])
        let times = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline)
            .compactMap { Double($0.split(separator: ",").first ?? "") }
        guard let first = times.first else { throw FFmpegTool.Error.unreadableVideo(file: export) }
        let indices = times.map { Int((($0 - first) * Double(fps)).rounded()) }
        for k in indices.indices.dropFirst() where indices[k] <= indices[k - 1] {
            throw Error.notIncreasing(export: export, frame: k, index: indices[k])
        }
        return indices
    }

    /// A measurement that cannot be made.
    public enum Error: Swift.Error, CustomStringConvertible {
        /// Source and export have different numbers of frames.
        case frameCountMismatch(clip: String, source: Int, export: String, exported: Int)
        /// The truth has fewer frames than the clip.
        case truthTooShort(clip: String, truthFrames: Int)
        /// The clip and its truth differ in length.
        case truthMismatch(clip: String, frames: Int, truthFrames: Int)
        /// Paired by time, an export frame lands after the clip's end.
        case pastTheClip(clip: String, frames: Int, export: String, index: Int)
        /// Paired by time, two export frames land on one clip frame (or go back).
        case notIncreasing(export: String, frame: Int, index: Int)

        /// What went wrong and what to do.
        public var description: String {
            switch self {
            case .frameCountMismatch(let clip, let source, let export, let exported):
                return "\(clip) has \(source) frames but \(export) has \(exported): frames are paired by index, so the export must keep every frame (no drops, no duplicates)"
            case .truthTooShort(let clip, let truthFrames):
                return "\(clip) has more frames than its truth file (\(truthFrames)): remake both with 'reel-privacy-bench make-clips'"
            case .truthMismatch(let clip, let frames, let truthFrames):
                return "\(clip) has \(frames) frames but its truth file \(truthFrames): remake both with 'reel-privacy-bench make-clips'"
            case .pastTheClip(let clip, let frames, let export, let index):
                return "\(export) has a frame at the time of frame \(index), but \(clip) has \(frames): was the stream made from this clip?"
            case .notIncreasing(let export, let frame, let index):
                return "\(export)'s frame \(frame) lands on the clip's frame \(index), as the one before it or earlier: frames paired by time must have rising times one clip frame apart at least"
            }
        }
    }
}
