/// A media file's checksum in a backup: the algorithm and the digest as lowercase hex, written
/// `algorithm:hex` (`xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608c`).
///
/// Backups made from format 2 on use XXH3-128: the checksum finds a changed or damaged copy
/// (no one forges a study video against their own backup), and XXH3 runs at memory speed where
/// SHA-256 costs about 1.1 CPU-s per 2 GiB even with SHA-NI (bench/README.md). SHA-256 remains
/// for the entries of format-1 backups, which are verified as they were written.
public struct MediaChecksum: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The digests Reel writes or reads.
    public enum Algorithm: String, Sendable, CaseIterable {
        /// XXH3, 128-bit, in xxHash's canonical (big-endian) form: what `xxhsum -H2` prints.
        case xxh3 = "xxh3-128"
        /// SHA-256: what `sha256sum` prints (backups of format 1).
        case sha256

        /// Hex digits of a digest.
        public var hexLength: Int {
            switch self {
            case .xxh3: 32
            case .sha256: 64
            }
        }
    }

    /// The algorithm.
    public let algorithm: Algorithm
    /// The digest, lowercase hex of ``Algorithm/hexLength`` digits.
    public let hex: String

    /// A checksum; nil when `hex` is not lowercase hex of the algorithm's length.
    public init?(_ algorithm: Algorithm, hex: String) {
        guard hex.utf8.count == algorithm.hexLength,
              hex.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        self.algorithm = algorithm
        self.hex = hex
    }

    /// Reads the `algorithm:hex` form; nil for an unknown algorithm or a malformed digest.
    public init?(_ text: String) {
        guard let colon = text.firstIndex(of: ":"), let algorithm = Algorithm(rawValue: String(text[..<colon])) else { return nil }
        self.init(algorithm, hex: String(text[text.index(after: colon)...]))
    }

    /// `algorithm:hex`.
    public var description: String { "\(algorithm.rawValue):\(hex)" }

    /// The first 12 hex digits: enough to tell two versions of one file apart in a name.
    public var short: String { String(hex.prefix(12)) }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let value = MediaChecksum(text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "'\(text)' is not a checksum (xxh3-128:<32 hex> or sha256:<64 hex>)"))
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
