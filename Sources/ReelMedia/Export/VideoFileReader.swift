import CFFmpeg
import Foundation
import ReelCore

/// What a video file holds, read from its header.
public struct MediaFileInfo: Sendable, Equatable {
    /// The picture size and frame rate of the video stream.
    public var width: Int, height: Int, framesPerSecond: Double
    /// The file's duration (nil: unknown).
    public var duration: MediaTime?
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
        info = MediaFileInfo(width: video.width, height: video.height, framesPerSecond: video.framesPerSecond,
                             duration: reader.durationNanoseconds.map { .nanoseconds($0) }, hasAudio: reader.hasAudioStream,
                             creationTime: reader.creationTime.flatMap { try? Date($0, strategy: .iso8601) })
    }

    /// Calls `body` with every picture in presentation order, its ``CapturedFrame/captureTime``
    /// the time since the file's start; `body` returns false to stop. A picture without a
    /// timestamp gets the previous one's plus a frame. Damaged packets are skipped as players
    /// skip them; a read that fails outright throws, after the pictures before it were handed on.
    public func forEachFrame(_ body: (VideoFrame) throws -> Bool) throws {
        let start = reader.startTime ?? 0
        let frameNs = Int64(1e9 / max(info.framesPerSecond, 1))
        var last: Int64?
        var stop = false
        while !stop, try reader.readFrames({ decoded in
            guard case let .video(frame, ns) = decoded else {
                if case let .audio(frame, _) = decoded { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
                return
            }
            guard !stop else { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f); return }
            var time = ns == Int64.min ? (last.map { $0 + frameNs } ?? 0) : ns - start
            if let last, time <= last { time = last + 1 }
            last = time
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
