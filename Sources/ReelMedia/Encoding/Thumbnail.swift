import CFFmpeg
import Foundation
import ReelCore

/// A still picture of a video: a JPEG of the frame at a given time, scaled down.
public enum Thumbnail {
    /// The JPEG bytes of the first picture at or after `time` in the video at `path` (the
    /// last picture when `time` is past the end), at most `maxWidth` x `maxHeight`, aspect
    /// ratio kept (even sizes).
    public static func jpeg(ofVideoAt path: String, at time: MediaTime, maxWidth: Int = 640, maxHeight: Int = 640,
                            quality: Int = 3) throws -> Data {
        let reader = try MediaReader(url: path, wantAudio: false)
        let target = time.nanoseconds + (reader.startTime ?? 0)
        try reader.seek(toNanoseconds: target)
        var chosen: VideoFrame?
        var done = false
        while !done, try reader.readFrames({ decoded in
            guard !done, case let .video(frame, ns) = decoded else {
                if case let .video(frame, _) = decoded { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
                return
            }
            chosen = VideoFrame(taking: frame, captureTime: .nanoseconds(ns == Int64.min ? 0 : ns))
            if ns != Int64.min && ns >= target { done = true }
        }) {}
        guard let picture = chosen else {
            throw FFmpegError("finding a picture in \(path) for its thumbnail", code: AV.error(EINVAL))
        }
        return try encodeJPEG(picture, maxWidth: maxWidth, maxHeight: maxHeight, quality: quality)
    }

    /// The size that fits `width` x `height` into the box, aspect kept, even, at least 2x2.
    static func fitted(width: Int, height: Int, maxWidth: Int, maxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(1, min(Double(maxWidth) / Double(width), Double(maxHeight) / Double(height)))
        return (max(2, Int((Double(width) * scale / 2).rounded()) * 2), max(2, Int((Double(height) * scale / 2).rounded()) * 2))
    }

    private static func encodeJPEG(_ frame: VideoFrame, maxWidth: Int, maxHeight: Int, quality: Int) throws -> Data {
        let size = fitted(width: frame.width, height: frame.height, maxWidth: maxWidth, maxHeight: maxHeight)
        return Data(try JPEGEncoder(width: size.width, height: size.height, quality: quality).encode(frame))
    }
}
