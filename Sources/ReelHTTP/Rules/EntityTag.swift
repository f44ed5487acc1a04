import ReelCore

/// A strong entity tag for a stored file, and the `If-None-Match` check (RFC 9110 §8.8.3, §13.1.2).
///
/// Files are never changed in place: every PUT writes a new file and renames it over the old
/// one, so (inode, size, modification time) names one version. A gzip-encoded playlist is a
/// different representation and gets its own tag (``gzipVariant``).
public struct EntityTag: Sendable, Hashable {
    /// The opaque part, without quotes.
    public let opaque: String

    /// A tag from the stored file's identity.
    public init(inode: UInt64, size: Int64, modificationNanoseconds: Int64) {
        opaque = "\(String(inode, radix: 16))-\(String(size, radix: 16))-\(String(modificationNanoseconds, radix: 16))"
    }

    /// A tag for bytes that live in memory (the viewer's script and style): a 64-bit FNV-1a
    /// hash of the content, so the tag changes exactly when the bytes do.
    public init(content: some Sequence<UInt8>) {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in content { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        opaque = "c-\(String(hash, radix: 16))"
    }

    private init(opaque: String) { self.opaque = opaque }

    /// The tag of the gzip-encoded representation of the same file.
    public var gzipVariant: EntityTag { EntityTag(opaque: opaque + "-gz") }

    /// The tag of the playlist's delta update (`_HLS_skip`) made from the same file.
    public var deltaVariant: EntityTag { EntityTag(opaque: opaque + "-skip") }

    /// The header value: `"opaque"`.
    public var headerValue: String { "\"\(opaque)\"" }

    /// Whether an `If-None-Match` header value (`*`, or a list of possibly weak tags) matches
    /// this tag, so the answer is 304 Not Modified. Uses the weak comparison, as the RFC asks.
    public func matches(ifNoneMatch header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            var candidate = item.trimmingASCIISpaces()
            if candidate == "*" { return true }
            if candidate.hasPrefix("W/") { candidate = candidate.dropFirst(2) }
            if candidate == Substring(headerValue) { return true }
        }
        return false
    }

    /// Whether a `Range` may be honoured under this `If-Range` value (RFC 9110 §13.1.5):
    /// always without one; with an entity tag only when it is this very tag (strong
    /// comparison, so a weak tag never is); with a date only when it is exactly this
    /// version's `Last-Modified` (IMF-fixdate, as Reel sends it). Otherwise the whole file is
    /// sent: the client's piece may belong to another version.
    public func permitsRange(ifRange header: String?, lastModifiedSeconds: Int64) -> Bool {
        guard let header else { return true }
        let value = header.trimmingASCIISpaces()
        if value.hasPrefix("W/") { return false }
        if value.hasPrefix("\"") { return value == Substring(headerValue) }
        return value == Substring(TimestampFormat.httpDate(secondsSince1970: lastModifiedSeconds))
    }
}
