import ReelCore

/// Blocking playlist reload (LL-HLS, RFC 8216bis §6.2.5.2): a player asks for the playlist
/// with `_HLS_msn=N` (and `_HLS_part=M`) and the origin holds the request until the playlist
/// it stores holds that segment (or that part of it) or a later one. The rules, pure; the
/// origin keeps the requests waiting and wakes them when a playlist is stored.
public enum BlockingReload {
    /// What a request asks for.
    public struct Request: Sendable, Hashable {
        /// `_HLS_msn`: the media sequence number wanted.
        public var sequence: Int
        /// `_HLS_part`: the part of that segment wanted (nil: the whole segment).
        public var part: Int?

        public init(sequence: Int, part: Int?) {
            self.sequence = sequence
            self.part = part
        }
    }

    /// What to do with a request.
    public enum Decision: Sendable, Hashable {
        /// Answer with the playlist as it is.
        case answer
        /// Hold the request until a newer playlist is stored (or the wait ends).
        case wait
        /// 400 with this reason.
        case refuse(String)
    }

    /// The request named by a query's `_HLS_msn` and `_HLS_part` values; nil when neither is
    /// given (an ordinary reload), a refusal for malformed ones.
    public static func request(msn: String?, part: String?) -> Result<Request, Refusal>? {
        guard let msn else {
            return part == nil ? nil : .failure(Refusal("_HLS_part needs _HLS_msn"))
        }
        guard let sequence = decimal(msn) else { return .failure(Refusal("_HLS_msn must be a decimal number")) }
        guard let part else { return .success(Request(sequence: sequence, part: nil)) }
        guard let index = decimal(part) else { return .failure(Refusal("_HLS_part must be a decimal number")) }
        return .success(Request(sequence: sequence, part: index))
    }

    /// Why a request was refused.
    public struct Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        public init(_ text: String) { description = text }
    }

    /// The decision for `request` against the playlist stored now (`playlist`, its tally).
    ///
    /// - A playlist that cannot block (no `CAN-BLOCK-RELOAD=YES`) or has ended is answered at once.
    /// - Segment N is there when the last complete segment is N or later; part M of segment N
    ///   when segment N is complete, or N is the segment in progress with more than M parts.
    /// - More than two segments beyond the last complete one is refused (RFC 8216bis: 400).
    public static func decide(_ request: Request, playlist: PlaylistTally) -> Decision {
        guard playlist.canBlockReload, !playlist.isFinished else { return .answer }
        let last = playlist.lastSequence ?? (playlist.mediaSequence - 1)
        if request.sequence > last + 2 {
            return .refuse("_HLS_msn=\(request.sequence) is more than two segments beyond the last one (\(last))")
        }
        if request.sequence <= last { return .answer }
        guard let part = request.part else { return .wait }
        if request.sequence == last + 1 && part < playlist.partsInProgress { return .answer }
        return .wait
    }

    /// The longest a request is held: three target durations (RFC 8216bis's bound), at least 1 s.
    public static func maximumWait(targetDuration: Double) -> Double {
        max(1, 3 * targetDuration)
    }

    private static func decimal(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 9, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int(text)
    }
}
