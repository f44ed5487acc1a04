import CFFmpeg
import Foundation
import ReelCore

/// Pictures of any size and pixel format to JPEGs of one size: centre crop to fill (as
/// ``VideoScaler``), full range, FFmpeg's MJPEG encoder at a fixed quantizer. The scaler and
/// the encoder are made once and kept, so a stream of pictures (the studio's live preview)
/// costs a scale and an encode per picture, nothing more.
///
/// One owner thread at a time (not thread-safe); the bytes it returns go anywhere.
public final class JPEGEncoder {
    /// The pictures' size.
    public let width: Int, height: Int
    private let scaler: VideoScaler
    private var context: UnsafeMutablePointer<AVCodecContext>?
    private let packet: UnsafeMutablePointer<AVPacket>
    private let quantizer: Int32
    private var pictures: Int64 = 0

    /// JPEGs of `width` x `height` (even sizes; odd ones are rounded down), at `quality`: the
    /// MJPEG quantizer, 2 (best) to 31 (smallest).
    public init(width: Int, height: Int, quality: Int = 5) throws {
        self.width = max(2, width & ~1)
        self.height = max(2, height & ~1)
        scaler = VideoScaler(width: self.width, height: self.height, fullRange: true)
        quantizer = Int32(min(31, max(2, quality)))
        guard let packet = av_packet_alloc() else { throw FFmpegError("allocating a JPEG packet", code: AV.error(ENOMEM)) }
        self.packet = packet
        do {
            context = try Self.openEncoder(width: self.width, height: self.height, quantizer: quantizer)
        } catch {
            var owned: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&owned)
            throw error
        }
    }

    deinit {
        avcodec_free_context(&context)
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// The JPEG of `frame`, cropped to fill and scaled.
    public func encode(_ frame: VideoFrame) throws -> [UInt8] {
        let picture = try scaler.scale(frame)
        defer { var f: UnsafeMutablePointer<AVFrame>? = picture; av_frame_free(&f) }
        picture.pointee.color_range = AVCOL_RANGE_JPEG
        picture.pointee.pts = pictures
        picture.pointee.quality = quantizer * reel_qp2lambda()
        pictures += 1
        try check(avcodec_send_frame(context, picture), "encoding a JPEG")
        try check(avcodec_receive_packet(context, packet), "receiving a JPEG")
        defer { av_packet_unref(packet) }
        return Array(UnsafeBufferPointer(start: packet.pointee.data, count: Int(packet.pointee.size)))
    }

    private static func openEncoder(width: Int, height: Int, quantizer: Int32) throws -> UnsafeMutablePointer<AVCodecContext> {
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("finding the JPEG encoder", code: AV.error(ENOSYS))
        }
        guard let encoder = avcodec_alloc_context3(codec) else { throw FFmpegError("allocating the JPEG encoder", code: AV.error(ENOMEM)) }
        encoder.pointee.width = Int32(width)
        encoder.pointee.height = Int32(height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.color_range = AVCOL_RANGE_JPEG
        encoder.pointee.time_base = AVRational(num: 1, den: 25)
        encoder.pointee.flags |= reel_codec_flag_qscale()
        encoder.pointee.global_quality = quantizer * reel_qp2lambda()
        encoder.pointee.thread_count = 1
        let opened = avcodec_open2(encoder, codec, nil)
        guard opened >= 0 else {
            var owned: UnsafeMutablePointer<AVCodecContext>? = encoder
            avcodec_free_context(&owned)
            throw FFmpegError("opening the JPEG encoder", code: opened)
        }
        return encoder
    }
}
