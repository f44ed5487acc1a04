import Foundation
import ReelCore
import ReelMedia

/// Where the HLS branch hands its output: the init segment once, then media segments.
public protocol HLSSegmentSink: Sendable {
    /// The init segment (ftyp + moov), before any media segment.
    func publishInit(_ bytes: Data)
    /// Media segment `sequence` (1, 2, …) with its real duration, the wall-clock date of its
    /// first frame, and whether a gap in the media precedes it.
    func publishSegment(sequence: Int, duration: MediaTime, date: Date, followsDiscontinuity: Bool, bytes: Data)
    /// LL-HLS: the next part of the segment in progress, before that segment is published.
    func publishPart(_ info: PublishQueue.PartInfo, bytes: Data)
}

extension HLSSegmentSink {
    /// A sink that publishes no parts ignores them.
    func publishPart(_ info: PublishQueue.PartInfo, bytes: Data) {}
}

/// The live HLS consumer of the capture fan-out: applies the timing of docs/behaviour.md §2,
/// HLS writer (the stream starts at 10 s on the first video sample, one delta for all samples,
/// audio before it dropped), places a key frame at every segment boundary
/// (``SegmentCutPolicy``), encodes H.264 + AAC and cuts fMP4 segments, which it hands to its
/// sink. With a part interval (LL-HLS) a ``PartCutPolicy`` marks the parts inside each segment,
/// and each part goes to the sink as soon as the segmenter cuts it, before its segment.
///
/// An ABR ladder is several renditions of the one capture: one timeline and one pair of cut
/// policies decide every key frame and part start once, and each rendition's segmenter (its
/// own scaler and encoders) gets the same pictures at the same times with the same marks, so
/// segment and part boundaries are identical across the rungs, as players switching rungs need.
///
/// Runs on the fan-out's consumer thread only; nothing here is shared.
/// `@unchecked Sendable`: its state is used only by the live branch's thread; the owner reads the counters after that thread ended.
final class HLSBranch: @unchecked Sendable {
    /// One output of the branch: what to encode and where its files go.
    struct Rendition {
        var video: VideoEncoderSettings
        var audio: AudioEncoderSettings?
        var sink: HLSSegmentSink
    }

    /// A rendition's segmenter and what it has handed over so far.
    private final class Output {
        let segmenter: FMP4Segmenter
        let sink: HLSSegmentSink
        var published = 0
        var initSent = false

        init(segmenter: FMP4Segmenter, sink: HLSSegmentSink) {
            self.segmenter = segmenter
            self.sink = sink
        }
    }

    private var timeline = SampleTimeline()
    private var policy: SegmentCutPolicy
    private var partPolicy: PartCutPolicy?
    /// Segments (by index) that follow a discontinuity.
    private var segmentsAfterGaps: Set<Int> = []
    private let outputs: [Output]
    private let clock: CaptureClockMap
    /// A ladder's rungs thinned from the top when the live queue fills (nil for one rendition).
    private(set) var load: LadderLoadPolicy?
    /// The live queue's fill, which ``load`` reads for every captured frame; nil (with
    /// `--fast`, where the queue never drops) leaves every rung at every picture.
    var queueLoad: (@Sendable () -> (depth: Int, capacity: Int))?
    /// Stream time of the first video frame, for the report's times.
    private(set) var startPTS: MediaTime?
    private(set) var framesEncoded = 0
    private(set) var framesRepeated = 0
    private(set) var framesRejected = 0

    /// A branch encoding one rendition.
    convenience init(video: VideoEncoderSettings, audio: AudioEncoderSettings?, segmentInterval: MediaTime,
                     frameDuration: MediaTime, partInterval: MediaTime? = nil, sink: HLSSegmentSink, clock: CaptureClockMap) throws {
        try self.init(renditions: [Rendition(video: video, audio: audio, sink: sink)], segmentInterval: segmentInterval,
                      frameDuration: frameDuration, partInterval: partInterval, clock: clock)
    }

    /// A branch encoding every rendition (at least one) from the same cuts.
    init(renditions: [Rendition], segmentInterval: MediaTime, frameDuration: MediaTime, partInterval: MediaTime? = nil,
         clock: CaptureClockMap) throws {
        precondition(!renditions.isEmpty, "an HLS branch encodes at least one rendition")
        policy = try SegmentCutPolicy(interval: segmentInterval, frameDuration: frameDuration)
        partPolicy = try partInterval.map { interval throws(PartCutPolicy.Error) in
            try PartCutPolicy(requestedInterval: interval, frameDuration: frameDuration)
        }
        outputs = try renditions.map { rendition in
            Output(segmenter: try FMP4Segmenter(video: rendition.video, audio: rendition.audio, cutsParts: partInterval != nil),
                   sink: rendition.sink)
        }
        load = renditions.count > 1 ? LadderLoadPolicy(rungCount: renditions.count) : nil
        self.clock = clock
    }

    /// The EXT-X-TARGETDURATION this stream keeps.
    var targetDuration: Int { policy.targetDuration }

    /// The longest part (`EXT-X-PART-INF:PART-TARGET`); nil without parts.
    var partTarget: MediaTime? { partPolicy?.partTarget }

    func handle(_ sample: CaptureSample) throws {
        switch sample {
        case .video(let frame):
            let pts = timeline.video(frame.captureTime)
            if startPTS == nil { startPTS = pts }
            var fresh: [Bool]?
            if let queueLoad, load != nil {
                let now = queueLoad()
                fresh = load!.frame(at: pts, depth: now.depth, capacity: now.capacity)
            }
            for action in policy.frame(pts: pts) {
                switch action {
                case let .encode(pts, keyFrame, _):
                    try place(frame, pts: pts, keyFrame: keyFrame, fresh: fresh)
                    framesEncoded += 1
                case let .repeatPrevious(pts, _):
                    try place(nil, pts: pts, keyFrame: true)
                    framesRepeated += 1
                case let .discontinuity(_, segmentIndex):
                    // The next action's key frame starts the new segment.
                    segmentsAfterGaps.insert(segmentIndex)
                    partPolicy?.discontinuity()
                case .drop:
                    framesRejected += 1
                }
            }
        case .audio(let block):
            if let pts = timeline.audio(block.captureTime) {
                for output in outputs { try output.segmenter.appendAudio(block, pts: pts) }
            }
        }
        for output in outputs { deliver(output) }
    }

    /// Encodes `frame` (nil: the previous picture again) at `pts` in every rendition, with the
    /// parts' fill and marks; a rendition whose `fresh` entry is false repeats its previous
    /// picture instead (``LadderLoadPolicy``).
    private func place(_ frame: VideoFrame?, pts: MediaTime, keyFrame: Bool, fresh: [Bool]? = nil) throws {
        guard partPolicy != nil else {
            try encode(frame, pts: pts, keyFrame: keyFrame, startsPart: false, fresh: fresh)
            return
        }
        for action in partPolicy!.frame(pts: pts, keyFrame: keyFrame) {
            switch action {
            case .repeatPrevious(let fill):
                try encode(nil, pts: fill, keyFrame: false, startsPart: true)
                framesRepeated += 1
            case let .place(pts, keyFrame, startsPart):
                try encode(frame, pts: pts, keyFrame: keyFrame, startsPart: startsPart, fresh: fresh)
            }
        }
    }

    private func encode(_ frame: VideoFrame?, pts: MediaTime, keyFrame: Bool, startsPart: Bool, fresh: [Bool]? = nil) throws {
        for (index, output) in outputs.enumerated() {
            if let frame, fresh?[index] ?? true {
                try output.segmenter.appendVideo(frame, pts: pts, keyFrame: keyFrame, startsPart: startsPart)
            } else {
                try output.segmenter.repeatLastVideo(pts: pts, keyFrame: keyFrame, startsPart: startsPart)
            }
        }
    }

    /// Flushes the encoders and publishes the last (short) segment of every rendition.
    func finish() throws {
        for output in outputs { try output.segmenter.finish() }
        let final = policy.finish()
        for output in outputs { deliver(output, final: final) }
    }

    private func deliver(_ output: Output, final: SegmentCutPolicy.Segment? = nil) {
        if !output.initSent, let bytes = output.segmenter.takeInitSegment() {
            output.sink.publishInit(bytes)
            output.initSent = true
        }
        var parts = output.segmenter.takeParts()[...]
        for segment in output.segmenter.takeSegments() {
            // The policy closed segment k when it asked for the key frame of k + 1, before the
            // segmenter saw that key frame; the last one comes from `finish()`.
            let index = output.published
            let cut = index < policy.completedSegments.count ? policy.completedSegments[index] : final
            while let part = parts.first, part.segment <= index + 1 {
                deliver(part, segmentEnd: cut?.end, to: output.sink)
                parts = parts.dropFirst()
            }
            output.published += 1
            // The policy's cut is the truth for EXTINF; the segmenter's own times agree
            // except around a discontinuity, where the policy leaves the gap out.
            let duration = cut?.duration ?? segment.duration
            let start = cut?.start ?? segment.start
            let capture = start - (timeline.delta ?? .zero)
            output.sink.publishSegment(sequence: output.published, duration: duration, date: clock.date(of: capture),
                                       followsDiscontinuity: cut?.followsDiscontinuity ?? false, bytes: segment.bytes)
        }
        for part in parts { deliver(part, segmentEnd: nil, to: output.sink) }
    }

    /// Hands a part to the sink. A segment's last part ends where the policy ended the segment
    /// (before a discontinuity the segmenter would count the gap in).
    private func deliver(_ part: FMP4Segmenter.Part, segmentEnd: MediaTime?, to sink: HLSSegmentSink) {
        let end = part.endsSegment ? (segmentEnd ?? part.end) : part.end
        let capture = part.segmentStart - (timeline.delta ?? .zero)
        let listing = HLSPlaylist.Part(address: .init(sequence: part.segment, index: part.index), duration: end - part.start,
                                       isIndependent: part.isIndependent)
        sink.publishPart(PublishQueue.PartInfo(part: listing, segmentDate: clock.date(of: capture),
                                               segmentFollowsDiscontinuity: segmentsAfterGaps.contains(part.segment)),
                         bytes: part.bytes)
    }
}
