import CFFmpeg
import Foundation
import ReelCore
import Synchronization

/// The synthetic source: moving colour bars and a sweeping box with the frame's capture
/// timestamp and number drawn in, plus a 440 Hz tone at 48 kHz. Each picture also carries the
/// wall-clock time it was made at (``TestPattern/clockBits`` cells above the frame number), so
/// a player on this machine can tell how old the picture it shows is.
///
/// In real time it paces itself on the monotonic clock like a camera; otherwise it produces
/// frames as fast as they are taken, stamped as if they had been captured at the frame rate.
public final class TestPatternSource: CaptureSource {
    public let format: CaptureFormat
    public var name: String { "test pattern \(format.width)x\(format.height)@\(Int(format.framesPerSecond))" }
    private let realTime: Bool
    private let stopped = Atomic<Bool>(false)

    /// Audio block size in samples (one AAC frame).
    static let samplesPerBlock = 1024
    /// Tone parameters.
    static let sampleRate = 48_000, toneHz = 440.0, toneLevel: Float = 0.2

    /// A source of `width`x`height` at `framesPerSecond`.
    public init(width: Int, height: Int, framesPerSecond: Int, realTime: Bool) {
        format = CaptureFormat(width: width, height: height, framesPerSecond: Double(framesPerSecond),
                               audio: (TestPatternSource.sampleRate, 1))
        self.realTime = realTime
    }

    public func stop() { stopped.store(true, ordering: .relaxed) }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        let start = MonotonicClock.now().converted(to: MediaTime.nanosecondTimescale)
        let fps = Int64(format.framesPerSecond)
        var frameIndex: Int64 = 0
        var blockIndex: Int64 = 0
        while !stopped.load(ordering: .relaxed) {
            // Exact due times, in nanoseconds since start.
            let videoDue = frameIndex * 1_000_000_000 / fps
            let audioDue = blockIndex * Int64(Self.samplesPerBlock) * 1_000_000_000 / Int64(Self.sampleRate)
            if videoDue <= audioDue {
                let at = start + .nanoseconds(videoDue)
                if realTime { MonotonicClock.sleep(until: at) }
                try deliver(.video(try makeFrame(index: frameIndex, captureTime: at, sinceStart: .nanoseconds(videoDue))))
                frameIndex += 1
            } else {
                let at = start + .nanoseconds(audioDue)
                if realTime { MonotonicClock.sleep(until: at) }
                try deliver(.audio(try makeTone(block: blockIndex, captureTime: at)))
                blockIndex += 1
            }
        }
    }

    private func makeFrame(index: Int64, captureTime: MediaTime, sinceStart: MediaTime) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: format.width, height: format.height, format: AV_PIX_FMT_YUV420P)
        let picture = PlanarPicture(frame)
        TestPattern.draw(into: picture, frameIndex: Int(index),
                         label: TestPattern.label(time: sinceStart, frameIndex: index),
                         clockMilliseconds: Self.wallClockMilliseconds())
        return VideoFrame(taking: frame, captureTime: captureTime)
    }

    /// CLOCK_REALTIME now, in milliseconds since 1970: the clock a browser's `Date.now()` reads.
    static func wallClockMilliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }

    private func makeTone(block: Int64, captureTime: MediaTime) throws -> AudioBlock {
        guard let frame = av_frame_alloc() else { throw FFmpegError("allocating an audio block", code: AV.error(ENOMEM)) }
        frame.pointee.nb_samples = Int32(Self.samplesPerBlock)
        frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        frame.pointee.sample_rate = Int32(Self.sampleRate)
        reel_default_layout(&frame.pointee.ch_layout, 1)
        let status = av_frame_get_buffer(frame, 0)
        if status < 0 {
            var f: UnsafeMutablePointer<AVFrame>? = frame
            av_frame_free(&f)
            throw FFmpegError("allocating audio samples", code: status)
        }
        let samples = UnsafeMutableRawPointer(frame.pointee.data.0!).assumingMemoryBound(to: Float.self)
        let first = block * Int64(Self.samplesPerBlock)
        let step = 2 * Double.pi * Self.toneHz / Double(Self.sampleRate)
        for i in 0..<Self.samplesPerBlock {
            // Phase from the absolute sample number, reduced to keep precision over long runs.
            let n = (first + Int64(i)) % Int64(Self.sampleRate)
            samples[i] = Float(sin(step * Double(n))) * Self.toneLevel
        }
        return AudioBlock(taking: frame, captureTime: captureTime)
    }
}

/// Raw access to the three planes of a YUV 4:2:0 picture.
struct PlanarPicture {
    let y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>
    let yStride: Int, uStride: Int, vStride: Int
    let width: Int, height: Int

    init(_ frame: UnsafeMutablePointer<AVFrame>) {
        y = frame.pointee.data.0!
        u = frame.pointee.data.1!
        v = frame.pointee.data.2!
        yStride = Int(frame.pointee.linesize.0)
        uStride = Int(frame.pointee.linesize.1)
        vStride = Int(frame.pointee.linesize.2)
        width = Int(frame.pointee.width)
        height = Int(frame.pointee.height)
    }
}
