import Foundation

/// One page of S3's ListObjectsV2 answer (`<ListBucketResult>`): the objects with their sizes,
/// and where the next page starts.
public struct S3ObjectList: Sendable, Hashable {
    /// One `<Contents>` entry.
    public struct Object: Sendable, Hashable {
        /// The whole object key.
        public var key: String
        /// `<Size>`: its length in bytes (0 when the answer left it out).
        public var size: Int64

        /// An entry from its parts.
        public init(key: String, size: Int64) {
            self.key = key
            self.size = size
        }
    }

    /// Every `<Contents>` on this page, in the order given (S3 sorts them by key).
    public var objects: [Object]
    /// The objects' keys, in order.
    public var keys: [String] { objects.map(\.key) }
    /// `<IsTruncated>true`: more keys follow on another page.
    public var isTruncated: Bool
    /// `<NextContinuationToken>`: pass it as `continuation-token` for the next page.
    public var nextContinuationToken: String?

    /// Reads a ListObjectsV2 body; nil when it is not a `ListBucketResult` (an error page, a proxy's HTML).
    public init?(xml: String) {
        guard xml.contains("<ListBucketResult") else { return nil }
        objects = S3XML.blocks("Contents", in: xml).compactMap { entry in
            S3XML.exactElement("Key", in: entry).map { Object(key: $0, size: S3XML.element("Size", in: entry).flatMap { Int64($0) } ?? 0) }
        }
        isTruncated = S3XML.element("IsTruncated", in: xml) == "true"
        nextContinuationToken = S3XML.element("NextContinuationToken", in: xml)
    }

    /// The query of a ListObjectsV2 request for the keys under `prefix`, from `continuationToken`
    /// on; `maxKeys` asks for shorter pages than S3's 1000.
    public static func query(prefix: String, continuationToken: String?, maxKeys: Int? = nil) -> [(name: String, value: String)] {
        var query = [(name: "list-type", value: "2"), (name: "prefix", value: prefix)]
        if let continuationToken { query.append((name: "continuation-token", value: continuationToken)) }
        if let maxKeys { query.append((name: "max-keys", value: String(maxKeys))) }
        return query
    }
}
