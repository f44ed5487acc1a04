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
///
/// For LL-HLS (`cutsParts`) it also cuts a fragment where the caller marked a part start
/// (`PartCutPolicy`): each part is one moof + mdat, and a segment is its parts' bytes joined,
/// so a player reading parts and one reading the segment get the same fragments.
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

    /// A finished LL-HLS part: one fragment of the segment in progress.
    public struct Part: Sendable {
        /// The moof + mdat bytes.
        public var bytes: Data
        /// Which segment of this segmenter it belongs to (1, 2, …, in the order segments are cut).
        public var segment: Int
        /// Its index in the segment; part 0 starts with the key frame.
        public var index: Int
        /// Stream time of its segment's first frame.
        public var segmentStart: MediaTime
        /// Stream time of its first video frame.
        public var start: MediaTime
        /// Stream time where the next part starts (or where its last frame ends).
        public var end: MediaTime
        /// Whether it ends its segment.
        public var endsSegment: Bool
        /// Whether it starts with a key frame.
        public var isIndependent: Bool { index == 0 }
    }

    private let core: EncodingMuxer
    private var initSegment: Data?
    private var currentStart: Int64?
    private var ready: [Segment] = []
    private let frameTicks: Int64
    private let cutsParts: Bool
    /// Where parts the caller marked start (1/90000), not yet cut, in order.
    private var pendingPartStarts: [Int64] = []
    private var partStart: Int64?
    private var segmentNumber = 0
    private var segmentParts: [Part] = []
    private var readyParts: [Part] = []

    /// movflags that give separately deliverable init and media segments.
    static let movflags = "frag_custom+delay_moov+default_base_moof+skip_trailer"

    /// A segmenter encoding with `video` and `audio` (nil: no audio track); `cutsParts` also
    /// cuts LL-HLS parts where the caller marks them.
    public init(video: VideoEncoderSettings, audio: AudioEncoderSettings?, cutsParts: Bool = false) throws {
        core = try EncodingMuxer(video: video, audio: audio, output: .memory, movflags: FMP4Segmenter.movflags, repeatsPictures: true)
        frameTicks = Int64(90_000 / max(video.framesPerSecond, 1))
        self.cutsParts = cutsParts
        core.beforeVideoPacket = { [unowned self] packet in
            let pts = packet.pointee.pts
            if packet.pointee.flags & reel_pkt_flag_key() != 0 {
                self.pendingPartStarts.removeAll { $0 <= pts }
                try self.cut(at: pts)
            } else if let next = self.pendingPartStarts.first, next <= pts {
                self.pendingPartStarts.removeAll { $0 <= pts }
                try self.cutPart(at: pts)
            }
        }
    }

    /// Encodes a picture at stream time `pts`; `keyFrame` makes it start a new segment, and
    /// `startsPart` a new part (with `cutsParts`).
    public func appendVideo(_ frame: VideoFrame, pts: MediaTime, keyFrame: Bool, startsPart: Bool = false) throws {
        notePartStart(pts, startsPart && !keyFrame)
        try core.appendVideo(frame, pts: pts, keyFrame: keyFrame)
    }

    /// Encodes the previous picture again at `pts` (bridging a gap in the capture).
    public func repeatLastVideo(pts: MediaTime, keyFrame: Bool, startsPart: Bool = false) throws {
        notePartStart(pts, startsPart && !keyFrame)
        try core.repeatLastVideo(pts: pts, keyFrame: keyFrame)
    }

    private func notePartStart(_ pts: MediaTime, _ starts: Bool) {
        guard cutsParts, starts else { return }
        pendingPartStarts.append(pts.converted(to: VideoEncoder.timeBase.den).value)
    }

    /// Parts completed since the last call, in order (only with `cutsParts`). The parts of a
    /// segment all come out no later than the segment.
    public func takeParts() -> [Part] {
        defer { readyParts.removeAll() }
        return readyParts
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
            startSegment(at: pts)
            return
        }
        var bytes = try flushFragment()
        if cutsParts {
            closePart(bytes, at: pts, endsSegment: true)
            bytes = segmentParts.reduce(into: Data()) { $0 += $1.bytes }
            segmentParts.removeAll()
        }
        ready.append(Segment(bytes: bytes, start: MediaTime(value: start, timescale: 90_000),
                             end: MediaTime(value: pts, timescale: 90_000)))
        startSegment(at: pts)
    }

    private func startSegment(at pts: Int64) {
        currentStart = pts
        partStart = pts
        segmentNumber += 1
    }

    /// Ends the part in progress at `pts` (1/90000), inside a segment.
    private func cutPart(at pts: Int64) throws {
        guard currentStart != nil, let partStart, pts > partStart else { return }
        closePart(try flushFragment(), at: pts, endsSegment: false)
        self.partStart = pts
    }

    private func closePart(_ bytes: Data, at pts: Int64, endsSegment: Bool) {
        guard let currentStart, let partStart else { return }
        let part = Part(bytes: bytes, segment: segmentNumber, index: segmentParts.count,
                        segmentStart: MediaTime(value: currentStart, timescale: 90_000),
                        start: MediaTime(value: partStart, timescale: 90_000), end: MediaTime(value: pts, timescale: 90_000),
                        endsSegment: endsSegment)
        segmentParts.append(part)
        readyParts.append(part)
    }

    /// Ends the fragment in progress and returns its moof + mdat (the init segment is taken
    /// out of the first one).
    private func flushFragment() throws -> Data {
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
        return bytes
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
