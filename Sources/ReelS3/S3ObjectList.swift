import Foundation

/// One page of S3's ListObjectsV2 answer (`<ListBucketResult>`), reduced to what deleting a
/// stream needs: the keys, and where the next page starts.
public struct S3ObjectList: Sendable, Hashable {
    /// Every `<Contents><Key>` on this page, in the order given (S3 sorts them).
    public var keys: [String]
    /// `<IsTruncated>true`: more keys follow on another page.
    public var isTruncated: Bool
    /// `<NextContinuationToken>`: pass it as `continuation-token` for the next page.
    public var nextContinuationToken: String?

    /// Reads a ListObjectsV2 body; nil when it is not a `ListBucketResult` (an error page, a proxy's HTML).
    public init?(xml: String) {
        guard xml.contains("<ListBucketResult") else { return nil }
        var keys: [String] = []
        var rest = Substring(xml)
        while let open = rest.range(of: "<Key>"), let close = rest.range(of: "</Key>", range: open.upperBound..<rest.endIndex) {
            keys.append(S3ErrorBody.decodeEntities(String(rest[open.upperBound..<close.lowerBound])))
            rest = rest[close.upperBound...]
        }
        self.keys = keys
        isTruncated = S3ErrorBody.element("IsTruncated", in: xml) == "true"
        nextContinuationToken = S3ErrorBody.element("NextContinuationToken", in: xml)
    }

    /// The query of a ListObjectsV2 request for the keys under `prefix`, from `continuationToken` on.
    public static func query(prefix: String, continuationToken: String?) -> [(name: String, value: String)] {
        var query = [(name: "list-type", value: "2"), (name: "prefix", value: prefix)]
        if let continuationToken { query.append((name: "continuation-token", value: continuationToken)) }
        return query
    }
}
