/// An ABR ladder: the renditions one capture is encoded into for `reel live --ladder`, each a
/// rung with its own size and bit rates, highest bit rate first.
///
/// Written as a comma-separated list of presets (`low,medium,high`, see ``QualityPreset``) or
/// custom rungs `WIDTHxHEIGHT@RATE` (turned to the stream's orientation like the presets; RATE in bits a second
/// with an optional `k` or `M`: `640x360@800k`, `1280x720@2.5M`), mixed freely.
///
/// Rules: 1 to ``maximumRungs`` rungs; no two with the same size and video bit rate; sizes
/// even, 64 to 3840 pixels a side; video bit rates 100 kbps to 20 Mbps. A custom rung's name
/// (its folder on the origin) is `HEIGHTp-KBPSk`, audio 64 kbps.
public struct Ladder: Sendable, Hashable {
    /// One rendition.
    public struct Rung: Sendable, Hashable {
        /// Its folder below the stream (`streams/{id}/{name}/`): a preset's name or
        /// `HEIGHTp-KBPSk`; `[a-z0-9-]`, never `seg` or `part`.
        public var name: String
        /// The picture size as written (a preset's is portrait; ``Ladder/oriented(_:)`` turns it).
        public var size: VideoDimensions
        /// The video encoder's target bit rate.
        public var videoBitsPerSecond: Int
        /// The audio encoder's bit rate.
        public var audioBitsPerSecond: Int

        /// A rung.
        public init(name: String, size: VideoDimensions, videoBitsPerSecond: Int, audioBitsPerSecond: Int) {
            self.name = name
            self.size = size
            self.videoBitsPerSecond = videoBitsPerSecond
            self.audioBitsPerSecond = audioBitsPerSecond
        }

        /// The rung of a preset.
        public init(preset: QualityPreset) {
            self.init(name: preset.rawValue, size: preset.dimensions(.portrait), videoBitsPerSecond: preset.videoBitsPerSecond,
                      audioBitsPerSecond: preset.audioBitsPerSecond)
        }
    }

    /// Why a ladder cannot be used.
    public enum Error: Swift.Error, Equatable, Sendable, CustomStringConvertible {
        /// An item that is neither a preset nor `WxH@RATE`.
        case unreadable(String)
        /// No rung, or more than ``Ladder/maximumRungs``.
        case rungCount(Int)
        /// Two rungs with the same size and video bit rate.
        case duplicate(String)
        /// A size or bit rate outside the bounds.
        case outOfRange(String)

        /// A message a user can act on.
        public var description: String {
            switch self {
            case .unreadable(let item):
                "'\(item)' is not a rung: use low, medium, high, or WIDTHxHEIGHT@RATE such as 640x360@800k"
            case .rungCount(let count):
                "a ladder has 1 to \(Ladder.maximumRungs) rungs, got \(count)"
            case .duplicate(let item):
                "'\(item)' is in the ladder twice (the same size and bit rate)"
            case .outOfRange(let item):
                "'\(item)': sizes must be even, 64 to 3840 pixels a side, and bit rates 100k to 20M"
            }
        }
    }

    /// More rungs than this cost more encoders than a small machine has cores for.
    public static let maximumRungs = 4

    /// The rungs, highest video bit rate first.
    public let rungs: [Rung]

    /// A ladder of `rungs` (sorted highest bit rate first); throws on the rules above.
    public init(rungs: [Rung]) throws(Error) {
        guard (1...Self.maximumRungs).contains(rungs.count) else { throw .rungCount(rungs.count) }
        var seen = Set<String>()
        for rung in rungs {
            let key = "\(rung.size)@\(rung.videoBitsPerSecond)"
            guard seen.insert(key).inserted else { throw .duplicate(rung.name) }
            guard StreamLayout.isValidRungName(rung.name) else { throw .unreadable(rung.name) }
            let sides = [rung.size.width, rung.size.height]
            guard sides.allSatisfy({ $0 % 2 == 0 && (64...3840).contains($0) }),
                  (100_000...20_000_000).contains(rung.videoBitsPerSecond) else { throw .outOfRange(rung.name) }
        }
        guard Set(rungs.map(\.name)).count == rungs.count else { throw .duplicate(rungs.map(\.name).joined(separator: ",")) }
        self.rungs = rungs.sorted { $0.videoBitsPerSecond > $1.videoBitsPerSecond }
    }

    /// Parses `low,medium,high`, `640x360@800k,1280x720@2.5M` or a mix (spaces ignored).
    public init(parsing text: String) throws(Error) {
        var rungs: [Rung] = []
        for raw in text.split(separator: ",", omittingEmptySubsequences: false) {
            let item = raw.filter { !$0.isWhitespace }.lowercased()
            if let preset = QualityPreset(rawValue: item) {
                rungs.append(Rung(preset: preset))
            } else if let rung = Self.customRung(item) {
                rungs.append(rung)
            } else {
                throw .unreadable(String(raw))
            }
        }
        try self.init(rungs: rungs)
    }

    /// The rungs with their sizes held as `orientation` (a preset is portrait as written).
    public func oriented(_ orientation: VideoDimensions.Orientation) -> [Rung] {
        rungs.map { rung in
            var turned = rung
            turned.size = rung.size.oriented(orientation)
            return turned
        }
    }

    /// `640x360@800k` → a rung named `360p-800k`.
    static func customRung(_ item: String) -> Rung? {
        let halves = item.split(separator: "@")
        guard halves.count == 2 else { return nil }
        let sides = halves[0].split(separator: "x")
        guard sides.count == 2, let width = Int(sides[0]), let height = Int(sides[1]),
              let rate = bitRate(halves[1]) else { return nil }
        return Rung(name: "\(min(width, height))p-\(rate / 1000)k", size: VideoDimensions(width: width, height: height),
                    videoBitsPerSecond: rate, audioBitsPerSecond: 64_000)
    }

    /// `800k` → 800000, `2.5m` → 2500000, `900000` → 900000.
    static func bitRate(_ text: Substring) -> Int? {
        let (digits, factor): (Substring, Double) = switch text.last {
        case "k": (text.dropLast(), 1_000)
        case "m": (text.dropLast(), 1_000_000)
        default: (text, 1)
        }
        guard let value = Double(digits), value.isFinite, value > 0 else { return nil }
        return Int((value * factor).rounded())
    }
}
