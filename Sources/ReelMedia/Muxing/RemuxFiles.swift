import CFFmpeg
import Foundation

/// A file opened for a stream copy, its streams read; closed when released.
final class RemuxInput {
    /// The file.
    let path: String
    /// The demuxer (owned).
    let context: UnsafeMutablePointer<AVFormatContext>

    /// Opens `path` and reads its streams' parameters.
    init(path: String) throws {
        self.path = path
        var opened: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&opened, path, nil, nil), "opening \(path)")
        guard let opened else { throw FFmpegError("opening \(path)", code: AV.error(ENOMEM)) }
        context = opened
        try check(avformat_find_stream_info(context, nil), "reading the streams of \(path)")
    }

    deinit {
        var owned: UnsafeMutablePointer<AVFormatContext>? = context
        avformat_close_input(&owned)
    }

    /// The index of the file's best stream of `type`, nil when it has none.
    func bestStream(_ type: AVMediaType) -> Int32? {
        let index = av_find_best_stream(context, type, -1, -1, nil, 0)
        return index >= 0 ? index : nil
    }
}

/// An MP4 being written by a stream copy (created; an existing file is replaced): the muxer
/// and its file, closed and freed when released (whether or not the trailer was written).
final class RemuxOutput {
    /// The file.
    let path: String
    private let context: UnsafeMutablePointer<AVFormatContext>

    /// An MP4 muxer for `path` with the global tags `metadata`; nothing is created yet.
    init(path: String, metadata: [String: String]) throws {
        self.path = path
        var allocated: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&allocated, nil, "mp4", path), "preparing \(path)")
        guard let allocated else { throw FFmpegError("preparing \(path)", code: AV.error(ENOMEM)) }
        context = allocated
        for (key, value) in metadata { av_dict_set(&context.pointee.metadata, key, value, 0) }
    }

    deinit {
        if context.pointee.pb != nil { avio_closep(&context.pointee.pb) }
        avformat_free_context(context)
    }

    /// Whether an MP4 holds `codec` as it is.
    func accepts(_ codec: AVCodecID) -> Bool {
        avformat_query_codec(context.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1
    }

    /// A new stream with `stream`'s parameters and time base (the codec tag left to the muxer).
    func addStream(copying stream: UnsafeMutablePointer<AVStream>) throws -> UnsafeMutablePointer<AVStream> {
        guard let copy = avformat_new_stream(context, nil) else { throw FFmpegError("adding a stream to \(path)", code: AV.error(ENOMEM)) }
        try check(avcodec_parameters_copy(copy.pointee.codecpar, stream.pointee.codecpar), "copying stream parameters")
        copy.pointee.codecpar.pointee.codec_tag = 0
        copy.pointee.time_base = stream.pointee.time_base
        return copy
    }

    /// Creates the file and writes the header (`faststart`: the moov box goes first at the end).
    func writeHeader(faststart: Bool) throws {
        try check(avio_open(&context.pointee.pb, path, reel_avio_flag_write()), "creating \(path)")
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        if faststart { av_dict_set(&options, "movflags", "faststart", 0) }
        try check(avformat_write_header(context, &options), "writing the header of \(path)")
    }

    /// Writes a packet, interleaved by the muxer.
    func write(_ packet: UnsafeMutablePointer<AVPacket>) throws {
        try check(av_interleaved_write_frame(context, packet), "writing \(path)")
    }

    /// Writes the trailer (and, with faststart, moves the moov box to the front).
    func writeTrailer() throws {
        try check(av_write_trailer(context), "finishing \(path)")
    }
}
