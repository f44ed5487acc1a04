import CFFmpeg
import ReelCore

/// Holds back the latest video packet of a stream copy so that the last one can be given its
/// duration before it is written. The mov demuxer hands the last packet of a fragmented MP4
/// over without a duration, and the MP4 muxer ends the track where that packet starts: the
/// last picture of every copy lasted 0 s (a 24-picture 2.4 s timelapse became 2.3 s, a
/// one-picture one 0 s). Packets are in decoding order and, as Reel encodes them, without
/// reordering (pts = dts).
final class VideoPacketHold {
    private let packet: UnsafeMutablePointer<AVPacket>
    private var holding = false
    /// Where the last picture ends, in the output stream's time base.
    private let end: Int64

    /// A hold whose last packet lasts until `end` (in the output time base).
    init(end: Int64) throws {
        guard let packet = av_packet_alloc() else { throw FFmpegError("allocating a packet", code: AV.error(ENOMEM)) }
        self.packet = packet
        self.end = end
    }

    deinit {
        var owned: UnsafeMutablePointer<AVPacket>? = packet
        av_packet_free(&owned)
    }

    /// Writes the packet held so far (lasting until `next` when it has no duration) and holds
    /// `next` instead (its reference is moved here; `next` is left blank).
    func pass(_ next: UnsafeMutablePointer<AVPacket>, write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        if holding {
            if packet.pointee.duration <= 0, packet.pointee.dts != AV.noPTS, next.pointee.dts != AV.noPTS {
                packet.pointee.duration = max(0, next.pointee.dts - packet.pointee.dts)
            }
            defer { av_packet_unref(packet) }
            try write(packet)
        }
        av_packet_move_ref(packet, next)
        holding = true
    }

    /// Writes the last packet, lasting until the end (when that is after its start).
    func finish(write: (UnsafeMutablePointer<AVPacket>) throws -> Void) throws {
        guard holding else { return }
        holding = false
        if packet.pointee.pts != AV.noPTS, end > packet.pointee.pts { packet.pointee.duration = end - packet.pointee.pts }
        defer { av_packet_unref(packet) }
        try write(packet)
    }

    /// `time` in `base` (the output stream's time base).
    static func ticks(_ time: MediaTime, in base: AVRational) -> Int64 {
        av_rescale_q(time.nanoseconds, AVRational(num: 1, den: 1_000_000_000), base)
    }
}
