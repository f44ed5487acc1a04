import CFFmpeg
import Foundation
import ReelCore

/// A picture as a lossless PNG (RGB, full range), for `reel review`'s segment frames.
public enum StillImage {
    /// The PNG bytes of `frame` at its own size.
    public static func png(of frame: VideoFrame) throws -> Data {
        let source = frame.avFrame
        guard let rgb = av_frame_alloc() else { throw FFmpegError("allocating a picture", code: AV.error(ENOMEM)) }
        var ownedRGB: UnsafeMutablePointer<AVFrame>? = rgb
        defer { av_frame_free(&ownedRGB) }
        rgb.pointee.width = source.pointee.width
        rgb.pointee.height = source.pointee.height
        rgb.pointee.format = AV_PIX_FMT_RGB24.rawValue
        try check(av_frame_get_buffer(rgb, 32), "allocating a \(frame.width)x\(frame.height) RGB picture")
        guard let scaler = sws_getContext(source.pointee.width, source.pointee.height, AVPixelFormat(rawValue: source.pointee.format),
                                          source.pointee.width, source.pointee.height, AV_PIX_FMT_RGB24, SWS_BICUBIC, nil, nil, nil) else {
            throw FFmpegError("preparing the RGB conversion", code: AV.error(EINVAL))
        }
        defer { sws_freeContext(scaler) }
        try check(VideoScaler.scale(scaler, from: source, to: rgb), "converting the picture to RGB")
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_PNG) else { throw FFmpegError("finding the PNG encoder", code: AV.error(ENOSYS)) }
        var context = avcodec_alloc_context3(codec)
        guard let encoder = context, let packet = av_packet_alloc() else { throw FFmpegError("allocating the PNG encoder", code: AV.error(ENOMEM)) }
        defer { avcodec_free_context(&context) }
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&ownedPacket) }
        encoder.pointee.width = source.pointee.width
        encoder.pointee.height = source.pointee.height
        encoder.pointee.pix_fmt = AV_PIX_FMT_RGB24
        encoder.pointee.time_base = AVRational(num: 1, den: 1)
        try check(avcodec_open2(encoder, codec, nil), "opening the PNG encoder")
        rgb.pointee.pts = 0
        try check(avcodec_send_frame(encoder, rgb), "encoding the PNG")
        try check(avcodec_send_frame(encoder, nil), "finishing the PNG")
        try check(avcodec_receive_packet(encoder, packet), "receiving the PNG")
        defer { av_packet_unref(packet) }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }
}
