import CFFmpeg
import Foundation
import ReelCore

/// Encodes video and audio and cuts fragmented MP4 for HLS: one init segment (ftyp + moov),
/// then one media segment (moof + mdat) per key frame. Hands bytes to its caller and never
/// opens a path.
///
/// Segments are cut where the encoder *outputs* a key frame, so a segment always starts with
/// its IDR whatever the encoder's delay; callers decide where key frames go (for HLS: at
/// every segment boundary, see `SegmentCutPolicy`). Not thread-safe: one owner thread.
public final class FMP4Segmenter {
    /// A finished media segment.
    public struct Segment: Sendable {
        /// The moof + mdat bytes.
        public var bytes: Data
        /// Stream time of its first video frame.
        public var start: MediaTime
        /// Stream time where the next segment starts (or where this one's last frame ends).
        public var end: MediaTime
        /// The real duration, for EXTINF.
        public var duration: MediaTime { end - start }
    }

    private let core: EncodingMuxer
    private var initSegment: Data?
    private var currentStart: Int64?
    private var ready: [Segment] = []
    private let frameTicks: Int64

    /// movflags that give separately deliverable init and media segments.
    static let movflags = "frag_custom+delay_moov+default_base_moof+skip_trailer"

    /// A segmenter encoding with `video` and `audio` (nil: no audio track).
    public init(video: VideoEncoderSettings, audio: AudioEncoderSettings?) throws {
        core = try EncodingMuxer(video: video, audio: audio, output: .memory, movflags: FMP4Segmenter.movflags, repeatsPictures: true)
        frameTicks = Int64(90_000 / max(video.framesPerSecond, 1))
        core.beforeVideoPacket = { [unowned self] packet in
            guard packet.pointee.flags & reel_pkt_flag_key() != 0 else { return }
            try self.cut(at: packet.pointee.pts)
        }
    }

    /// Encodes a picture at stream time `pts`; `keyFrame` makes it start a new segment.
    public func appendVideo(_ frame: VideoFrame, pts: MediaTime, keyFrame: Bool) throws {
        try core.appendVideo(frame, pts: pts, keyFrame: keyFrame)
    }

    /// Encodes the previous picture again at `pts` (bridging a gap in the capture).
    public func repeatLastVideo(pts: MediaTime, keyFrame: Bool) throws {
        try core.repeatLastVideo(pts: pts, keyFrame: keyFrame)
    }

    /// Encodes audio whose first sample is at stream time `pts`.
    public func appendAudio(_ block: AudioBlock, pts: MediaTime) throws {
        try core.appendAudio(block, pts: pts)
    }

    /// The init segment, once the first media segment has been cut (nil before).
    public func takeInitSegment() -> Data? {
        guard !initSegmentTaken, let initSegment else { return nil }
        initSegmentTaken = true
        return initSegment
    }
    private var initSegmentTaken = false

    /// Media segments completed since the last call, in order.
    public func takeSegments() -> [Segment] {
        defer { ready.removeAll() }
        return ready
    }

    /// Flushes the encoders and cuts the last (usually short) segment.
    public func finish() throws {
        try core.finishEncoders()
        if let last = core.lastVideoPTS { try cut(at: last + frameTicks) }
        core.muxer.teardown()
    }

    /// Ends the segment in progress at `pts` (1/90000), before the packet at `pts` is written.
    private func cut(at pts: Int64) throws {
        guard let start = currentStart else {
            currentStart = pts
            return
        }
        try core.muxer.flushFragment()
        var bytes = core.muxer.takeBytes()
        if initSegment == nil {
            // With delay_moov the first flush writes only ftyp + moov; the second, the fragment.
            try core.muxer.flushFragment()
            bytes += core.muxer.takeBytes()
            let split = MP4Boxes.endOfInit(in: bytes)
            guard let split else { throw FFmpegError("finding the moov box in the first fragment", code: AV.error(EINVAL)) }
            initSegment = Data(bytes.prefix(split))
            bytes = Data(bytes.dropFirst(split))
        }
        ready.append(Segment(bytes: bytes, start: MediaTime(value: start, timescale: 90_000),
                             end: MediaTime(value: pts, timescale: 90_000)))
        currentStart = pts
    }
}

/// Reading top-level ISO BMFF boxes.
enum MP4Boxes {
    /// Top-level box types and sizes in `data`, in order (stops at a damaged box).
    static func topLevel(_ data: Data) -> [(type: String, offset: Int, size: Int)] {
        var boxes: [(String, Int, Int)] = []
        var offset = 0
        let bytes = [UInt8](data)
        while offset + 8 <= bytes.count {
            var size = Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
            if size == 1, offset + 16 <= bytes.count {
                size = bytes[(offset + 8)..<(offset + 16)].reduce(0) { $0 << 8 | Int($1) }
            } else if size == 0 {
                size = bytes.count - offset
            }
            guard size >= 8, offset + size <= bytes.count else { break }
            boxes.append((type, offset, size))
            offset += size
        }
        return boxes
    }

    /// The byte offset just past the `moov` box (the end of an init segment), if present.
    static func endOfInit(in data: Data) -> Int? {
        topLevel(data).first { $0.type == "moov" }.map { $0.offset + $0.size }
    }
}
