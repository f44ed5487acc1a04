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
        // Prepare: the inputs, the output and its streams.
        let videoInput = try RemuxInput(path: videoPath)
        guard let videoIndex = videoInput.bestStream(AVMEDIA_TYPE_VIDEO) else {
            throw FFmpegError("finding the video in \(videoPath)", code: AV.error(EINVAL))
        }
        let audioInput = try audioSource.map { try RemuxInput(path: $0) }
        let out = try RemuxOutput(path: output, metadata: metadata)
        let video = try MergeTrack(input: videoInput, index: videoIndex, output: out)
        let audio = try audioInput.flatMap { input in
            try input.bestStream(AVMEDIA_TYPE_AUDIO).map { try MergeTrack(input: input, index: $0, output: out, checkingCodec: true) }
        }
        // Start, supervise, finish.
        try out.writeHeader(faststart: true)
        var span = VideoSpan()
        let hold = try videoEnd.map { try VideoPacketHold(end: VideoPacketHold.ticks($0, in: video.outBase)) }
        func writeVideo(_ packet: UnsafeMutablePointer<AVPacket>) throws {
            span.add(packet, timeBase: video.outBase)
            try out.write(packet)
        }
        let packets = try interleave(video: video, audio: audio) { packet in
            if let hold { try hold.pass(packet, write: writeVideo) } else { try writeVideo(packet) }
        } audio: { packet in
            try out.write(packet)
        }
        try hold?.finish(write: writeVideo)
        try out.writeTrailer()
        return Summary(packets: packets, duration: span.duration)
    }

    /// Copies both tracks' packets in decoding order (the video first on a tie), each moved
    /// onto its output stream's time base, to `video` and `audio`; returns the video packets.
    private static func interleave(video: MergeTrack, audio: MergeTrack?,
                                   video writeVideo: (UnsafeMutablePointer<AVPacket>) throws -> Void,
                                   audio writeAudio: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws -> Int {
        var packets = 0
        while true {
            let haveVideo = try video.fill()
            let haveAudio = try audio?.fill() ?? false
            guard haveVideo || haveAudio else { return packets }
            var takeVideo = haveVideo
            if haveVideo, haveAudio, let audio { takeVideo = video.decodingSeconds <= audio.decodingSeconds }
            if takeVideo {
                packets += 1
                try video.take(writeVideo)
            } else if let audio {
                try audio.take(writeAudio)
            }
        }
    }
}

/// One input track of a merge and its copy in the output: pulls the track's next packet
/// (other streams' packets are skipped) and hands it over moved onto the output's time base.
/// An audio track is shifted by its file's start time onto the video's timeline.
final class MergeTrack {
    private let input: RemuxInput
    private let index: Int32
    private let stream: UnsafeMutablePointer<AVStream>
    private let outStream: UnsafeMutablePointer<AVStream>
    private let packet: UnsafeMutablePointer<AVPacket>
    private var ready = false, ended = false
    /// Ticks (of the input stream) taken off every timestamp.
    private var shift: Int64 = 0

    /// The output stream's time base.
    var outBase: AVRational { outStream.pointee.time_base }

    /// Stream `index` of `input`, with a copy added to `output`. `checkingCodec`: the codec
    /// must be one an MP4 holds as it is (``MP4Remuxer/AudioCopyError``), and the track is
    /// shifted by the input's start time.
    init(input: RemuxInput, index: Int32, output: RemuxOutput, checkingCodec: Bool = false) throws {
        self.input = input
        self.index = index
        stream = input.context.pointee.streams[Int(index)]!
        if checkingCodec {
            let codec = stream.pointee.codecpar.pointee.codec_id
            guard output.accepts(codec) else {
                throw MP4Remuxer.AudioCopyError(source: input.path, codec: avcodec_get_name(codec).map { String(cString: $0) } ?? "unknown")
            }
            let start = input.context.pointee.start_time
            if start != AV.noPTS { shift = av_rescale_q(start, reel_av_time_base_q(), stream.pointee.time_base) }
        }
        outStream = try output.addStream(copying: stream)
        guard let packet = av_packet_alloc() else { throw FFmpegError("allocating a packet", code: AV.error(ENOMEM)) }
        self.packet = packet
    }

    deinit {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// Makes the next packet of the track ready; false at the end.
    func fill() throws -> Bool {
        while !ready && !ended {
            let status = av_read_frame(input.context, packet)
            if status == AV.eof { ended = true; break }
            try check(status, "reading \(input.path)")
            if packet.pointee.stream_index == index { ready = true } else { av_packet_unref(packet) }
        }
        return ready
    }

    /// The ready packet's decoding time (its presentation time when it has none), shifted.
    var decodingSeconds: Double {
        let ts = (packet.pointee.dts != AV.noPTS ? packet.pointee.dts : packet.pointee.pts) - shift
        let base = stream.pointee.time_base
        return Double(ts) * Double(base.num) / Double(base.den)
    }

    /// Hands the ready packet, shifted and rescaled to the output stream, to `write`; the
    /// packet is free again afterwards.
    func take(_ write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if shift != 0 {
            if packet.pointee.pts != AV.noPTS { packet.pointee.pts -= shift }
            if packet.pointee.dts != AV.noPTS { packet.pointee.dts -= shift }
        }
        packet.pointee.stream_index = outStream.pointee.index
        av_packet_rescale_ts(packet, stream.pointee.time_base, outStream.pointee.time_base)
        packet.pointee.pos = -1
        ready = false
        defer { av_packet_unref(packet) }
        try write(packet)
    }
}
