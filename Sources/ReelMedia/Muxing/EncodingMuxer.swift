import CFFmpeg
import Foundation
import ReelCore

/// Scaler, video encoder, optional AAC encoder and MP4 muxer wired together: the part the
/// HLS segmenter and the archive writer share. Not thread-safe: one owner thread drives it.
final class EncodingMuxer {
    let scaler: VideoScaler
    let video: VideoEncoder
    let audio: AudioEncoder?
    let muxer: MP4Muxer
    /// Called with each video packet before it is written (pts in 1/90000).
    var beforeVideoPacket: ((UnsafeMutablePointer<AVPacket>) throws -> Void)?
    /// The last scaled picture, kept to repeat it across gaps (only by a muxer that repeats).
    private var lastPicture: UnsafeMutablePointer<AVFrame>?
    private let keepsLastPicture: Bool
    private(set) var lastVideoPTS: Int64?
    private(set) var videoFrames = 0

    init(video settings: VideoEncoderSettings, audio audioSettings: AudioEncoderSettings?,
         output: MP4Muxer.Output, movflags: String, metadata: [String: String] = [:], repeatsPictures: Bool = false) throws {
        keepsLastPicture = repeatsPictures
        scaler = VideoScaler(width: settings.width, height: settings.height)
        video = try VideoEncoder(settings, globalHeader: true)
        audio = try audioSettings.map { try AudioEncoder($0, globalHeader: true) }
        muxer = try MP4Muxer(output: output, movflags: movflags)
        try muxer.addStream(from: video.context)
        if let audio { try muxer.addStream(from: audio.context) }
        try muxer.writeHeader(metadata: metadata)
    }

    deinit {
        var f = lastPicture
        av_frame_free(&f)
    }

    /// Scales and encodes `frame` at `pts` (stream time).
    func appendVideo(_ frame: VideoFrame, pts: MediaTime, keyFrame: Bool) throws {
        var picture: UnsafeMutablePointer<AVFrame>? = try scaler.scale(frame)
        var old = lastPicture
        av_frame_free(&old)
        lastPicture = nil
        // A picture not kept for repeating goes back to the scaler's pool once encoded (the
        // encoder holds its own reference while it needs one): a 1080x1920 picture less held.
        defer { if keepsLastPicture { lastPicture = picture } else { av_frame_free(&picture) } }
        try encode(picture!, pts: pts, keyFrame: keyFrame)
    }

    /// Encodes the previous picture again at `pts` (to bridge a gap at a segment boundary);
    /// only a muxer made with `repeatsPictures` keeps one.
    func repeatLastVideo(pts: MediaTime, keyFrame: Bool) throws {
        guard let lastPicture, let copy = av_frame_clone(lastPicture) else { return }
        var owned: UnsafeMutablePointer<AVFrame>? = copy
        defer { av_frame_free(&owned) }
        try encode(copy, pts: pts, keyFrame: keyFrame)
    }

    private func encode(_ picture: UnsafeMutablePointer<AVFrame>, pts: MediaTime, keyFrame: Bool) throws {
        let ticks = pts.converted(to: VideoEncoder.timeBase.den).value
        lastVideoPTS = ticks
        videoFrames += 1
        try video.encode(picture, pts: ticks, keyFrame: keyFrame, writeVideo)
    }

    private func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        try beforeVideoPacket?(packet)
        try muxer.write(packet, stream: 0)
    }

    /// Encodes `block` whose first sample is at `pts` (stream time).
    func appendAudio(_ block: AudioBlock, pts: MediaTime) throws {
        guard let audio else { return }
        let ticks = pts.converted(to: Int32(audio.settings.sampleRate)).value
        try audio.encode(block, pts: ticks) { try muxer.write($0, stream: 1) }
    }

    /// Flushes both encoders into the muxer (before the final fragment and trailer).
    func finishEncoders() throws {
        try video.finish(writeVideo)
        if let audio { try audio.finish { try muxer.write($0, stream: 1) } }
    }
}
