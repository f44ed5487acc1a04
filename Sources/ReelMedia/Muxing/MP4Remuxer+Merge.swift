import CFFmpeg
import Foundation
import ReelCore

extension MP4Remuxer {
    /// Why audio cannot be copied.
    public struct AudioCopyError: Error, CustomStringConvertible {
        /// The source and its audio codec.
        public var source: String, codec: String
        public var description: String {
            "the audio of \(source) (\(codec)) cannot be copied into an MP4 as it is; export without it (--no-audio) or convert it first"
        }
    }

    /// Writes `output` (created; an existing file is replaced): the video stream of `videoPath`
    /// (a Reel-encoded file whose timestamps start at the source's start) and, when
    /// `audioSource` is given and has audio, that audio stream copied packet for packet (not
    /// re-encoded), moved by the source's start time onto the same timeline; moov first.
    /// Packets are interleaved by decoding time as they are read, never all held in memory.
    /// `videoEnd` is where the last picture ends (its own duration; the fragmented input does
    /// not carry it): without it the copy ends where the last picture starts.
    @discardableResult
    public static func merge(video videoPath: String, audioFrom audioSource: String?, to output: String,
                             metadata: [String: String] = [:], videoEnd: MediaTime? = nil) throws -> Summary {
        FFmpegLog.quietByDefault
        var videoInput: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_open_input(&videoInput, videoPath, nil, nil), "opening \(videoPath)")
        defer { avformat_close_input(&videoInput) }
        guard let videoIn = videoInput else { throw FFmpegError("opening \(videoPath)", code: AV.error(ENOMEM)) }
        try check(avformat_find_stream_info(videoIn, nil), "reading the streams of \(videoPath)")
        let videoIndex = av_find_best_stream(videoIn, AVMEDIA_TYPE_VIDEO, -1, -1, nil, 0)
        guard videoIndex >= 0 else { throw FFmpegError("finding the video in \(videoPath)", code: AV.error(EINVAL)) }

        var audioInput: UnsafeMutablePointer<AVFormatContext>?
        defer { if audioInput != nil { avformat_close_input(&audioInput) } }
        var audioIndex: Int32 = -1
        if let audioSource {
            try check(avformat_open_input(&audioInput, audioSource, nil, nil), "opening \(audioSource)")
            try check(avformat_find_stream_info(audioInput, nil), "reading the streams of \(audioSource)")
            audioIndex = av_find_best_stream(audioInput, AVMEDIA_TYPE_AUDIO, -1, -1, nil, 0)
        }

        var outContext: UnsafeMutablePointer<AVFormatContext>?
        try check(avformat_alloc_output_context2(&outContext, nil, "mp4", output), "preparing \(output)")
        guard let out = outContext else { throw FFmpegError("preparing \(output)", code: AV.error(ENOMEM)) }
        defer {
            if out.pointee.pb != nil { avio_closep(&out.pointee.pb) }
            avformat_free_context(out)
        }
        for (key, value) in metadata { av_dict_set(&out.pointee.metadata, key, value, 0) }

        func addStream(copying stream: UnsafeMutablePointer<AVStream>) throws -> UnsafeMutablePointer<AVStream> {
            guard let copy = avformat_new_stream(out, nil) else { throw FFmpegError("adding a stream to \(output)", code: AV.error(ENOMEM)) }
            try check(avcodec_parameters_copy(copy.pointee.codecpar, stream.pointee.codecpar), "copying stream parameters")
            copy.pointee.codecpar.pointee.codec_tag = 0
            copy.pointee.time_base = stream.pointee.time_base
            return copy
        }
        let videoStream = videoIn.pointee.streams[Int(videoIndex)]!
        let videoOut = try addStream(copying: videoStream)
        var audioStream: UnsafeMutablePointer<AVStream>?, audioOut: UnsafeMutablePointer<AVStream>?
        var audioShift: Int64 = 0
        if audioIndex >= 0, let audioIn = audioInput {
            let stream = audioIn.pointee.streams[Int(audioIndex)]!
            let codec = stream.pointee.codecpar.pointee.codec_id
            guard avformat_query_codec(out.pointee.oformat, codec, FF_COMPLIANCE_NORMAL) == 1 else {
                throw AudioCopyError(source: audioSource ?? "", codec: avcodec_get_name(codec).map { String(cString: $0) } ?? "unknown")
            }
            audioStream = stream
            audioOut = try addStream(copying: stream)
            let start = audioIn.pointee.start_time
            if start != AV.noPTS { audioShift = av_rescale_q(start, reel_av_time_base_q(), stream.pointee.time_base) }
        }

        try check(avio_open(&out.pointee.pb, output, reel_avio_flag_write()), "creating \(output)")
        var options: OpaquePointer?
        defer { av_dict_free(&options) }
        av_dict_set(&options, "movflags", "faststart", 0)
        try check(avformat_write_header(out, &options), "writing the header of \(output)")

        // Two pull readers, merged by decoding time.
        final class Reader {
            let context: UnsafeMutablePointer<AVFormatContext>
            let index: Int32
            let packet: UnsafeMutablePointer<AVPacket>
            var ready = false, ended = false
            init(_ context: UnsafeMutablePointer<AVFormatContext>, index: Int32) throws {
                self.context = context
                self.index = index
                guard let packet = av_packet_alloc() else { throw FFmpegError("allocating a packet", code: AV.error(ENOMEM)) }
                self.packet = packet
            }
            deinit { var p: UnsafeMutablePointer<AVPacket>? = packet; av_packet_free(&p) }
            /// Makes the next packet of the wanted stream ready (false at the end).
            func fill(_ path: String) throws -> Bool {
                while !ready && !ended {
                    let status = av_read_frame(context, packet)
                    if status == AV.eof { ended = true; break }
                    try check(status, "reading \(path)")
                    if packet.pointee.stream_index == index { ready = true } else { av_packet_unref(packet) }
                }
                return ready
            }
        }
        let video = try Reader(videoIn, index: videoIndex)
        let outBase = videoOut.pointee.time_base
        let hold = try videoEnd.map { try VideoPacketHold(end: VideoPacketHold.ticks($0, in: outBase)) }
        let audio = try audioStream.flatMap { _ in try audioInput.map { try Reader($0, index: audioIndex) } }
        var packets = 0
        var first: MediaTime?, end: MediaTime?
        func seconds(_ ts: Int64, _ base: AVRational) -> Double { Double(ts) * Double(base.num) / Double(base.den) }
        func writeVideo(_ p: UnsafeMutablePointer<AVPacket>) throws {
            if p.pointee.pts != AV.noPTS {
                let start = MediaTime(value: p.pointee.pts, timescale: outBase.den) * Int64(outBase.num)
                let stop = MediaTime(value: p.pointee.pts + max(p.pointee.duration, 0), timescale: outBase.den) * Int64(outBase.num)
                first = min(first ?? start, start)
                end = max(end ?? stop, stop)
            }
            try check(av_interleaved_write_frame(out, p), "writing \(output)")
        }
        while true {
            let haveVideo = try video.fill(videoPath)
            let haveAudio = try audio?.fill(audioSource ?? "") ?? false
            guard haveVideo || haveAudio else { break }
            var takeVideo = haveVideo
            if haveVideo, haveAudio, let audio, let audioStream {
                let vd = video.packet.pointee.dts != AV.noPTS ? video.packet.pointee.dts : video.packet.pointee.pts
                let ad = (audio.packet.pointee.dts != AV.noPTS ? audio.packet.pointee.dts : audio.packet.pointee.pts) - audioShift
                takeVideo = seconds(vd, videoStream.pointee.time_base) <= seconds(ad, audioStream.pointee.time_base)
            }
            if takeVideo {
                let p = video.packet
                packets += 1
                p.pointee.stream_index = videoOut.pointee.index
                av_packet_rescale_ts(p, videoStream.pointee.time_base, outBase)
                p.pointee.pos = -1
                video.ready = false
                defer { av_packet_unref(p) }
                if let hold { try hold.pass(p, write: writeVideo) } else { try writeVideo(p) }
            } else if let audio, let audioStream, let audioOut {
                let p = audio.packet
                if p.pointee.pts != AV.noPTS { p.pointee.pts -= audioShift }
                if p.pointee.dts != AV.noPTS { p.pointee.dts -= audioShift }
                p.pointee.stream_index = audioOut.pointee.index
                av_packet_rescale_ts(p, audioStream.pointee.time_base, audioOut.pointee.time_base)
                p.pointee.pos = -1
                audio.ready = false
                defer { av_packet_unref(p) }
                try check(av_interleaved_write_frame(out, p), "writing \(output)")
            }
        }
        try hold?.finish(write: writeVideo)
        try check(av_write_trailer(out), "finishing \(output)")
        return Summary(packets: packets, duration: first.flatMap { f in end.map { $0 - f } } ?? .zero)
    }
}
