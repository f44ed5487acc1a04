import Foundation

/// The multivariant playlist of an ABR ladder (RFC 8216 §4.3.4.2): one `EXT-X-STREAM-INF` per
/// rung, with what was measured of it, pointing at the rung's media playlist.
///
/// ```
/// #EXTM3U
/// #EXT-X-VERSION:7
/// #EXT-X-INDEPENDENT-SEGMENTS
/// #EXT-X-STREAM-INF:BANDWIDTH=2711000,AVERAGE-BANDWIDTH=2592000,CODECS="avc1.64001f,mp4a.40.2",RESOLUTION=720x1280,FRAME-RATE=30.000
/// high/playlist.m3u8
/// ```
///
/// `BANDWIDTH` is the peak segment bit rate and `AVERAGE-BANDWIDTH` the average over the
/// segments, both of the bytes produced (``BandwidthMeter``), not the encoder's targets:
/// players pick rungs by them, and a target understates what x264 emits around key frames.
public struct MultivariantPlaylist: Sendable, Hashable {
    /// One rung as listed.
    public struct Variant: Sendable, Hashable {
        /// The rung's media playlist relative to this one, e.g. `high/playlist.m3u8`.
        public var uri: String
        /// `BANDWIDTH`: the peak segment bit rate, bits a second.
        public var peakBitsPerSecond: Int
        /// `AVERAGE-BANDWIDTH`: bits a second over all segments.
        public var averageBitsPerSecond: Int
        /// `CODECS`, e.g. `avc1.64001f,mp4a.40.2` (``CodecString``); empty leaves the attribute out.
        public var codecs: String
        /// `RESOLUTION`.
        public var size: VideoDimensions
        /// `FRAME-RATE`, printed with three decimals.
        public var framesPerSecond: Double

        /// A variant.
        public init(uri: String, peakBitsPerSecond: Int, averageBitsPerSecond: Int, codecs: String, size: VideoDimensions,
                    framesPerSecond: Double) {
            self.uri = uri
            self.peakBitsPerSecond = peakBitsPerSecond
            self.averageBitsPerSecond = averageBitsPerSecond
            self.codecs = codecs
            self.size = size
            self.framesPerSecond = framesPerSecond
        }
    }

    /// The rungs, in the order players should see them (highest first).
    public var variants: [Variant]

    /// A multivariant playlist.
    public init(variants: [Variant]) {
        self.variants = variants
    }

    /// The text: UTF-8, `\n` line endings, ending with a newline.
    public func rendered() -> String {
        var lines = ["#EXTM3U", "#EXT-X-VERSION:7", "#EXT-X-INDEPENDENT-SEGMENTS"]
        for variant in variants {
            let codecs = variant.codecs.isEmpty ? "" : "CODECS=\"\(variant.codecs)\","
            lines.append("#EXT-X-STREAM-INF:BANDWIDTH=\(variant.peakBitsPerSecond),AVERAGE-BANDWIDTH=\(variant.averageBitsPerSecond),"
                + "\(codecs)RESOLUTION=\(variant.size),FRAME-RATE=\(variant.framesPerSecond.formatted3)")
            lines.append(variant.uri)
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// The bit rates of one rung, from the segments it produced: the peak segment bit rate
/// (`BANDWIDTH`) and the average (`AVERAGE-BANDWIDTH`), rounded up to whole bits a second.
public struct BandwidthMeter: Sendable, Hashable {
    /// The highest bit rate of any segment so far; nil before the first.
    public private(set) var peakBitsPerSecond: Int?
    /// How many segments were measured.
    public private(set) var segments = 0
    private var bits: Double = 0
    private var seconds: Double = 0

    /// Nothing measured.
    public init() {}

    /// A segment of `bytes` lasting `duration` (a segment of no duration is left out); one
    /// that does not `countsTowardPeak` (a short last segment) counts only in the average.
    public mutating func add(bytes: Int, duration: MediaTime, countsTowardPeak: Bool = true) {
        guard duration > .zero else { return }
        let rate = Int((Double(bytes * 8) / duration.seconds).rounded(.up))
        if countsTowardPeak { peakBitsPerSecond = max(peakBitsPerSecond ?? 0, rate) }
        bits += Double(bytes * 8)
        seconds += duration.seconds
        segments += 1
    }

    /// The average over the segments so far; nil before the first.
    public var averageBitsPerSecond: Int? {
        seconds > 0 ? Int((bits / seconds).rounded(.up)) : nil
    }
}
