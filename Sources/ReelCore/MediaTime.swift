/// A point or span on a media timeline: `value / timescale` seconds, exact.
///
/// Capture timestamps use nanoseconds (``nanosecondTimescale``); encoders use their own
/// time bases (1/90000 for video, 1/sample-rate for audio). Arithmetic and comparison are
/// exact across timescales; conversion rounds to nearest unless told otherwise.
public struct MediaTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The numerator, in units of `1 / timescale` seconds.
    public var value: Int64
    /// Units per second; always positive.
    public var timescale: Int32

    /// Nanoseconds per second: the timescale of capture timestamps.
    public static let nanosecondTimescale: Int32 = 1_000_000_000
    /// Zero seconds.
    public static let zero = MediaTime(value: 0, timescale: 1)

    /// A time of `value / timescale` seconds.
    public init(value: Int64, timescale: Int32) {
        precondition(timescale > 0, "MediaTime timescale must be positive")
        self.value = value
        self.timescale = timescale
    }

    /// A time from seconds, rounded to nearest in `timescale`.
    public init(seconds: Double, timescale: Int32 = MediaTime.nanosecondTimescale) {
        self.init(value: Int64((seconds * Double(timescale)).rounded()), timescale: timescale)
    }

    /// A time from whole nanoseconds.
    public static func nanoseconds(_ ns: Int64) -> MediaTime {
        MediaTime(value: ns, timescale: nanosecondTimescale)
    }

    /// The time in seconds (for display and tolerances; not for arithmetic).
    public var seconds: Double { Double(value) / Double(timescale) }

    /// The time in nanoseconds, rounded to nearest.
    public var nanoseconds: Int64 { converted(to: MediaTime.nanosecondTimescale).value }

    /// Rounding used by ``converted(to:rounding:)``.
    public enum Rounding: Sendable { case nearest, down, up }

    /// The same time expressed in `timescale`, rounded as asked.
    public func converted(to timescale: Int32, rounding: Rounding = .nearest) -> MediaTime {
        if timescale == self.timescale { return self }
        let numerator = Int128(value) * Int128(timescale)
        let denominator = Int128(self.timescale)
        var quotient = numerator / denominator
        let remainder = numerator % denominator
        switch rounding {
        case .down:
            if remainder < 0 { quotient -= 1 }
        case .up:
            if remainder > 0 { quotient += 1 }
        case .nearest:
            // Half away from zero.
            if remainder * 2 >= denominator { quotient += 1 } else if remainder * 2 <= -denominator { quotient -= 1 }
        }
        return MediaTime(value: Int64(quotient), timescale: timescale)
    }

    private static func common(_ a: MediaTime, _ b: MediaTime) -> (Int128, Int128, Int32) {
        if a.timescale == b.timescale { return (Int128(a.value), Int128(b.value), a.timescale) }
        // Exact: scale both to the product of timescales, then reduce if it fits.
        return (Int128(a.value) * Int128(b.timescale), Int128(b.value) * Int128(a.timescale), 0)
    }

    public static func < (lhs: MediaTime, rhs: MediaTime) -> Bool {
        let (a, b, _) = common(lhs, rhs)
        return a < b
    }

    public static func == (lhs: MediaTime, rhs: MediaTime) -> Bool {
        let (a, b, _) = common(lhs, rhs)
        return a == b
    }

    public func hash(into hasher: inout Hasher) {
        // Equal times in different timescales must hash alike: hash the reduced fraction.
        let g = MediaTime.gcd(value.magnitude, UInt64(timescale))
        hasher.combine(value / Int64(g))
        hasher.combine(Int64(timescale) / Int64(g))
    }

    private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return max(x, 1)
    }

    /// Sum, in the finer of the two timescales (rounded to nearest when they differ).
    public static func + (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let scale = max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.converted(to: scale).value + rhs.converted(to: scale).value, timescale: scale)
    }

    /// Difference, in the finer of the two timescales (rounded to nearest when they differ).
    public static func - (lhs: MediaTime, rhs: MediaTime) -> MediaTime {
        let scale = max(lhs.timescale, rhs.timescale)
        return MediaTime(value: lhs.converted(to: scale).value - rhs.converted(to: scale).value, timescale: scale)
    }

    public static func += (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs + rhs }
    public static func -= (lhs: inout MediaTime, rhs: MediaTime) { lhs = lhs - rhs }

    /// The time multiplied by a whole number.
    public static func * (lhs: MediaTime, rhs: Int64) -> MediaTime {
        MediaTime(value: lhs.value * rhs, timescale: lhs.timescale)
    }

    public var description: String {
        let s = seconds
        return "\(s.formatted3)s"
    }
}

extension Double {
    /// The number with exactly three decimals, as HLS EXTINF and logs print it.
    public var formatted3: String {
        let thousandths = Int64((self * 1000).rounded())
        let sign = thousandths < 0 ? "-" : ""
        let magnitude = thousandths.magnitude
        let fraction = String(magnitude % 1000)
        return "\(sign)\(magnitude / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)"
    }

    /// At most three decimals, without trailing zeros, for sentences: 5 → "5", 0.4 → "0.4",
    /// 1.2345 → "1.235".
    public var formattedShort: String {
        var text = formatted3
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }
}
