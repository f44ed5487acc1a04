import CFFmpeg
import Foundation
import ReelCore

/// Copies the streams of one MP4 (any layout, e.g. fragmented) into a normal MP4 with the
/// moov box first ("faststart": a player can start and seek before it has the whole file).
/// Nothing is re-encoded.
public enum MP4Remuxer {
    /// What the copy holds.
    public struct Summary: Sendable, Equatable {
        /// Video packets (pictures) in the file.
        public var packets: Int
        /// The video's duration (first picture to the end of the last), or zero without video.
        public var duration: MediaTime
    }

    /// Copies `input` to `output` (created; an existing file is replaced), moov first. The
    /// input's global metadata (title, comment) is kept. `videoEnd` is where the last picture
    /// ends (a fragmented input does not carry its duration): without it the copy ends where
    /// the last picture starts.
    @discardableResult
    public static func faststart(from input: String, to output: String, videoEnd: MediaTime? = nil) throws -> Summary {
        FFmpegLog.quietByDefault
        var inContext: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&inContext, input, nil, nil), "opening \(input)")
        defer { avformat_close_input(&inContext) }
        try check(avformat_find_stream_info(inContext, nil), "reading the streams of \(input)")
        var outContext: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&outContext, nil, "mp4", output), "preparing \(output)")
        guard let outContext, let inContext else { throw FFmpegError("preparing \(output)", code: AV.error(ENOMEM)) }
        defer {
            if outContext.pointee.pb != nil { avio_closep(&outContext.pointee.pb) }
            avformat_free_context(outContext)
        }
        av_dict_copy(&outContext.pointee.metadata, inContext.pointee.metadata, 0)
        var map: [Int32] = []
        var video: Int32 = -1
        for index in 0..<Int(inContext.pointee.nb_streams) {
            let stream = inContext.pointee.streams[index]!
            let type = stream.pointee.codecpar.pointee.codec_type
            guard type == AVMEDIA_TYPE_VIDEO || type == AVMEDIA_TYPE_AUDIO, let out = avformat_new_stream(outContext, nil) else {
                map.append(-1)
                continue
            }
            try check(avcodec_parameters_copy(out.pointee.codecpar, stream.pointee.codecpar), "copying stream \(index)")
            out.pointee.time_base = stream.pointee.time_base
            if stream.pointee.codecpar.pointee.codec_id != AV_CODEC_ID_HEVC { out.pointee.codecpar.pointee.codec_tag = 0 }
            if type == AVMEDIA_TYPE_VIDEO && video < 0 { video = out.pointee.index }
            map.append(out.pointee.index)
        }
        try check(avio_open(&outContext.pointee.pb, output, reel_avio_flag_write()), "creating \(output)")
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "faststart", 0)
        try check(avformat_write_header(outContext, &options), "writing the header of \(output)")
        var packets = 0
        var span = VideoSpan()
        let videoBase = video >= 0 ? outContext.pointee.streams[Int(video)]!.pointee.time_base : AVRational(num: 1, den: 90_000)
        let hold = try videoEnd.flatMap { video >= 0 ? try VideoPacketHold(end: VideoPacketHold.ticks($0, in: videoBase)) : nil }
        func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
            span.add(packet, timeBase: videoBase)
            try check(av_interleaved_write_frame(outContext, packet), "writing \(output)")
        }
        try forEachPacket(of: inContext, path: input) { packet in
            let index = Int(packet.pointee.stream_index)
            guard index < map.count, map[index] >= 0 else { return }
            let inBase = inContext.pointee.streams[index]!.pointee.time_base
            let out = outContext.pointee.streams[Int(map[index])]!
            packet.pointee.stream_index = map[index]
            av_packet_rescale_ts(packet, inBase, out.pointee.time_base)
            packet.pointee.pos = -1
            if map[index] == video {
                packets += 1
                if let hold { try hold.pass(packet, write: writeVideo) } else { try writeVideo(packet) }
            } else {
                try check(av_interleaved_write_frame(outContext, packet), "writing \(output)")
            }
        }
        try hold?.finish(write: writeVideo)
        try check(av_write_trailer(outContext), "finishing \(output)")
        return Summary(packets: packets, duration: span.duration)
    }

    /// Reads every packet of `path` without writing anything: the video's packets and duration
    /// as ``faststart(from:to:)`` would report them (to describe a file already finished).
    public static func summary(of path: String) throws -> Summary {
        FFmpegLog.quietByDefault
        var context: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&context, path, nil, nil), "opening \(path)")
        defer { avformat_close_input(&context) }
        guard let context else { throw FFmpegError("opening \(path)", code: AV.error(ENOMEM)) }
        try check(avformat_find_stream_info(context, nil), "reading the streams of \(path)")
        let video = av_find_best_stream(context, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        var packets = 0
        var span = VideoSpan()
        try forEachPacket(of: context, path: path) { packet in
            guard packet.pointee.stream_index == video else { return }
            span.add(packet, timeBase: context.pointee.streams[Int(video)]!.pointee.time_base)
            packets += 1
        }
        return Summary(packets: packets, duration: span.duration)
    }

    /// Calls `body` with every packet of `context` in file order (the packet is unreferenced
    /// after each call).
    private static func forEachPacket(of context: UnsafeMutablePointer<AVFormatContext>, path: String,
                                      _ body: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard let packet = av_packet_alloc() else { throw FFmpegError("allocating a packet", code: AV.error(ENOMEM)) }
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        defer { av_packet_free(&owned) }
        while true {
            let status = av_read_frame(context, packet)
            if status == AV.eof { return }
            try check(status, "reading \(path)")
            defer { av_packet_unref(packet) }
            try body(packet)
        }
    }

    /// The video's span over its packets: the earliest presentation time to the end of the
    /// latest packet (the faststart copy, the summary and the merge all measure it so).
    struct VideoSpan {
        private var first: MediaTime?, end: MediaTime?

        mutating func add(_ packet: UnsafeMutablePointer<AVPacket>, timeBase: AVRational) {
            guard packet.pointee.pts != AV.noPTS else { return }
            let start = MediaTime(value: packet.pointee.pts, timescale: timeBase.den) * Int64(timeBase.num)
            let stop = MediaTime(value: packet.pointee.pts + max(packet.pointee.duration, 0), timescale: timeBase.den) * Int64(timeBase.num)
            first = min(first ?? start, start)
            end = max(end ?? stop, stop)
        }

        var duration: MediaTime { first.flatMap { f in end.map { $0 - f } } ?? .zero }
    }
}
