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
        let source = frame.avFrame
        let size = fitted(width: frame.width, height: frame.height, maxWidth: maxWidth, maxHeight: maxHeight)
        // Full-range 4:2:0 ("JPEG range") without the deprecated yuvj formats: the scaler
        // converts the range, the encoder is told the range.
        let out = try VideoFrame.allocate(width: size.width, height: size.height, format: AV_PIX_FMT_YUV420P)
        defer { var f: UnsafeMutablePointer<AVFrame>? = out; av_frame_free(&f) }
        out.pointee.color_range = AVCOL_RANGE_JPEG
        guard let scaler = sws_getContext(source.pointee.width, source.pointee.height, AVPixelFormat(rawValue: source.pointee.format),
                                          Int32(size.width), Int32(size.height), AV_PIX_FMT_YUV420P, SWS_BICUBIC, nil, nil, nil) else {
            throw FFmpegError("preparing the thumbnail scaler", code: AV.error(EINVAL))
        }
        defer { sws_freeContext(scaler) }
        var inverse: UnsafeMutablePointer<Int32>?, table: UnsafeMutablePointer<Int32>?
        var sourceRange: Int32 = 0, destinationRange: Int32 = 0, brightness: Int32 = 0, contrast: Int32 = 0, saturation: Int32 = 0
        if sws_getColorspaceDetails(scaler, &inverse, &sourceRange, &table, &destinationRange, &brightness, &contrast, &saturation) >= 0 {
            sourceRange = source.pointee.color_range == AVCOL_RANGE_JPEG ? 1 : 0
            sws_setColorspaceDetails(scaler, inverse, sourceRange, table, 1, brightness, contrast, saturation)
        }
        let scaled = VideoScaler.scale(scaler, from: source, to: out)
        try check(scaled, "scaling the thumbnail")
        guard let codec = avcodec_find_encoder(AV_CODEC_ID_MJPEG) else {
            throw FFmpegError("finding the JPEG encoder", code: AV.error(ENOSYS))
        }
        var context = avcodec_alloc_context3(codec)
        guard let encoder = context, let packet = av_packet_alloc() else { throw FFmpegError("allocating the JPEG encoder", code: AV.error(ENOMEM)) }
        defer { avcodec_free_context(&context) }
        var ownedPacket: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&ownedPacket) }
        encoder.pointee.width = Int32(size.width)
        encoder.pointee.height = Int32(size.height)
        encoder.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        encoder.pointee.color_range = AVCOL_RANGE_JPEG
        encoder.pointee.time_base = AVRational(num: 1, den: 1)
        encoder.pointee.flags |= reel_codec_flag_qscale()
        encoder.pointee.global_quality = Int32(quality) * reel_qp2lambda()
        try check(avcodec_open2(encoder, codec, nil), "opening the JPEG encoder")
        out.pointee.pts = 0
        out.pointee.quality = encoder.pointee.global_quality
        try check(avcodec_send_frame(encoder, out), "encoding the thumbnail")
        try check(avcodec_send_frame(encoder, nil), "finishing the thumbnail")
        try check(avcodec_receive_packet(encoder, packet), "receiving the thumbnail")
        defer { av_packet_unref(packet) }
        return Data(bytes: packet.pointee.data, count: Int(packet.pointee.size))
    }
}
