import CFFmpeg
import ReelCore
import Synchronization

/// A media file (anything FFmpeg reads) delivered as a camera would deliver it: paced in
/// real time on the monotonic clock, or as fast as the consumers take it.
///
/// Capture times are the file's own timestamps moved onto the monotonic clock at the start,
/// so A/V offsets in the file are kept exactly. Samples leave in capture order across the
/// streams: a decoder with reordering delay (B-frames) hands out a picture a few packets
/// after the audio stored beside it, so decoded samples wait in a small buffer until one of
/// each kind is at hand, and the earliest goes first, when its time comes — never an audio
/// block early and the picture before it late.
public final class FileSource: CaptureSource {
    public let format: CaptureFormat
    public let name: String
    private let reader: MediaReader
    private let realTime: Bool

    /// Opens `path`; throws ``CaptureError`` if it is missing, unreadable or has no video.
    public init(path: String, realTime: Bool) throws {
        reader = try MediaReader(url: path)
        guard let video = reader.videoFormat else { throw CaptureError(source: path, reason: "there is no video stream in it") }
        format = CaptureFormat(width: video.width, height: video.height, framesPerSecond: video.framesPerSecond,
                               audio: reader.audioFormat)
        name = "file \(path)"
        self.realTime = realTime
    }

    public func stop() { reader.interrupt.stopped.store(true, ordering: .relaxed) }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        let base = MonotonicClock.now().nanoseconds
        var origin = reader.startTime
        var nextVideo: Int64 = 0, nextAudio: Int64 = 0
        let frameNs = Int64(1e9 / max(format.framesPerSecond, 1))
        let hasAudio = format.audio != nil
        var pending: [CaptureSample] = []  // sorted by capture time
        var ended = false

        func insert(_ sample: CaptureSample) {
            let index = pending.lastIndex { $0.captureTime <= sample.captureTime }.map { $0 + 1 } ?? 0
            pending.insert(sample, at: index)
        }
        var ready: Bool {
            ended || (pending.contains { $0.isVideo } && (!hasAudio || pending.contains { !$0.isVideo }))
        }

        while !reader.interrupt.stopped.load(ordering: .relaxed) {
            if !ready {
                let more = try reader.readFrames { decoded in
                    switch decoded {
                    case let .video(frame, ns):
                        let t = ns == Int64.min ? nextVideo : ns
                        if origin == nil { origin = t }
                        nextVideo = t + frameNs
                        insert(.video(VideoFrame(taking: frame, captureTime: .nanoseconds(base + (t - origin!)))))
                    case let .audio(frame, ns):
                        let t = ns == Int64.min ? nextAudio : ns
                        if origin == nil { origin = t }
                        let rate = max(Int64(frame.pointee.sample_rate), 1)
                        nextAudio = t + Int64(frame.pointee.nb_samples) * 1_000_000_000 / rate
                        insert(.audio(AudioBlock(taking: frame, captureTime: .nanoseconds(base + (t - origin!)))))
                    }
                }
                if !more { ended = true }
                continue
            }
            guard !pending.isEmpty else { break }
            let sample = pending.removeFirst()
            if realTime { MonotonicClock.sleep(until: sample.captureTime) }
            try deliver(sample)
        }
    }
}

extension CaptureSample {
    /// Whether this is a picture.
    var isVideo: Bool {
        if case .video = self { return true }
        return false
    }
}
