import CFFmpeg
import Foundation
import ReelCore

/// The libavformat MP4 muxer with Reel's lifecycle: prepare (streams from the encoders) →
/// header → write → flush → trailer → teardown, where teardown always runs.
///
/// Output goes either to a file (the archive) or, through a custom AVIOContext, into a byte
/// buffer the segmenter cuts into init and media segments; the muxer never sees a path then.
final class MP4Muxer {
    enum Output {
        /// A file at this path.
        case file(String)
        /// Bytes into memory, taken with ``takeBytes()``.
        case memory
    }

    private var context: UnsafeMutablePointer<AVFormatContext>?
    private var customIO: UnsafeMutablePointer<AVIOContext>?
    private let buffer = ByteBuffer()
    private var streams: [(stream: UnsafeMutablePointer<AVStream>, encoderTimeBase: AVRational)] = []
    private var headerWritten = false
    private var trailerWritten = false
    private let description: String

    /// Bytes written through the custom AVIOContext.
    final class ByteBuffer {
        var data = Data()
    }

    init(output: Output, movflags: String, fragmentDuration: Int? = nil) throws {
        var ctx: UnsafeMutablePointer<AVFormatContext>?
        let path: String? = if case .file(let p) = output { p } else { nil }
        description = path ?? "memory"
        try check(avformat_alloc_output_context2(&ctx, nil, "mp4", path), "preparing the MP4 muxer")
        context = ctx
        switch output {
        case .file(let path):
            let status = avio_open(&ctx!.pointee.pb, path, reel_avio_flag_write())
            if status < 0 {
                avformat_free_context(ctx)
                context = nil
                throw FFmpegError("creating \(path)", code: status)
            }
        case .memory:
            let size: Int32 = 64 * 1024
            guard let ioBuffer = av_malloc(Int(size)) else { throw FFmpegError("allocating muxer I/O", code: AV.error(ENOMEM)) }
            let opaque = Unmanaged.passUnretained(buffer).toOpaque()
            customIO = avio_alloc_context(ioBuffer.assumingMemoryBound(to: UInt8.self), size, 1, opaque, nil, { opaque, bytes, count in
                guard let opaque, let bytes, count > 0 else { return 0 }
                Unmanaged<ByteBuffer>.fromOpaque(opaque).takeUnretainedValue().data.append(bytes, count: Int(count))
                return count
            }, nil)
            guard customIO != nil else { throw FFmpegError("allocating muxer I/O", code: AV.error(ENOMEM)) }
            ctx!.pointee.pb = customIO
            ctx!.pointee.flags |= Int32(AVFMT_FLAG_CUSTOM_IO)
        }
        self.movflags = movflags
        self.fragmentDuration = fragmentDuration
    }

    private let movflags: String
    private let fragmentDuration: Int?

    deinit { teardown() }

    /// Adds a stream carrying `encoder`'s output; returns its index.
    @discardableResult
    func addStream(from encoder: UnsafeMutablePointer<AVCodecContext>) throws -> Int {
        guard let context, let stream = avformat_new_stream(context, nil) else {
            throw FFmpegError("adding a stream to \(description)", code: AV.error(ENOMEM))
        }
        try check(avcodec_parameters_from_context(stream.pointee.codecpar, encoder), "describing a stream")
        stream.pointee.time_base = encoder.pointee.time_base
        if encoder.pointee.codec_id == AV_CODEC_ID_HEVC {
            // hvc1: parameter sets in the sample description, as HLS players expect.
            stream.pointee.codecpar.pointee.codec_tag = MKTAG("h", "v", "c", "1")
        }
        streams.append((stream, encoder.pointee.time_base))
        return streams.count - 1
    }

    private func MKTAG(_ a: Character, _ b: Character, _ c: Character, _ d: Character) -> UInt32 {
        UInt32(a.asciiValue!) | UInt32(b.asciiValue!) << 8 | UInt32(c.asciiValue!) << 16 | UInt32(d.asciiValue!) << 24
    }

    /// Writes the header (with delay_moov, nothing reaches the output yet); `metadata` are
    /// global tags such as "title" and "comment".
    func writeHeader(metadata: [String: String] = [:]) throws {
        guard let context else { return }
        for (key, value) in metadata.sorted(by: { $0.key < $1.key }) { av_dict_set(&context.pointee.metadata, key, value, 0) }
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", movflags, 0)
        if let fragmentDuration { av_dict_set(&options, "frag_duration", String(fragmentDuration), 0) }
        try check(avformat_write_header(context, &options), "writing the MP4 header of \(description)")
        headerWritten = true
    }

    /// Writes one encoded packet of stream `index` (timestamps in the encoder's time base).
    func write(_ packet: UnsafeMutablePointer<AVPacket>, stream index: Int) throws {
        guard let context else { return }
        let (stream, encoderBase) = streams[index]
        packet.pointee.stream_index = Int32(index)
        av_packet_rescale_ts(packet, encoderBase, stream.pointee.time_base)
        // av_interleaved_write_frame takes the packet's reference; give it a copy.
        guard let copy = av_packet_clone(packet) else { throw FFmpegError("copying a packet", code: AV.error(ENOMEM)) }
        var owned: UnsafeMutablePointer<AVPacket>? = copy
        defer { av_packet_free(&owned) }
        try check(av_interleaved_write_frame(context, copy), "writing to \(description)")
    }

    /// Ends the current fragment: everything queued for interleaving, then a fragment flush.
    func flushFragment() throws {
        guard let context else { return }
        try check(av_interleaved_write_frame(context, nil), "flushing the interleaving queue")
        try check(av_write_frame(context, nil), "flushing a fragment")
        avio_flush(context.pointee.pb)
    }

    /// Writes the trailer.
    func writeTrailer() throws {
        guard let context, headerWritten, !trailerWritten else { return }
        trailerWritten = true
        try check(av_write_trailer(context), "finishing \(description)")
        avio_flush(context.pointee.pb)
        // A write that failed in the last flush (a disk that filled up) is only in the
        // context's error: the trailer's own result does not always carry it.
        if let pb = context.pointee.pb, pb.pointee.error < 0 { throw FFmpegError("finishing \(description)", code: pb.pointee.error) }
    }

    /// The bytes written to memory since the last call.
    func takeBytes() -> Data {
        let data = buffer.data
        buffer.data = Data()
        return data
    }

    /// Frees everything; closes the file. Always safe to call, also after failures.
    func teardown() {
        if let context {
            if customIO == nil, context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
            avformat_free_context(context)
            self.context = nil
        }
        if customIO != nil {
            av_freep(&customIO!.pointee.buffer)
            avio_context_free(&customIO)
        }
    }
}
