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

    private init(opaque: String) { self.opaque = opaque }

    /// The tag of the gzip-encoded representation of the same file.
    public var gzipVariant: EntityTag { EntityTag(opaque: opaque + "-gz") }

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
}
