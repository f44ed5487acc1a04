import ReelHLS

/// When a ladder's multivariant playlist is (re)published, and what it says: players pick a
/// rung by `BANDWIDTH`, so it must never list a rung before that rung can be played, and
/// should follow what the encoders really produce.
///
/// - The first version is due once every rung has its init segment (for `CODECS`) and
///   ``firstVersionAfter`` segments (for the bit rates): the multivariant playlist never names
///   a rung whose media playlist does not exist yet. A regular HLS player starts three
///   segments back from the live edge, so a ladder waits for three: one that found a single
///   segment would start with no cushion and freeze on its first slow fragment. An LL-HLS
///   player starts a part hold-back from the edge: one segment is enough.
/// - Another version is due when a rung's peak has grown more than ``tolerance`` above the
///   value last published (an understated `BANDWIDTH` makes players pick a rung they cannot
///   keep up with), or its average moved by more than that either way; smaller changes wait,
///   so the file is not rewritten for every segment.
/// - ``final`` is the exact version for the end of the stream.
///
/// A segment shorter than half the segment interval (the stream's last, cut short) counts
/// toward the average but not the peak: its key frame alone would make it look like a burst.
/// `BANDWIDTH` is never below `AVERAGE-BANDWIDTH`.
public struct MultivariantSchedule: Sendable, Hashable {
    /// A rung as the schedule knows it.
    public struct Rung: Sendable, Hashable {
        /// The rung's media playlist relative to the multivariant one (`high/playlist.m3u8`).
        public var uri: String
        /// Its picture size.
        public var size: VideoDimensions
        /// `CODECS` read from its init segment; nil until it came (or when it named no known codec).
        public var codecs: String?
        /// Whether its init segment came.
        public var hasInit = false
        /// Bit rates of the segments so far.
        public var meter = BandwidthMeter()

        /// A rung with nothing produced yet.
        public init(uri: String, size: VideoDimensions) {
            self.uri = uri
            self.size = size
        }
    }

    /// The relative change of a rung's bit rate that makes a new version due: 10 %.
    public static let tolerance = 0.10

    /// The rungs, in the order the playlist lists them (highest first).
    public private(set) var rungs: [Rung]
    /// The frame rate every rung has.
    public let framesPerSecond: Double
    /// The nominal segment length: shorter segments do not count toward a peak.
    public let segmentInterval: MediaTime
    /// How many segments every rung has before the first version is due (``final`` needs one).
    public let firstVersionAfter: Int
    /// What was last handed out by ``due()``; nil before the first version.
    public private(set) var published: MultivariantPlaylist?

    /// A schedule for `rungs` (highest first) at `framesPerSecond`, cut every `segmentInterval`,
    /// whose first version waits for `firstVersionAfter` segments of every rung (at least one).
    public init(rungs: [Rung], framesPerSecond: Double, segmentInterval: MediaTime, firstVersionAfter: Int) {
        self.rungs = rungs
        self.framesPerSecond = framesPerSecond
        self.segmentInterval = segmentInterval
        self.firstVersionAfter = max(1, firstVersionAfter)
    }

    /// Rung `index` produced its init segment, whose tracks read as `codecs` (``CodecString``).
    public mutating func initSegment(rung index: Int, codecs: String?) {
        rungs[index].hasInit = true
        rungs[index].codecs = codecs
    }

    /// Rung `index` produced a media segment of `bytes` lasting `duration`.
    public mutating func segment(rung index: Int, bytes: Int, duration: MediaTime) {
        rungs[index].meter.add(bytes: bytes, duration: duration, countsTowardPeak: duration * 2 >= segmentInterval)
    }

    /// The version to publish now, if one is due (it is then the one ``published``).
    public mutating func due() -> MultivariantPlaylist? {
        if published == nil, rungs.contains(where: { $0.meter.segments < firstVersionAfter }) { return nil }
        guard let current = playlist() else { return nil }
        if let published, !Self.differs(current, from: published) { return nil }
        published = current
        return current
    }

    /// The playlist from everything measured (nil until every rung has its init and a segment):
    /// what to publish when the stream ends.
    public var final: MultivariantPlaylist? { playlist() }

    /// The playlist (ReelHLS's value, which writes it; ``MultivariantPlaylist``): for each rung
    /// `BANDWIDTH` (the peak segment bit rate) and `AVERAGE-BANDWIDTH` of the bytes produced,
    /// not the encoder's targets (players pick rungs by them, and a target understates what x264
    /// emits around key frames), `CODECS` (left out while unknown), `RESOLUTION`, `FRAME-RATE`.
    private func playlist() -> MultivariantPlaylist? {
        var variants: [MultivariantPlaylist.Variant] = []
        for rung in rungs {
            guard rung.hasInit, let peak = rung.meter.peakBitsPerSecond ?? rung.meter.averageBitsPerSecond,
                  let average = rung.meter.averageBitsPerSecond else { return nil }
            let streamInf = MultivariantPlaylist.StreamInf(
                bandwidth: max(peak, average), averageBandwidth: average, codecs: rung.codecs.flatMap { $0.isEmpty ? nil : $0 },
                resolution: HLSResolution(width: rung.size.width, height: rung.size.height), frameRate: framesPerSecond)
            variants.append(.init(uri: rung.uri, streamInf: streamInf))
        }
        return MultivariantPlaylist(variants: variants)
    }

    /// Whether `current` is worth a new version over `published`: a peak above it by more than
    /// the tolerance, an average off by more than it, or anything else changed.
    static func differs(_ current: MultivariantPlaylist, from published: MultivariantPlaylist) -> Bool {
        guard current.variants.count == published.variants.count else { return true }
        for (now, then) in zip(current.variants, published.variants) {
            if now.uri != then.uri || now.streamInf.codecs != then.streamInf.codecs || now.streamInf.resolution != then.streamInf.resolution {
                return true
            }
            let (peak, previousPeak) = (now.streamInf.bandwidth, then.streamInf.bandwidth)
            let (average, previousAverage) = (now.streamInf.averageBandwidth ?? 0, then.streamInf.averageBandwidth ?? 0)
            if Double(peak) > Double(previousPeak) * (1 + tolerance) { return true }
            if abs(Double(average - previousAverage)) > Double(previousAverage) * tolerance { return true }
        }
        return false
    }
}
