/// The live HLS quality presets (H.264 + AAC), picked once before the stream starts.
///
/// | preset | portrait size | video     | audio   |
/// |--------|---------------|-----------|---------|
/// | low    | 480 × 854     | 900 kbps  | 48 kbps |
/// | medium | 720 × 1280    | 1.5 Mbps  | 64 kbps |
/// | high   | 720 × 1280    | 2.5 Mbps  | 96 kbps |
public enum QualityPreset: String, CaseIterable, Comparable, Sendable, CustomStringConvertible {
    /// 480 × 854, 900 kbps video, 48 kbps audio.
    case low
    /// 720 × 1280, 1.5 Mbps video, 64 kbps audio.
    case medium
    /// 720 × 1280, 2.5 Mbps video, 96 kbps audio.
    case high

    /// A failed parse or uplink measurement.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// The text names no quality; the message lists the choices.
        case unknownQuality(String)
        /// The measurement's elapsed time was zero, negative or not finite.
        case invalidElapsedTime(seconds: Double)
        /// The measurement's byte count was negative.
        case negativeByteCount(Int)

        /// A message a user can act on.
        public var description: String {
            switch self {
            case .unknownQuality(let text):
                let choices = QualityPreset.Selection.choices.joined(separator: ", ")
                return "unknown quality '\(text)'; choose one of: \(choices)"
            case .invalidElapsedTime(let seconds):
                return "uplink test elapsed time must be positive, got \(seconds) s"
            case .negativeByteCount(let bytes):
                return "uplink test byte count must not be negative, got \(bytes)"
            }
        }
    }

    /// A quality as the user asks for it: one preset, or `auto` (measure the uplink first).
    public enum Selection: Hashable, Sendable, CustomStringConvertible {
        /// Pick with ``QualityPreset/pick(uplinkBitsPerSecond:)`` from an uplink test.
        case auto
        /// Use this preset.
        case preset(QualityPreset)

        /// The accepted spellings, in help order: `low`, `medium`, `high`, `auto`.
        public static let choices: [String] = QualityPreset.allCases.map(\.rawValue) + ["auto"]

        /// Parses `low`, `medium`, `high` or `auto` (case-insensitive, surrounding
        /// whitespace ignored).
        ///
        /// - Throws: ``QualityPreset/Error/unknownQuality(_:)`` listing the choices.
        public init(parsing text: String) throws(QualityPreset.Error) {
            let word = String(text.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()).lowercased()
            if word == "auto" {
                self = .auto
            } else if let preset = QualityPreset(rawValue: word) {
                self = .preset(preset)
            } else {
                throw .unknownQuality(text)
            }
        }

        /// The spelling ``init(parsing:)`` accepts.
        public var description: String {
            switch self {
            case .auto: return "auto"
            case .preset(let preset): return preset.rawValue
            }
        }
    }

    /// The outcome of an automatic pick.
    public struct AutoPick: Equatable, Sendable, CustomStringConvertible {
        /// The chosen preset.
        public var preset: QualityPreset
        /// Whether the preset's total bitrate fits the usable share of the uplink; `false`
        /// means even `low` does not fit and the stream will probably fall behind.
        public var fitsUplink: Bool
        /// The measured uplink.
        public var uplinkBitsPerSecond: Double
        /// The share of the uplink a stream may use (``QualityPreset/uplinkShare`` of it).
        public var budgetBitsPerSecond: Double

        /// A pick result.
        public init(preset: QualityPreset, fitsUplink: Bool, uplinkBitsPerSecond: Double, budgetBitsPerSecond: Double) {
            self.preset = preset
            self.fitsUplink = fitsUplink
            self.uplinkBitsPerSecond = uplinkBitsPerSecond
            self.budgetBitsPerSecond = budgetBitsPerSecond
        }

        /// One line for the user, e.g.
        /// `medium (1.564 Mbps) fits 70 % of the 2.500 Mbps uplink`.
        public var description: String {
            let total = (Double(preset.totalBitsPerSecond) / 1_000_000).formatted3
            let uplink = (uplinkBitsPerSecond / 1_000_000).formatted3
            let verdict = fitsUplink ? "fits" : "does not fit"
            return "\(preset) (\(total) Mbps) \(verdict) 70 % of the \(uplink) Mbps uplink"
        }
    }

    /// The share of the measured uplink a stream may use: 0.7.
    public static let uplinkShare = 0.7

    /// The encoded size in portrait (the default); see ``dimensions(_:)``.
    public var portraitDimensions: VideoDimensions {
        switch self {
        case .low: return VideoDimensions(width: 480, height: 854)
        case .medium, .high: return VideoDimensions(width: 720, height: 1280)
        }
    }

    /// The encoded size for `orientation` (landscape swaps width and height).
    public func dimensions(_ orientation: VideoDimensions.Orientation = .portrait) -> VideoDimensions {
        portraitDimensions.oriented(orientation)
    }

    /// The H.264 video bitrate in bits per second.
    public var videoBitsPerSecond: Int {
        switch self {
        case .low: return 900_000
        case .medium: return 1_500_000
        case .high: return 2_500_000
        }
    }

    /// The AAC audio bitrate in bits per second.
    public var audioBitsPerSecond: Int {
        switch self {
        case .low: return 48_000
        case .medium: return 64_000
        case .high: return 96_000
        }
    }

    /// Video plus audio bitrate in bits per second.
    public var totalBitsPerSecond: Int { videoBitsPerSecond + audioBitsPerSecond }

    /// Whether the preset's total bitrate fits in 70 % of `uplinkBitsPerSecond`.
    public func fits(uplinkBitsPerSecond: Double) -> Bool {
        // total ≤ 0.7 × uplink, as total × 10 ≤ uplink × 7 so the boundary is exact.
        Double(totalBitsPerSecond) * 10 <= uplinkBitsPerSecond * 7
    }

    /// The highest preset whose total bitrate fits 70 % of the uplink; `low` with
    /// `fitsUplink == false` when none fits (including a zero, negative or NaN uplink).
    public static func pick(uplinkBitsPerSecond: Double) -> AutoPick {
        let fitting = allCases.filter { $0.fits(uplinkBitsPerSecond: uplinkBitsPerSecond) }.max()
        return AutoPick(
            preset: fitting ?? .low,
            fitsUplink: fitting != nil,
            uplinkBitsPerSecond: uplinkBitsPerSecond,
            budgetBitsPerSecond: uplinkBitsPerSecond * uplinkShare
        )
    }

    /// The uplink measured by a test upload: `bytesSent × 8 / secondsElapsed` bits per second.
    ///
    /// - Throws: ``Error/invalidElapsedTime(seconds:)`` when `secondsElapsed` is zero,
    ///   negative or not finite; ``Error/negativeByteCount(_:)`` for negative bytes.
    public static func uplinkBitsPerSecond(bytesSent: Int, secondsElapsed: Double) throws(Error) -> Double {
        guard secondsElapsed.isFinite, secondsElapsed > 0 else { throw .invalidElapsedTime(seconds: secondsElapsed) }
        guard bytesSent >= 0 else { throw .negativeByteCount(bytesSent) }
        return Double(bytesSent) * 8 / secondsElapsed
    }

    /// Orders presets by quality: `low < medium < high`.
    public static func < (lhs: QualityPreset, rhs: QualityPreset) -> Bool {
        lhs.rank < rhs.rank
    }

    private var rank: Int {
        switch self {
        case .low: return 0
        case .medium: return 1
        case .high: return 2
        }
    }

    /// The preset's name: `low`, `medium` or `high`.
    public var description: String { rawValue }
}
