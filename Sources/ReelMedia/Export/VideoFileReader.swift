import CFFmpeg
import Foundation
import ReelCore

/// What a video file holds, read from its header.
public struct MediaFileInfo: Sendable, Equatable {
    /// The picture size and frame rate of the video stream.
    public var width: Int, height: Int, framesPerSecond: Double
    /// The file's duration (nil: unknown).
    public var duration: MediaTime?
    /// The video stream's own duration from the header (nil: unknown; ``duration`` is the
    /// longest stream's, audio included).
    public var videoDuration: MediaTime?
    /// The image format when the file is a still picture (a PNG, a JPEG…), not a video: "png",
    /// "jpeg"; nil for a video.
    public var stillImageFormat: String?
    /// Whether it has an audio stream.
    public var hasAudio: Bool
    /// When it was made, from its `creation_time` tag (nil: none).
    public var creationTime: Date?
}

/// Decodes the pictures of a video file in order, as fast as they can be decoded, each
/// stamped with its time from the start of the file (the export's timeline). Audio is not
/// decoded: the export copies it as it is.
public final class VideoFileReader {
    /// The file.
    public let path: String
    /// What it holds.
    public let info: MediaFileInfo
    private let reader: MediaReader

    /// Opens `path`; a missing, unreadable or non-video file is a clear error.
    public init(path: String) throws {
        self.path = path
        reader = try MediaReader(url: path, wantAudio: false)
        guard let video = reader.videoFormat else { throw CaptureError(source: path, reason: "there is no video stream in it") }
        let timing = reader.videoTiming
        info = MediaFileInfo(width: video.width, height: video.height, framesPerSecond: video.framesPerSecond,
                             duration: reader.durationNanoseconds.map { .nanoseconds($0) },
                             videoDuration: timing.flatMap { t in t.duration.map { Self.nanoseconds($0, t.timeBase) } }.map { .nanoseconds($0) },
                             stillImageFormat: Self.stillImageFormat(demuxer: reader.formatName, codec: reader.videoCodecName),
                             hasAudio: reader.hasAudioStream,
                             creationTime: reader.creationTime.flatMap { try? Date($0, strategy: .iso8601) })
    }

    /// The end of the last picture ``forEachFrame(_:)`` handed on: its time plus its own
    /// duration (the file's duration for that picture, else one frame at the average rate);
    /// nil before any picture. A picture lasts until the next one, so this is where the video
    /// handed on ends.
    public private(set) var lastPictureEnd: MediaTime?

    /// FFmpeg reads a still picture as a one-picture video through an image demuxer
    /// ("png_pipe", "jpeg_pipe", "image2"); "png" for those, nil for a video.
    static func stillImageFormat(demuxer: String?, codec: String?) -> String? {
        guard let demuxer else { return nil }
        if demuxer == "image2" { return codec ?? "image" }
        guard demuxer.hasSuffix("_pipe") else { return nil }
        return String(demuxer.dropLast(5))
    }

    private static func nanoseconds(_ value: Int64, _ base: AVRational) -> Int64 {
        av_rescale_q(value, base, AVRational(num: 1, den: 1_000_000_000))
    }

    /// Calls `body` with every picture in presentation order, its ``CapturedFrame/captureTime``
    /// the time since the file's start; `body` returns false to stop. A picture without a
    /// timestamp gets the previous one's plus a frame. Damaged packets are skipped as players
    /// skip them; a read that fails outright throws, after the pictures before it were handed on.
    public func forEachFrame(_ body: (VideoFrame) throws -> Bool) throws {
        let start = reader.startTime ?? 0
        let frameNs = Int64(1e9 / max(info.framesPerSecond, 1))
        let timeBase = reader.videoTiming?.timeBase
        var last: Int64?
        var stop = false
        lastPictureEnd = nil
        while !stop, try reader.readFrames({ decoded in
            guard case let .video(frame, ns) = decoded else {
                if case let .audio(frame, _) = decoded { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
                return
            }
            guard !stop else { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f); return }
            var time = ns == Int64.min ? (last.map { $0 + frameNs } ?? 0) : ns - start
            if let last, time <= last { time = last + 1 }
            last = time
            let own = timeBase.flatMap { frame.pointee.pkt_duration > 0 ? Self.nanoseconds(frame.pointee.pkt_duration, $0) : nil } ?? frameNs
            lastPictureEnd = .nanoseconds(time + own)
            if try !body(VideoFrame(taking: frame, captureTime: .nanoseconds(time))) { stop = true }
        }) {}
    }

    /// The first picture at or after `time` (the last one when `time` is past the end).
    public func frame(at time: MediaTime) throws -> VideoFrame {
        try reader.seek(toNanoseconds: time.nanoseconds + (reader.startTime ?? 0))
        var chosen: VideoFrame?
        try forEachFrame { frame in
            chosen = frame
            return frame.captureTime < time
        }
        guard let chosen else { throw CaptureError(source: path, reason: "no picture at \(time.seconds) s; is the file cut short?") }
        return chosen
    }
}
