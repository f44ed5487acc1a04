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

/// The live HLS consumer of the capture fan-out: applies the spec's timing (the stream
/// starts at 10 s on the first video sample, one delta for all samples, audio before it
/// dropped), places a key frame at every segment boundary (``SegmentCutPolicy``), encodes
/// H.264 + AAC and cuts fMP4 segments, which it hands to its sink. With a part interval
/// (LL-HLS) a ``PartCutPolicy`` marks the parts inside each segment, and each part goes to
/// the sink as soon as the segmenter cuts it, before its segment.
///
/// Runs on the fan-out's consumer thread only; nothing here is shared.
/// `@unchecked Sendable`: its state is used only by the live branch's thread; the owner reads the counters after that thread ended.
final class HLSBranch: @unchecked Sendable {
    private var timeline = SampleTimeline()
    private var policy: SegmentCutPolicy
    private var partPolicy: PartCutPolicy?
    /// Segments (by index) that follow a discontinuity.
    private var segmentsAfterGaps: Set<Int> = []
    private let segmenter: FMP4Segmenter
    private let sink: HLSSegmentSink
    private let clock: CaptureClockMap
    private var published = 0
    private var initSent = false
    private(set) var framesEncoded = 0
    private(set) var framesRepeated = 0
    private(set) var framesRejected = 0

    init(video: VideoEncoderSettings, audio: AudioEncoderSettings?, segmentInterval: MediaTime,
         frameDuration: MediaTime, partInterval: MediaTime? = nil, sink: HLSSegmentSink, clock: CaptureClockMap) throws {
        policy = try SegmentCutPolicy(interval: segmentInterval, frameDuration: frameDuration)
        partPolicy = try partInterval.map { interval throws(PartCutPolicy.Error) in
            try PartCutPolicy(requestedInterval: interval, frameDuration: frameDuration)
        }
        segmenter = try FMP4Segmenter(video: video, audio: audio, cutsParts: partInterval != nil)
        self.sink = sink
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
            for action in policy.frame(pts: pts) {
                switch action {
                case let .encode(pts, keyFrame, _):
                    try place(frame, pts: pts, keyFrame: keyFrame)
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
                try segmenter.appendAudio(block, pts: pts)
            }
        }
        deliver()
    }

    /// Encodes `frame` (nil: the previous picture again) at `pts`, with the parts' fill and marks.
    private func place(_ frame: VideoFrame?, pts: MediaTime, keyFrame: Bool) throws {
        guard partPolicy != nil else {
            if let frame { try segmenter.appendVideo(frame, pts: pts, keyFrame: keyFrame) } else {
                try segmenter.repeatLastVideo(pts: pts, keyFrame: keyFrame)
            }
            return
        }
        for action in partPolicy!.frame(pts: pts, keyFrame: keyFrame) {
            switch action {
            case .repeatPrevious(let fill):
                try segmenter.repeatLastVideo(pts: fill, keyFrame: false, startsPart: true)
                framesRepeated += 1
            case let .place(pts, keyFrame, startsPart):
                if let frame { try segmenter.appendVideo(frame, pts: pts, keyFrame: keyFrame, startsPart: startsPart) } else {
                    try segmenter.repeatLastVideo(pts: pts, keyFrame: keyFrame, startsPart: startsPart)
                }
            }
        }
    }

    /// Flushes the encoders and publishes the last (short) segment.
    func finish() throws {
        try segmenter.finish()
        deliver(final: policy.finish())
    }

    private func deliver(final: SegmentCutPolicy.Segment? = nil) {
        if !initSent, let bytes = segmenter.takeInitSegment() {
            sink.publishInit(bytes)
            initSent = true
        }
        var parts = segmenter.takeParts()[...]
        for segment in segmenter.takeSegments() {
            // The policy closed segment k when it asked for the key frame of k + 1, before the
            // segmenter saw that key frame; the last one comes from `finish()`.
            let index = published
            let cut = index < policy.completedSegments.count ? policy.completedSegments[index] : final
            while let part = parts.first, part.segment <= index + 1 {
                deliver(part, segmentEnd: cut?.end)
                parts = parts.dropFirst()
            }
            published += 1
            // The policy's cut is the truth for EXTINF; the segmenter's own times agree
            // except around a discontinuity, where the policy leaves the gap out.
            let duration = cut?.duration ?? segment.duration
            let start = cut?.start ?? segment.start
            let capture = start - (timeline.delta ?? .zero)
            sink.publishSegment(sequence: published, duration: duration, date: clock.date(of: capture),
                                followsDiscontinuity: cut?.followsDiscontinuity ?? false, bytes: segment.bytes)
        }
        for part in parts { deliver(part, segmentEnd: nil) }
    }

    /// Hands a part to the sink. A segment's last part ends where the policy ended the segment
    /// (before a discontinuity the segmenter would count the gap in).
    private func deliver(_ part: FMP4Segmenter.Part, segmentEnd: MediaTime?) {
        let end = part.endsSegment ? (segmentEnd ?? part.end) : part.end
        let capture = part.segmentStart - (timeline.delta ?? .zero)
        let listing = HLSPlaylist.Part(address: .init(sequence: part.segment, index: part.index), duration: end - part.start,
                                       isIndependent: part.isIndependent)
        sink.publishPart(PublishQueue.PartInfo(part: listing, segmentDate: clock.date(of: capture),
                                               segmentFollowsDiscontinuity: segmentsAfterGaps.contains(part.segment)),
                         bytes: part.bytes)
    }
}
