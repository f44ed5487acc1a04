import CFFmpeg
import ReelCore

/// An AAC-LC encoder fed with audio blocks of any format, rate and size: resamples to
/// planar float at the output rate, regroups into 1024-sample frames, and times them by
/// counting samples from the first block's timestamp (resynchronising if capture time and
/// the sample count drift apart by more than 100 ms, e.g. after a device hiccup).
final class AudioEncoder {
    let settings: AudioEncoderSettings
    let context: UnsafeMutablePointer<AVCodecContext>
    private let packet: UnsafeMutablePointer<AVPacket>
    private var resampler: OpaquePointer?
    private var resamplerKey: (Int32, Int32, Int32)?  // format, rate, channels
    private let fifo: OpaquePointer
    /// pts (1/sampleRate) of the first sample in the fifo.
    private var fifoPTS: Int64?
    private let frameSize: Int32

    init(_ settings: AudioEncoderSettings, globalHeader: Bool) throws {
        self.settings = settings
        FFmpegLog.quietByDefault
        guard let codec = avcodec_find_encoder_by_name("aac") else {
            throw FFmpegError("finding the AAC encoder", code: AV.error(ENOSYS))
        }
        guard let context = avcodec_alloc_context3(codec), let packet = av_packet_alloc() else {
            throw FFmpegError("allocating the AAC encoder", code: AV.error(ENOMEM))
        }
        self.context = context
        self.packet = packet
        context.pointee.sample_fmt = AV_SAMPLE_FMT_FLTP
        context.pointee.sample_rate = Int32(settings.sampleRate)
        reel_default_layout(&context.pointee.ch_layout, Int32(settings.channels))
        context.pointee.bit_rate = Int64(settings.bitRate)
        context.pointee.time_base = AVRational(num: 1, den: Int32(settings.sampleRate))
        if globalHeader { context.pointee.flags |= reel_codec_flag_global_header() }
        let status = avcodec_open2(context, codec, nil)
        guard status >= 0, let fifo = av_audio_fifo_alloc(AV_SAMPLE_FMT_FLTP, Int32(settings.channels), 4096) else {
            var c: UnsafeMutablePointer<AVCodecContext>? = context
            avcodec_free_context(&c)
            var p: UnsafeMutablePointer<AVPacket>? = packet
            av_packet_free(&p)
            throw FFmpegError("opening the AAC encoder", code: status < 0 ? status : AV.error(ENOMEM))
        }
        self.fifo = fifo
        frameSize = context.pointee.frame_size > 0 ? context.pointee.frame_size : 1024
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
        var p: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&p)
        av_audio_fifo_free(fifo)
        swr_free(&resampler)
    }

    /// Adds `block`, whose first sample is at `pts` (1/sampleRate of the output), and encodes
    /// every full frame now available.
    func encode(_ block: AudioBlock, pts: Int64, _ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        let input = block.avFrame
        try prepareResampler(for: input)
        let outRate = Int64(settings.sampleRate)
        let inRate = Int64(max(input.pointee.sample_rate, 1))
        let capacity = Int32(Int64(input.pointee.nb_samples) * outRate / inRate + 256)
        guard let converted = av_frame_alloc() else { throw FFmpegError("allocating audio", code: AV.error(ENOMEM)) }
        defer { var c: UnsafeMutablePointer<AVFrame>? = converted; av_frame_free(&c) }
        converted.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
        converted.pointee.sample_rate = Int32(settings.sampleRate)
        converted.pointee.nb_samples = capacity
        reel_default_layout(&converted.pointee.ch_layout, Int32(settings.channels))
        try check(av_frame_get_buffer(converted, 0), "allocating resampled audio")
        let source = UnsafeMutableRawPointer(input.pointee.extended_data!).assumingMemoryBound(to: UnsafePointer<UInt8>?.self)
        let count = withUnsafeMutablePointer(to: &converted.pointee.data) { out in
            out.withMemoryRebound(to: UnsafeMutablePointer<UInt8>?.self, capacity: 8) { o in
                swr_convert(resampler, o, capacity, source, input.pointee.nb_samples)
            }
        }
        try check(count, "resampling audio")
        // Resynchronise when the counted timeline and the capture time disagree by > 100 ms.
        let buffered = Int64(av_audio_fifo_size(fifo))
        if let start = fifoPTS {
            let expected = start + buffered
            if abs(expected - pts) > outRate / 10 {
                // AAC takes short frames only at the end: encode the whole frames, drop the
                // rest (under one frame, ~21 ms), and restart the count at the capture time.
                try drainFIFO(partialOK: false, sink)
                av_audio_fifo_reset(fifo)
                fifoPTS = pts
            }
        } else {
            fifoPTS = pts
        }
        if count > 0 {
            let written = withUnsafeMutablePointer(to: &converted.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_write(fifo, $0, count) }
            }
            try check(written, "buffering audio")
        }
        try drainFIFO(partialOK: false, sink)
    }

    private func prepareResampler(for input: UnsafeMutablePointer<AVFrame>) throws {
        let key = (input.pointee.format, input.pointee.sample_rate, input.pointee.ch_layout.nb_channels)
        if resampler != nil, let old = resamplerKey, old == key { return }
        swr_free(&resampler)
        var outLayout = AVChannelLayout()
        reel_default_layout(&outLayout, Int32(settings.channels))
        var inLayout = AVChannelLayout()
        if av_channel_layout_check(&input.pointee.ch_layout) != 0 {
            try check(av_channel_layout_copy(&inLayout, &input.pointee.ch_layout), "reading the channel layout")
        } else {
            reel_default_layout(&inLayout, max(1, input.pointee.ch_layout.nb_channels))
        }
        defer { av_channel_layout_uninit(&inLayout); av_channel_layout_uninit(&outLayout) }
        try check(swr_alloc_set_opts2(&resampler, &outLayout, AV_SAMPLE_FMT_FLTP, Int32(settings.sampleRate),
                                      &inLayout, AVSampleFormat(rawValue: input.pointee.format), input.pointee.sample_rate, 0, nil),
                  "configuring the audio resampler")
        try check(swr_init(resampler), "starting the audio resampler")
        resamplerKey = key
    }

    /// Encodes whole frames from the fifo (and the partial rest when `partialOK`).
    private func drainFIFO(partialOK: Bool, _ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        while av_audio_fifo_size(fifo) >= frameSize || (partialOK && av_audio_fifo_size(fifo) > 0) {
            let n = min(frameSize, av_audio_fifo_size(fifo))
            guard let frame = av_frame_alloc() else { throw FFmpegError("allocating audio", code: AV.error(ENOMEM)) }
            defer { var f: UnsafeMutablePointer<AVFrame>? = frame; av_frame_free(&f) }
            frame.pointee.nb_samples = n
            frame.pointee.format = AV_SAMPLE_FMT_FLTP.rawValue
            frame.pointee.sample_rate = Int32(settings.sampleRate)
            reel_default_layout(&frame.pointee.ch_layout, Int32(settings.channels))
            try check(av_frame_get_buffer(frame, 0), "allocating an audio frame")
            let read = withUnsafeMutablePointer(to: &frame.pointee.data) { data in
                data.withMemoryRebound(to: UnsafeMutableRawPointer?.self, capacity: 8) { av_audio_fifo_read(fifo, $0, n) }
            }
            try check(read, "reading buffered audio")
            frame.pointee.pts = fifoPTS ?? 0
            fifoPTS = (fifoPTS ?? 0) + Int64(n)
            try check(avcodec_send_frame(context, frame), "encoding audio")
            try drainPackets(sink)
        }
    }

    /// Encodes what is buffered and flushes the encoder.
    func finish(_ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        try drainFIFO(partialOK: true, sink)
        let status = avcodec_send_frame(context, nil)
        if status < 0 && status != AV.eof { try check(status, "flushing the AAC encoder") }
        try drainPackets(sink)
    }

    private func drainPackets(_ sink: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        while true {
            let status = avcodec_receive_packet(context, packet)
            if status == AV.eagain || status == AV.eof { return }
            try check(status, "receiving an AAC packet")
            defer { av_packet_unref(packet) }
            try sink(packet)
        }
    }
}
