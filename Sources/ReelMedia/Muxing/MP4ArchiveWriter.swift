import CFFmpeg
import Foundation
import ReelCore

/// Writes one MP4 file (the archive): encodes video and audio and muxes them as fragmented
/// MP4 with a fragment per key frame, so a crash or a full disk keeps every fragment already
/// written and the file still plays. Not thread-safe: one owner thread.
public final class MP4ArchiveWriter {
    /// Where the file is.
    public let path: String
    private let core: EncodingMuxer
    private var finished = false

    /// fragment at key frames; the moov comes first and stays empty.
    static let movflags = "frag_keyframe+empty_moov+default_base_moof"

    /// Creates `path` (replacing nothing: fails if it exists) and prepares the encoders.
    public init(path: String, video: VideoEncoderSettings, audio: AudioEncoderSettings?) throws {
        if FileManager.default.fileExists(atPath: path) {
            throw FFmpegError("creating \(path): it already exists; choose another --archive path", code: AV.error(EEXIST))
        }
        self.path = path
        core = try EncodingMuxer(video: video, audio: audio, output: .file(path), movflags: MP4ArchiveWriter.movflags)
    }

    /// Frames encoded so far.
    public var videoFrames: Int { core.videoFrames }

    /// Encodes a picture at stream time `pts`.
    public func appendVideo(_ frame: VideoFrame, pts: MediaTime) throws {
        try core.appendVideo(frame, pts: pts, keyFrame: false)
    }

    /// Encodes audio whose first sample is at stream time `pts`.
    public func appendAudio(_ block: AudioBlock, pts: MediaTime) throws {
        try core.appendAudio(block, pts: pts)
    }

    /// Flushes the encoders, writes the last fragment and closes the file.
    public func finish() throws {
        guard !finished else { return }
        finished = true
        defer { core.muxer.teardown() }
        try core.finishEncoders()
        try core.muxer.writeTrailer()
    }

    /// Closes the file without flushing the encoders (after a failure): what was written stays.
    public func abandon() {
        finished = true
        try? core.muxer.writeTrailer()
        core.muxer.teardown()
    }
}
