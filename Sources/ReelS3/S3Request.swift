import Foundation

/// One S3 request, addressed and signed, ready for any HTTP client to send: the URL (the
/// object's or the bucket's address and the canonical query) and every header to set, the
/// caller's first, then the signature's. The payload hash is the body's real SHA-256 (S3 then
/// refuses a body that changed on the way). Pure: the time comes in, never read from a clock.
public struct S3Request {
    /// `GET`, `PUT`, `DELETE`, ….
    public let method: String
    /// The address and the query, encoded as signed.
    public let url: URL
    /// The caller's headers, then `x-amz-content-sha256`, `x-amz-date`, the session token if
    /// any, and `Authorization`.
    public let headers: [(name: String, value: String)]
    /// What to upload (nil: no body).
    public let body: Data?

    /// `method` on `address` with `query`, signed by `signer` at `date`. All `headers` are sent;
    /// those named `x-amz-*` (metadata, checksums) and `Content-MD5` are signed too, as S3 wants
    /// every `x-amz-*` header signed; others (`Content-Type`, `Cache-Control`) are not. `host`
    /// and the signature's own headers always are.
    public init(method: String, address: S3Location.ObjectAddress, query: [(name: String, value: String)] = [],
                headers: [(name: String, value: String)] = [], body: Data?, signer: SigV4Signer, date: Date) {
        let queryText = SigV4.canonicalQuery(query)
        self.method = method
        url = URL(string: address.url + (queryText.isEmpty ? "" : "?" + queryText))!
        let payloadHash = body.map(SigV4Signer.sha256Hex) ?? SigV4.emptyPayloadHash
        let toSign = [(name: "host", value: address.authority)] + headers.filter { Self.isSigned($0.name) }
        let signed = signer.sign(method: method, canonicalURI: address.path, query: query, headers: toSign,
                                 payloadHash: payloadHash, timestamp: SigV4.timestamp(date))
        self.headers = headers + signed
        self.body = body
    }

    /// Whether a caller's header is signed: `x-amz-*` and `Content-MD5`.
    static func isSigned(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasPrefix("x-amz-") || lower == "content-md5"
    }
}
