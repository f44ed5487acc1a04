import CFFmpeg
import ReelCore
import Synchronization

/// An H.264 or HEVC encoder (libx264 / libx265) with no frame reordering, so packets leave in
/// presentation order with pts = dts, and key frames where the caller asks for them.
final class VideoEncoder {
    let settings: VideoEncoderSettings
    let context: UnsafeMutablePointer<AVCodecContext>
    /// Stream time base: 1/90000 s.
    static let timeBase = AVRational(num: 1, den: 90_000)
    private let packet: UnsafeMutablePointer<AVPacket>
    private let frameDuration: Int64
    /// Encoders open in this process now. Each holds its codec's threads (x264 starts several)
    /// and its picture buffers until it is released, so a long-running process (`reel studio`,
    /// the test run) must come back to where it was after each recording or stream.
    static let open = Atomic<Int>(0)
    /// ``open``, for diagnostics and for tests that check nothing is left behind.
    static var openCount: Int { open.load(ordering: .relaxed) }

    init(_ settings: VideoEncoderSettings, globalHeader: Bool) throws {
        self.settings = settings
        FFmpegLog.quietByDefault
        guard let codec = avcodec_find_encoder_by_name(settings.codec.encoderName) else {
            throw FFmpegError("finding encoder \(settings.codec.encoderName) (is FFmpeg built with it?)", code: AV.error(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec), let packet = av_packet_alloc() else {
            throw FFmpegError("allocating encoder \(settings.codec.encoderName)", code: AV.error(ENOMEM))
        }
        self.context = context
        self.packet = packet
        frameDuration = Int64(90_000 / max(settings.framesPerSecond, 1))
        context.pointee.width = Int32(settings.width)
        context.pointee.height = Int32(settings.height)
        context.pointee.pix_fmt = AV_PIX_FMT_YUV420P
        context.pointee.time_base = VideoEncoder.timeBase
        context.pointee.framerate = AVRational(num: Int32(settings.framesPerSecond), den: 1)
        if settings.constantRateFactor != nil {
            // Constant quality, the bitrate only caps the peaks (VBV).
            context.pointee.bit_rate = 0
            context.pointee.rc_max_rate = Int64(settings.bitRate)
            context.pointee.rc_buffer_size = Int32(settings.bitRate * 2)
        } else {
            context.pointee.bit_rate = Int64(settings.bitRate)
            context.pointee.rc_max_rate = Int64(settings.bitRate) * 3 / 2
            context.pointee.rc_buffer_size = Int32(settings.bitRate * 2)
        }
        context.pointee.max_b_frames = 0
        context.pointee.thread_count = Int32(settings.threads)
        context.pointee.gop_size = Int32(settings.keyFramesOnDemand ? settings.framesPerSecond * 3600 : settings.keyFrameInterval)
        context.pointee.keyint_min = context.pointee.gop_size
        if globalHeader { context.pointee.flags |= reel_codec_flag_global_header() }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "preset", settings.preset.rawValue, 0)
        if let crf = settings.constantRateFactor { av_dict_set(&options, "crf", String(crf), 0) }
        switch settings.codec {
        case .h264:
            av_dict_set(&options, "profile", "high", 0)
            if settings.zeroLatency { av_dict_set(&options, "tune", "zerolatency", 0) }
            av_dict_set(&options, "forced-idr", "1", 0)
            av_dict_set(&options, "x264-params", "scenecut=0:bframes=0", 0)
        case .hevc:
            if settings.zeroLatency { av_dict_set(&options, "tune", "zerolatency", 0) }
            av_dict_set(&options, "forced-idr", "1", 0)
            let keyint = context.pointee.gop_size
            av_dict_set(&options, "x265-params",
                        "log-level=error:bframes=0:scenecut=0:keyint=\(keyint):min-keyint=\(keyint):repeat-headers=0", 0)
        }
        let status = avcodec_open2(context, codec, &options)
        if status < 0 {
            var c: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&c)
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
            throw FFmpegError("opening encoder \(settings.codec.encoderName) \(settings.width)x\(settings.height)", code: status)
        }
        Self.open.add(1, ordering: .relaxed)
    }

    deinit {
        Self.open.subtract(1, ordering: .relaxed)
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
    }

    /// Encodes `frame` (output size, YUV 4:2:0) at `pts` (1/90000); `keyFrame` forces an IDR.
    /// Hands every packet that comes out to `sink` (pts/dts in 1/90000, duration set).
    func encode(_ frame: UnsafeMutablePointer<AVFrame>, pts: Int64, keyFrame: Bool,
                _ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        frame.pointee.pts = pts
        frame.pointee.pict_type = keyFrame ? AV_PICTURE_TYPE_I : AV_PICTURE_TYPE_NONE
        try check(avcodec_send_frame(context, frame), "encoding a video frame with \(settings.codec.encoderName)")
        try drain(sink)
    }

    /// Flushes the encoder's delayed packets to `sink`.
    func finish(_ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let status = avcodec_send_frame(context, nil)
        if status < 0 && status != AV.eof { try check(status, "flushing \(settings.codec.encoderName)") }
        try drain(sink)
    }

    private func drain(_ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == AV.eagain || status == AV.eof { return }
            try check(status, "receiving a packet from \(settings.codec.encoderName)")
            // libx264 in lavc 59 leaves the duration at 0; the muxer needs it.
            if packet.pointee.duration <= 0 { packet.pointee.duration = frameDuration }
            defer { av_packet_unref(packet) }
            try sink(packet)
        }
    }
}
