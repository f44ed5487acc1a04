import Foundation
import ReelCore
import ReelS3
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Publishes to S3-compatible object storage: each file is one object, PUT with a SigV4
/// signature (ReelS3's `S3Request`) under `PREFIX/streams/{id}/…`.
///
/// Every PUT sends `Content-Type`, `Cache-Control` (``ReelCore/OriginFile/cacheControl``, so a
/// bucket and Reel's own origin tell caches the same) and the real payload SHA-256 as
/// `x-amz-content-sha256` (S3 then refuses a body that changed on the way instead of storing
/// it; hashing a 2 s segment takes about a millisecond). 403 and 404 on the bucket, a wrong
/// region and a clock off by more than S3 allows are final (``Error/isRetryable``); 5xx,
/// `SlowDown`, `RequestTimeout`, 408, 429 and network failures are retried by the publisher.
public struct S3Target: RemotePublishTarget {
    /// Where and as whom to publish.
    public struct Configuration: Sendable, Hashable {
        /// `s3://BUCKET/PREFIX`.
        public var location: S3Location
        /// The server; AWS's own for the region unless given.
        public var endpoint: S3Location.Endpoint
        /// Path-style or virtual-host requests.
        public var addressing: S3Location.Addressing
        /// The bucket's region (part of every signature).
        public var region: String
        /// The key that signs.
        public var credentials: AWSCredentials

        /// A configuration; `endpoint` nil means AWS's own endpoint for `region`, `addressing`
        /// nil means ``ReelS3/S3Location/defaultAddressing(for:)``.
        public init(location: S3Location, endpoint: S3Location.Endpoint?, addressing: S3Location.Addressing?, region: String,
                    credentials: AWSCredentials) {
            self.location = location
            let resolved = endpoint ?? .aws(region: region)
            self.endpoint = resolved
            self.addressing = addressing ?? S3Location.defaultAddressing(for: resolved)
            self.region = region
            self.credentials = credentials
        }
    }

    /// Where and as whom.
    public let configuration: Configuration
    /// `bucket s3://BUCKET/PREFIX/ at ENDPOINT`.
    public var name: String { "bucket \(configuration.location) at \(configuration.endpoint)" }

    private let signer: SigV4Signer
    private let session: HTTPUploadSession

    /// A target for `configuration`; `requestTimeout` and `resourceTimeout` as for ``HTTPOriginTarget``.
    public init(configuration: Configuration, requestTimeout: TimeInterval = 15, resourceTimeout: TimeInterval = 120) {
        self.configuration = configuration
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
        session = HTTPUploadSession(requestTimeout: requestTimeout, resourceTimeout: resourceTimeout)
    }

    /// The object's address for a stream path.
    public func address(forPath path: String) -> S3Location.ObjectAddress {
        let c = configuration
        return c.location.address(ofKey: c.location.key(forPath: path), endpoint: c.endpoint, addressing: c.addressing)
    }

    /// The object's URL (what a player GETs when the bucket is public).
    public func url(forPath path: String) -> URL { URL(string: address(forPath: path).url)! }

    /// PUTs `body` as the object for `path`, with its Content-Type and Cache-Control.
    public func put(path: String, body: Data, contentType: String) async throws {
        var headers = [("Content-Type", contentType), ("Content-Length", String(body.count))]
        if let file = OriginFile(streamPath: path) { headers.append(("Cache-Control", file.cacheControl)) }
        let (status, data, http) = try await send("PUT", path: path, body: body, headers: headers)
        guard !(200..<300).contains(status) else { return }
        throw Error(status: status, body: data, response: http, key: configuration.location.key(forPath: path), configuration: configuration)
    }

    /// DELETEs the object for `path`; 2xx and 404 NoSuchKey (already gone) are success.
    public func delete(path: String) async throws {
        let (status, data, http) = try await send("DELETE", path: path, body: nil, headers: [])
        if (200..<300).contains(status) { return }
        let error = Error(status: status, body: data, response: http, key: configuration.location.key(forPath: path), configuration: configuration)
        if case .missingObject = error { return }
        throw error
    }

    /// GETs the object for `path` (a GET, not a HEAD, so a refusal comes with S3's error code):
    /// 2xx is there, 404 (`NoSuchKey`) is not; any other answer throws.
    public func fileExists(path: String) async throws -> Bool {
        let (status, data, http) = try await send("GET", path: path, body: nil, headers: [])
        if (200..<300).contains(status) { return true }
        let error = Error(status: status, body: data, response: http, key: configuration.location.key(forPath: path), configuration: configuration)
        if case .missingObject = error { return false }
        if status == 404, case .answered = error { return false }
        throw error
    }

    /// Lists the keys under `PREFIX/streams/{id}/` (ListObjectsV2, page by page) and DELETEs each.
    public func deleteStream(_ layout: StreamLayout) async throws {
        let c = configuration
        let prefix = c.location.key(forPath: layout.streamDirectory + "/")
        var continuation: String?
        repeat {
            let query = S3ObjectList.query(prefix: prefix, continuationToken: continuation)
            let (status, data, http) = try await send("GET", address: c.location.bucketAddress(endpoint: c.endpoint, addressing: c.addressing),
                                                      query: query, body: nil, headers: [])
            guard (200..<300).contains(status) else {
                throw Error(status: status, body: data, response: http, key: prefix, configuration: c)
            }
            guard let page = S3ObjectList(xml: String(decoding: data, as: UTF8.self)) else {
                throw Error.answered(status: status, code: "", message: "the object list could not be read", key: prefix)
            }
            for key in page.keys where key.hasPrefix(prefix) {
                let address = c.location.address(ofKey: key, endpoint: c.endpoint, addressing: c.addressing)
                let (status, data, http) = try await send("DELETE", address: address, query: [], body: nil, headers: [])
                guard (200..<300).contains(status) || status == 404 else {
                    throw Error(status: status, body: data, response: http, key: key, configuration: c)
                }
            }
            continuation = page.isTruncated ? page.nextContinuationToken : nil
        } while continuation != nil
    }

    /// Signs and sends one request for a stream path; returns the status, body and head.
    private func send(_ method: String, path: String, body: Data?, headers: [(String, String)]) async throws -> (Int, Data, HTTPURLResponse) {
        try await send(method, address: address(forPath: path), query: [], body: body, headers: headers)
    }

    /// Signs (``ReelS3/S3Request``) and sends one request; returns the status, body and head.
    private func send(_ method: String, address: S3Location.ObjectAddress, query: [(name: String, value: String)], body: Data?,
                      headers: [(String, String)]) async throws -> (Int, Data, HTTPURLResponse) {
        let signed = S3Request(method: method, address: address, query: query, headers: headers.map { (name: $0.0, value: $0.1) },
                               body: body, signer: signer, date: Date())
        var request = session.request(signed.url, method: method)
        for (name, value) in signed.headers { request.setValue(value, forHTTPHeaderField: name) }
        do {
            let (data, http) = try await session.exchange(request, url: signed.url, body: body)
            return (http.statusCode, data, http)
        } catch let failure as HTTPUploadSession.Failure {
            throw Error.network(failure)
        }
    }
}
