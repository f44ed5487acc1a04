import ReelCore

/// The `Range` request header (RFC 9110 §14.2) for one representation of `length` bytes.
///
/// - No header, another unit than `bytes`, or several ranges: the whole representation
///   (a server may ignore ranges; serving several as multipart is not worth it here).
/// - One satisfiable range (`a-b`, `a-`, `-n`): that part, clamped to the end (206).
/// - Malformed (`bytes=x-1`, `bytes=5-2`), or starting at or past the end, or `-0`: 416 with
///   `Content-Range: bytes */length`.
public enum ByteRange: Sendable, Hashable {
    /// Serve everything (200).
    case whole
    /// Serve `count` bytes from `offset` (206).
    case partial(offset: Int64, count: Int64)
    /// 416 Range Not Satisfiable.
    case unsatisfiable

    /// The decision for `header` (the `Range` value, or `nil`) against `length` bytes.
    public init(header: String?, length: Int64) {
        guard let header else { self = .whole; return }
        let trimmed = header.trimmingASCIISpaces()
        guard let equals = trimmed.firstIndex(of: "=") else { self = .unsatisfiable; return }
        guard trimmed[..<equals].trimmingASCIISpaces().lowercased() == "bytes" else { self = .whole; return }
        let set = trimmed[trimmed.index(after: equals)...]
        if set.contains(",") { self = .whole; return }
        let spec = Substring(set).trimmingASCIISpaces()
        guard let dash = spec.firstIndex(of: "-") else { self = .unsatisfiable; return }
        let first = spec[..<dash], last = spec[spec.index(after: dash)...]
        if first.isEmpty {
            // Suffix: the last n bytes.
            guard let n = Self.number(last), n > 0, length > 0 else { self = .unsatisfiable; return }
            let count = min(n, length)
            self = .partial(offset: length - count, count: count)
            return
        }
        guard let start = Self.number(first), start < length else { self = .unsatisfiable; return }
        if last.isEmpty {
            self = .partial(offset: start, count: length - start)
            return
        }
        guard let end = Self.number(last), end >= start else { self = .unsatisfiable; return }
        self = .partial(offset: start, count: min(end, length - 1) - start + 1)
    }

    /// `Content-Range` for this decision: `bytes a-b/length`, or `bytes */length` for 416.
    public func contentRange(length: Int64) -> String? {
        switch self {
        case .whole: nil
        case .partial(let offset, let count): "bytes \(offset)-\(offset + count - 1)/\(length)"
        case .unsatisfiable: "bytes */\(length)"
        }
    }

    /// Digits only (at most 18, so it fits), else nil.
    private static func number(_ text: Substring) -> Int64? {
        guard !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
            return nil
        }
        return Int64(text)
    }
}
