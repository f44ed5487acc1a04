import CFFmpeg
import ReelCore

/// A captured `AVFrame` with its capture timestamp: the shared base of ``VideoFrame`` and
/// ``AudioBlock``.
///
/// Owns a reference-counted `AVFrame`. A sample is immutable once a source has handed it
/// out, which is what makes sharing it between the fan-out's consumer threads safe: every
/// consumer only reads it, and the buffers are freed when the last consumer lets go.
public class CapturedFrame: @unchecked Sendable {
    /// The frame; read-only after publication. Consumers that need changes make a copy.
    let avFrame: UnsafeMutablePointer<AVFrame>
    /// When it was captured (monotonic clock, nanoseconds for live sources); for audio, the
    /// capture time of the first sample.
    public let captureTime: MediaTime

    /// Takes ownership of `frame` (freed on deinit).
    init(taking frame: UnsafeMutablePointer<AVFrame>, captureTime: MediaTime) {
        self.avFrame = frame
        self.captureTime = captureTime
    }

    deinit {
        var frame: UnsafeMutablePointer<AVFrame>? = avFrame
        av_frame_free(&frame)
    }

    /// The bytes of the buffers this frame keeps alive (each plane's buffer counted once):
    /// what a byte-bounded queue counts while the frame waits in it.
    public var byteCost: Int {
        var seen: [UnsafeMutablePointer<AVBufferRef>] = []
        var total = 0
        for plane in 0..<8 {
            guard let buffer = av_frame_get_plane_buffer(avFrame, Int32(plane)), !seen.contains(buffer) else { continue }
            seen.append(buffer)
            total += Int(buffer.pointee.size)
        }
        return total
    }
}

/// One captured picture and its capture timestamp.
/// `@unchecked Sendable`: as ``CapturedFrame``, read-only once a source has handed it out.
public final class VideoFrame: CapturedFrame, @unchecked Sendable {

    /// Width in pixels.
    public var width: Int { Int(avFrame.pointee.width) }
    /// Height in pixels.
    public var height: Int { Int(avFrame.pointee.height) }
    /// FFmpeg's pixel format number (`AVPixelFormat`).
    public var pixelFormat: Int32 { avFrame.pointee.format }
    /// The pixel format's name, e.g. "yuv420p".
    public var pixelFormatName: String {
        av_get_pix_fmt_name(AVPixelFormat(rawValue: avFrame.pointee.format)).map { String(cString: $0) } ?? "unknown"
    }

    /// Allocates a writable frame with its own buffers (32-byte aligned lines).
    static func allocate(width: Int, height: Int, format: AVPixelFormat) throws -> UnsafeMutablePointer<AVFrame> {
        guard let frame = av_frame_alloc() else { throw FFmpegError("allocating a video frame", code: AV.error(ENOMEM)) }
        frame.pointee.width = Int32(width)
        frame.pointee.height = Int32(height)
        frame.pointee.format = format.rawValue
        let status = av_frame_get_buffer(frame, 32)
        if status < 0 {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError("allocating \(width)x\(height) picture buffers", code: status)
        }
        return frame
    }
}

/// A block of captured audio samples and the capture timestamp of its first sample.
/// `@unchecked Sendable`: as ``CapturedFrame``, read-only once a source has handed it out.
public final class AudioBlock: CapturedFrame, @unchecked Sendable {

    /// Samples per channel in this block.
    public var sampleCount: Int { Int(avFrame.pointee.nb_samples) }
    /// Samples per second.
    public var sampleRate: Int { Int(avFrame.pointee.sample_rate) }
    /// Number of channels.
    public var channelCount: Int { Int(avFrame.pointee.ch_layout.nb_channels) }
    /// How long the block lasts.
    public var duration: MediaTime { MediaTime(value: Int64(sampleCount), timescale: Int32(sampleRate)) }
}

/// What a capture source delivers, in capture order.
public enum CaptureSample: Sendable {
    /// A picture.
    case video(VideoFrame)
    /// A block of sound.
    case audio(AudioBlock)

    /// The sample's capture time.
    public var captureTime: MediaTime {
        switch self {
        case .video(let frame): frame.captureTime
        case .audio(let block): block.captureTime
        }
    }

    /// The bytes the sample's buffers hold (``CapturedFrame/byteCost``).
    public var byteCost: Int {
        switch self {
        case .video(let frame): frame.byteCost
        case .audio(let block): block.byteCost
        }
    }

    /// Video frames may be dropped by a lossy consumer queue; audio blocks may not
    /// (a gap in AAC audio would shift everything after it).
    public var isDroppable: Bool {
        if case .video = self { return true }
        return false
    }
}
