import Foundation
import ReelCore
import ReelS3

/// Publishes to S3-compatible object storage: each file is one object under
/// `PREFIX/streams/{id}/…`, sent by ReelS3's ``ReelS3/S3Client`` (SigV4-signed, one HTTP session).
///
/// Every PUT sends `Content-Type`, `Cache-Control` (``ReelCore/OriginFile/cacheControl``, so a
/// bucket and Reel's own origin tell caches the same) and the real payload SHA-256 as
/// `x-amz-content-sha256` (S3 then refuses a body that changed on the way instead of storing
/// it; hashing a 2 s segment takes about a millisecond). 403 and 404 on the bucket, a wrong
/// region and a clock off by more than S3 allows are final (``ReelS3/S3Error/isRetryable``); 5xx,
/// `SlowDown`, `RequestTimeout`, 408, 429 and network failures are retried by the publisher.
public struct S3Target: RemotePublishTarget {
    /// Where and as whom to publish: ReelS3's client configuration (made for the live stream by
    /// `init(location:endpoint:addressing:region:credentials:)`, whose errors name `--origin`).
    public typealias Configuration = S3Client.Configuration

    /// Where and as whom.
    public var configuration: Configuration { client.configuration }
    /// `bucket s3://BUCKET/PREFIX/ at ENDPOINT`.
    public var name: String { "bucket \(configuration.location) at \(configuration.endpoint)" }

    private let client: S3Client

    /// A target for `configuration`; `requestTimeout` and `resourceTimeout` as for ``HTTPOriginTarget``.
    public init(configuration: Configuration, requestTimeout: TimeInterval = 15, resourceTimeout: TimeInterval = 120) {
        client = S3Client(configuration: configuration, requestTimeout: requestTimeout, resourceTimeout: resourceTimeout)
    }

    /// The object's address for a stream path.
    public func address(forPath path: String) -> S3Location.ObjectAddress { client.address(ofKey: key(path)) }

    /// The object's URL (what a player GETs when the bucket is public).
    public func url(forPath path: String) -> URL { URL(string: address(forPath: path).url)! }

    /// PUTs `body` as the object for `path`, with its Content-Type and Cache-Control.
    public func put(path: String, body: Data, contentType: String) async throws {
        var headers = [(name: "Content-Type", value: contentType)]
        if let file = OriginFile(streamPath: path) { headers.append(("Cache-Control", file.cacheControl)) }
        try await client.put(key: key(path), body: body, headers: headers)
    }

    /// DELETEs the object for `path`; one that is not there (404) is deleted already.
    public func delete(path: String) async throws {
        try await client.delete(key: key(path))
    }

    /// GETs the object for `path` (a GET, not a HEAD, so a refusal comes with S3's error code):
    /// 2xx is there, 404 is not; any other answer throws.
    public func fileExists(path: String) async throws -> Bool {
        try await client.get(key: key(path), maxBytes: .max) != nil
    }

    /// Lists the keys under `PREFIX/streams/{id}/` (ListObjectsV2, page by page) and DELETEs each.
    public func deleteStream(_ layout: StreamLayout) async throws {
        let prefix = key(layout.streamDirectory + "/")
        for object in try await client.list(prefix: prefix) where object.key.hasPrefix(prefix) {
            try await client.delete(key: object.key)
        }
    }

    /// The object key of a stream path: PREFIX/path.
    private func key(_ path: String) -> String { configuration.location.key(forPath: path) }
}
