import Foundation

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
