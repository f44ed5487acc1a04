import CFFmpeg
import Foundation
import ReelCore
import Synchronization

/// Demuxes and decodes one FFmpeg input (a file, a URL, or a device through libavdevice)
/// into frames. Owns every `AV*` pointer it uses; only ``CaptureSample``s leave it.
/// `@unchecked Sendable`: the `AV*` contexts are used by the one thread that reads; other threads touch only ``interrupt`` (atomics).
final class MediaReader: @unchecked Sendable {
    /// The input's display name (path or device).
    let name: String
    private var formatContext: UnsafeMutablePointer<AVFormatContext>?
    private var videoDecoder: UnsafeMutablePointer<AVCodecContext>?
    private var audioDecoder: UnsafeMutablePointer<AVCodecContext>?
    private(set) var videoStream: Int32 = -1
    private(set) var audioStream: Int32 = -1
    private var packet: UnsafeMutablePointer<AVPacket>?
    /// Interrupt state shared with FFmpeg's blocking I/O (see ``Interrupt``).
    let interrupt: Interrupt

    /// Lets a stop (or a stalled device) break FFmpeg out of a blocking read.
    final class Interrupt: Sendable {
        let stopped = Atomic<Bool>(false)
        /// Monotonic nanoseconds of the last successful read.
        let lastActivity = Atomic<Int64>(MonotonicClock.now().nanoseconds)
        /// A read that makes no progress for this long is abandoned (0: never).
        let stallNanoseconds: Int64
        init(stallSeconds: Double) { stallNanoseconds = Int64(stallSeconds * 1e9) }
        var shouldAbort: Bool {
            if stopped.load(ordering: .relaxed) { return true }
            guard stallNanoseconds > 0 else { return false }
            return MonotonicClock.now().nanoseconds - lastActivity.load(ordering: .relaxed) > stallNanoseconds
        }
        var stalled: Bool { !stopped.load(ordering: .relaxed) && shouldAbort }
        func touch() { lastActivity.store(MonotonicClock.now().nanoseconds, ordering: .relaxed) }
    }

    /// Opens `url` with an optional input format (e.g. "video4linux2", "alsa", "pulse") and
    /// demuxer options; finds the best video and audio streams and opens their decoders.
    init(url: String, inputFormat: String? = nil, options: [String: String] = [:],
         wantVideo: Bool = true, wantAudio: Bool = true, stallSeconds: Double = 0) throws {
        name = url
        FFmpegLog.quietByDefault
        interrupt = Interrupt(stallSeconds: stallSeconds)
        var input: UnsafePointer<AVInputFormat>?
        if let inputFormat {
            // Device inputs live in libavdevice, loaded on first use (see CFFmpeg.h).
            var reason = [CChar](repeating: 0, count: 512)
            guard reel_avdevice_register_all(&reason, reason.count) == 0 else {
                throw CaptureError(source: url, reason: "libavdevice cannot be loaded (\(String(cString: reason))); install Debian's libavdevice59")
            }
            input = av_find_input_format(inputFormat)
            guard input != nil else {
                throw CaptureError(source: url, reason: "this FFmpeg has no '\(inputFormat)' input (libavdevice)")
            }
        }
        var context = avformat_alloc_context()
        context?.pointee.interrupt_callback.callback = { opaque in
            guard let opaque else { return 0 }
            return Unmanaged<Interrupt>.fromOpaque(opaque).takeUnretainedValue().shouldAbort ? 1 : 0
        }
        context?.pointee.interrupt_callback.opaque = Unmanaged.passUnretained(interrupt).toOpaque()
        var dictionary: OpaquePointer?
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        let opened = avformat_open_input(&context, url, input, &dictionary)
        guard opened >= 0 else {
            throw CaptureError(source: url, reason: MediaReader.explainOpenFailure(url: url, code: opened))
        }
        formatContext = context
        let found = avformat_find_stream_info(context, nil)
        guard found >= 0 else {
            close()
            throw CaptureError(source: url, reason: "cannot read the media streams (\(FFmpegError.text(for: found))); is the file corrupt?")
        }
        if wantVideo { videoStream = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0) }
        if wantAudio { audioStream = av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) }
        if wantVideo && videoStream < 0 {
            close()
            throw CaptureError(source: url, reason: "there is no video stream in it")
        }
        do {
            if videoStream >= 0 { videoDecoder = try openDecoder(stream: videoStream) }
            if audioStream >= 0 { audioDecoder = try openDecoder(stream: audioStream) }
        } catch {
            close()
            throw CaptureError(source: url, reason: "\(error)")
        }
        packet = av_packet_alloc()
    }

    deinit { close() }

    private static func explainOpenFailure(url: String, code: Int32) -> String {
        let text = FFmpegError.text(for: code)
        if code == AV.error(ENOENT) { return "no such file or device. Check the path." }
        if code == AV.error(EACCES) { return "permission denied (\(text)). Check the file or device permissions (the 'video' group for cameras)." }
        if code == AV.error(EBUSY) { return "the device is busy: another program is using it." }
        return "cannot open it: \(text). Is it a media file or device FFmpeg can read?"
    }

    private func openDecoder(stream index: Int32) throws -> UnsafeMutablePointer<AVCodecContext> {
        let stream = formatContext!.pointee.streams[Int(index)]!
        guard let codec = avcodec_find_decoder(stream.pointee.codecpar.pointee.codec_id) else {
            throw FFmpegError("finding a decoder for stream \(index)", code: AV.error(ENOSYS))
        }
        guard let decoder = avcodec_alloc_context3(codec) else { throw FFmpegError("allocating a decoder", code: AV.error(ENOMEM)) }
        do {
            try check(avcodec_parameters_to_context(decoder, stream.pointee.codecpar), "configuring decoder \(String(cString: codec.pointee.name))")
            decoder.pointee.pkt_timebase = stream.pointee.time_base
            decoder.pointee.thread_count = 0
            try check(avcodec_open2(decoder, codec, nil), "opening decoder \(String(cString: codec.pointee.name))")
        } catch {
            var d: UnsafeMutablePointer<AVCodecContext>? = decoder
            avcodec_free_context(&d)
            throw error
        }
        return decoder
    }

    /// Frees everything; safe to call twice.
    func close() {
        if packet != nil { av_packet_free(&packet) }
        if videoDecoder != nil { avcodec_free_context(&videoDecoder) }
        if audioDecoder != nil { avcodec_free_context(&audioDecoder) }
        if formatContext != nil { avformat_close_input(&formatContext) }
    }

    /// The video stream's size and frame rate.
    var videoFormat: (width: Int, height: Int, framesPerSecond: Double)? {
        guard let decoder = videoDecoder, let stream = formatContext?.pointee.streams[Int(videoStream)] else { return nil }
        var rate = stream.pointee.avg_frame_rate
        if rate.num <= 0 || rate.den <= 0 { rate = stream.pointee.r_frame_rate }
        let fps = rate.num > 0 && rate.den > 0 ? Double(rate.num) / Double(rate.den) : 30
        return (Int(decoder.pointee.width), Int(decoder.pointee.height), fps)
    }

    /// The video stream's time base and its duration from the header in that base (nil when
    /// the header does not say).
    var videoTiming: (timeBase: AVRational, duration: Int64?)? {
        guard videoStream >= 0, let stream = formatContext?.pointee.streams[Int(videoStream)] else { return nil }
        let duration = stream.pointee.duration
        return (stream.pointee.time_base, duration != AV.noPTS && duration > 0 ? duration : nil)
    }

    /// The video decoder's codec name ("h264", "png", …).
    var videoCodecName: String? {
        guard let codec = videoDecoder?.pointee.codec?.pointee.name else { return nil }
        return String(cString: codec)
    }

    /// The demuxer's name ("mov,mp4,m4a,3gp,3g2,mj2", "png_pipe", "image2", …).
    var formatName: String? {
        guard let name = formatContext?.pointee.iformat?.pointee.name else { return nil }
        return String(cString: name)
    }

    /// Whether the input holds an audio stream (also when its decoder was not opened).
    var hasAudioStream: Bool {
        guard let context = formatContext else { return false }
        return av_find_best_stream(context, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0) >= 0
    }

    /// The input's `creation_time` tag (ISO 8601), when it has one.
    var creationTime: String? {
        guard let context = formatContext, let entry = av_dict_get(context.pointee.metadata, "creation_time", nil, 0) else { return nil }
        return String(cString: entry.pointee.value)
    }

    /// The audio stream's rate and channels.
    var audioFormat: (sampleRate: Int, channels: Int)? {
        guard let decoder = audioDecoder else { return nil }
        return (Int(decoder.pointee.sample_rate), Int(decoder.pointee.ch_layout.nb_channels))
    }

    /// The input's start time in nanoseconds (first timestamp), when known.
    var startTime: Int64? {
        guard let context = formatContext, context.pointee.start_time != AV.noPTS else { return nil }
        return av_rescale_q(context.pointee.start_time, reel_av_time_base_q(), AVRational(num: 1, den: 1_000_000_000))
    }

    /// Moves to the key frame at or before `nanoseconds` (the input's own clock) and drops
    /// what the decoders held, so the next frames read are from there.
    func seek(toNanoseconds nanoseconds: Int64) throws {
        guard let context = formatContext else { return }
        let target = av_rescale_q(nanoseconds, AVRational(num: 1, den: 1_000_000_000), reel_av_time_base_q())
        try check(av_seek_frame(context, -1, target, AVSEEK_FLAG_BACKWARD), "seeking in \(name)")
        if let videoDecoder { avcodec_flush_buffers(videoDecoder) }
        if let audioDecoder { avcodec_flush_buffers(audioDecoder) }
    }

    /// The input's duration in nanoseconds, when known.
    var durationNanoseconds: Int64? {
        guard let context = formatContext, context.pointee.duration != AV.noPTS, context.pointee.duration > 0 else { return nil }
        return av_rescale_q(context.pointee.duration, reel_av_time_base_q(), AVRational(num: 1, den: 1_000_000_000))
    }

    /// One decoded frame with its timestamp in nanoseconds of the input's own clock.
    enum Decoded {
        case video(UnsafeMutablePointer<AVFrame>, ns: Int64)
        case audio(UnsafeMutablePointer<AVFrame>, ns: Int64)
    }

    /// Reads and decodes until at least one frame is ready; calls `body` for each frame in
    /// decoding order. Returns false at the end of the input. Throws when reading fails.
    func readFrames(_ body: (Decoded) throws -> Void) throws -> Bool {
        guard let context = formatContext, let packet else { return false }
        let status = av_read_frame(context, packet)
        if status == AV.eof {
            try drain(videoDecoder, isVideo: true, flush: true, body)
            try drain(audioDecoder, isVideo: false, flush: true, body)
            return false
        }
        if status == AV.eagain { return true }
        if status < 0 {
            if interrupt.stopped.load(ordering: .relaxed) { return false }
            if interrupt.stalled {
                throw CaptureError(source: name, reason: "stopped delivering for \(interrupt.stallNanoseconds / 1_000_000_000) s (unplugged, or taken by another program?)")
            }
            throw CaptureError(source: name, reason: "reading failed: \(FFmpegError.text(for: status)). The device vanished or the file is damaged.")
        }
        interrupt.touch()
        defer { av_packet_unref(packet) }
        let isVideo = packet.pointee.stream_index == videoStream
        guard isVideo || packet.pointee.stream_index == audioStream,
              let decoder = isVideo ? videoDecoder : audioDecoder else { return true }
        let sent = avcodec_send_packet(decoder, packet)
        if sent < 0 && sent != AV.eagain {
            // A damaged packet: FFmpeg has logged it; skip it as players do, keep going.
            return true
        }
        try drain(decoder, isVideo: isVideo, flush: false, body)
        return true
    }

    private func drain(_ decoder: UnsafeMutablePointer<AVCodecContext>?, isVideo: Bool, flush: Bool,
                       _ body: (Decoded) throws -> Void) throws {
        guard let decoder, let context = formatContext else { return }
        if flush { avcodec_send_packet(decoder, nil) }
        let stream = context.pointee.streams[Int(isVideo ? videoStream : audioStream)]!
        let nanos = AVRational(num: 1, den: 1_000_000_000)
        while true {
            guard let frame = av_frame_alloc() else { throw FFmpegError("allocating a frame", code: AV.error(ENOMEM)) }
            let status = avcodec_receive_frame(decoder, frame)
            if status < 0 {
                var f: UnsafeMutablePointer<AVFrame>? = frame
                av_frame_free(&f)
                if status == AV.eagain || status == AV.eof { return }
                throw CaptureError(source: name, reason: "decoding failed: \(FFmpegError.text(for: status))")
            }
            let ts = frame.pointee.best_effort_timestamp != AV.noPTS ? frame.pointee.best_effort_timestamp : frame.pointee.pts
            let ns = ts == AV.noPTS ? Int64.min : av_rescale_q(ts, stream.pointee.time_base, nanos)
            try body(isVideo ? .video(frame, ns: ns) : .audio(frame, ns: ns))
        }
    }
}
