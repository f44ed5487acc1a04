import CFFmpeg
import ReelCore

/// Turns decoded pictures of any size and pixel format into new YUV 4:2:0 pictures of one
/// size, each owned by the caller alone, so it may draw on them
/// (``VideoFrame/withWritablePlanes(_:)``) before they are encoded.
public final class PictureConverter {
    /// The output size.
    public let width: Int, height: Int
    private let scaler: VideoScaler

    /// A converter to `width` x `height` (even numbers; the picture is centre-cropped when the
    /// aspect ratios differ, as ``VideoScaler`` does).
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
        scaler = VideoScaler(width: width, height: height)
    }

    /// A new picture holding `frame` at the output size, with `frame`'s time. A yuv420p
    /// picture already at the output size is not scaled: it is referenced, and copied only
    /// when someone else (the decoder) still holds its buffers.
    public func convert(_ frame: VideoFrame) throws -> VideoFrame {
        if frame.avFrame.pointee.format == AV_PIX_FMT_YUV420P.rawValue, frame.width == width, frame.height == height {
            guard let copy = av_frame_clone(frame.avFrame) else { throw FFmpegError("referencing a picture", code: AV.error(ENOMEM)) }
            let status = av_frame_make_writable(copy)
            guard status >= 0 else {
                var f: UnsafeMutablePointer<AVFrame>? = copy
                av_frame_free(&f)
                throw FFmpegError("copying a \(width)x\(height) picture", code: status)
            }
            return VideoFrame(taking: copy, captureTime: frame.captureTime)
        }
        return VideoFrame(taking: try scaler.scale(frame), captureTime: frame.captureTime)
    }

    /// The output size for a `width` x `height` video whose short side becomes `shortSide`
    /// (never enlarged; even numbers; aspect ratio kept to the nearest even pixel).
    public static func size(width: Int, height: Int, shortSide: Int?) -> (width: Int, height: Int) {
        func even(_ v: Double) -> Int { max(2, Int((v / 2).rounded()) * 2) }
        guard let shortSide, shortSide < min(width, height) else { return (even(Double(width)), even(Double(height))) }
        let scale = Double(shortSide) / Double(min(width, height))
        return (even(Double(width) * scale), even(Double(height) * scale))
    }
}

extension VideoFrame {
    /// The three planes of a YUV 4:2:0 picture only its holder has (fresh from a
    /// ``PictureConverter``): `body` may change the pixels. A picture that is shared (a
    /// captured frame other consumers read) or not YUV 4:2:0 is refused, never drawn on.
    public func withWritablePlanes<R>(_ body: (_ planes: [(base: UnsafeMutablePointer<UInt8>, stride: Int)]) throws -> R) throws -> R {
        guard avFrame.pointee.format == AV_PIX_FMT_YUV420P.rawValue else {
            throw FFmpegError("drawing on a \(pixelFormatName) picture (only yuv420p)", code: AV.error(EINVAL))
        }
        guard av_frame_is_writable(avFrame) != 0 else {
            throw FFmpegError("drawing on a picture others share", code: AV.error(EPERM))
        }
        let f = avFrame.pointee
        let planes = [(f.data.0!, Int(f.linesize.0)), (f.data.1!, Int(f.linesize.1)), (f.data.2!, Int(f.linesize.2))]
        return try body(planes.map { (base: $0.0, stride: $0.1) })
    }
}
