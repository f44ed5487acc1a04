import Foundation
import ReelCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client for one bucket of S3-compatible object storage: objects put, read, described,
/// listed and deleted, and multipart uploads (``createMultipartUpload(key:headers:)`` and
/// the rest), each request signed
/// with SigV4 (``S3Request``, with the body's real SHA-256 as `x-amz-content-sha256`, so S3
/// refuses a body that changed on the way) and sent through one ``HTTPUploadSession``.
///
/// Keys are whole object keys; `configuration.location.key(forPath:)` puts a path under the
/// location's prefix. Every operation fails with an ``S3Error`` worded for the job's
/// ``S3Usage`` (or `CancellationError` when its task is cancelled), and retries nothing: the
/// caller decides by ``S3Error/isRetryable``. Used by ReelLive's bucket target and the study
/// library's backup.
public struct S3Client: Sendable {
    /// Where, as whom, and for what.
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
        /// The job, for the words of its errors.
        public var usage: S3Usage

        /// A configuration; `endpoint` nil means AWS's own endpoint for `region`, `addressing`
        /// nil means ``S3Location/defaultAddressing(for:)``.
        public init(location: S3Location, endpoint: S3Location.Endpoint?, addressing: S3Location.Addressing?, region: String,
                    credentials: AWSCredentials, usage: S3Usage) {
            self.location = location
            let resolved = endpoint ?? .aws(region: region)
            self.endpoint = resolved
            self.addressing = addressing ?? S3Location.defaultAddressing(for: resolved)
            self.region = region
            self.credentials = credentials
            self.usage = usage
        }
    }

    /// What a HEAD tells of an object.
    public struct ObjectHead: Sendable, Hashable {
        /// Its length in bytes.
        public var size: Int64
        /// Its ETag as S3 gave it, quotes included.
        public var etag: String
        /// Its `x-amz-meta-NAME` headers, by NAME in lower case.
        public var metadata: [String: String]

        /// A head from its parts.
        public init(size: Int64, etag: String, metadata: [String: String]) {
            self.size = size
            self.etag = etag
            self.metadata = metadata
        }
    }

    /// Where, as whom, and for what.
    public let configuration: Configuration
    let signer: SigV4Signer
    let session: HTTPUploadSession

    /// A client for `configuration`, whose requests fail after `requestTimeout` s without
    /// progress or `resourceTimeout` s in all.
    public init(configuration: Configuration, requestTimeout: TimeInterval = 15, resourceTimeout: TimeInterval = 120) {
        self.configuration = configuration
        signer = SigV4Signer(credentials: configuration.credentials, region: configuration.region)
        session = HTTPUploadSession(requestTimeout: requestTimeout, resourceTimeout: resourceTimeout)
    }

    /// The address of the object `key`.
    public func address(ofKey key: String) -> S3Location.ObjectAddress {
        configuration.location.address(ofKey: key, endpoint: configuration.endpoint, addressing: configuration.addressing)
    }

    /// PUTs `body` as the object `key` (replacing it), with the caller's `headers` (e.g.
    /// `Content-Type`, `Cache-Control`, `x-amz-meta-NAME`); returns the answer's ETag.
    @discardableResult
    public func put(key: String, body: Data, headers: [(name: String, value: String)] = []) async throws -> String {
        let answer = try await send("PUT", address(ofKey: key), headers: headers + [("Content-Length", String(body.count))], body: body)
        try check(answer, key: key)
        return answer.response.value(forHTTPHeaderField: "ETag") ?? ""
    }

    /// GETs the object `key` into memory; nil when it is not there (404). An object longer
    /// than `maxBytes` is refused with ``S3Error/tooLarge(key:limit:size:)`` without being read
    /// whole.
    public func get(key: String, maxBytes: Int) async throws -> Data? {
        let received = try await receive(address(ofKey: key), headers: [], into: .memory(maxBytes: maxBytes), key: key)
        if received.exceeded { throw Self.tooLarge(received.response, key: key, limit: maxBytes) }
        if let error = failure(received, key: key) {
            if error.isMissingObject { return nil }
            throw error
        }
        return received.body
    }

    /// GETs the bytes `range` of the object `key` (a `Range` request), for reading a large
    /// object a piece at a time. Throws ``S3Error/missingObject(key:)`` when it is not there.
    public func get(key: String, range: Range<Int64>) async throws -> Data {
        guard !range.isEmpty else { return Data() }
        let header = (name: "Range", value: "bytes=\(range.lowerBound)-\(range.upperBound - 1)")
        let limit = Int(clamping: range.count)
        let received = try await receive(address(ofKey: key), headers: [header], into: .memory(maxBytes: limit), key: key)
        if received.exceeded { throw Self.tooLarge(received.response, key: key, limit: limit) }
        if let error = failure(received, key: key) { throw error }
        if received.response.statusCode != 206, range.lowerBound != 0 {
            throw S3Error.answered(status: received.response.statusCode, code: "", message: "the server ignored the Range header",
                                   key: key, usage: configuration.usage)
        }
        return received.body
    }

    /// HEADs the object `key`: its size, ETag and metadata; nil when it is not there. A HEAD
    /// answer has no body, so a refusal is asked again as a one-byte GET to learn S3's error
    /// code (a missing bucket is then ``S3Error/noSuchBucket(bucket:endpoint:usage:)``, not nil).
    public func head(key: String) async throws -> ObjectHead? {
        let answer = try await send("HEAD", address(ofKey: key), body: nil)
        if (200..<300).contains(answer.status) { return Self.objectHead(answer.response) }
        let probe = try await receive(address(ofKey: key), headers: [("Range", "bytes=0-0")], into: .memory(maxBytes: 1), key: key)
        if let error = failure(probe, key: key) {
            if error.isMissingObject { return nil }
            throw error
        }
        return Self.objectHead(probe.response)
    }

    /// DELETEs the object `key`; one that is not there (404) counts as deleted.
    public func delete(key: String) async throws {
        let answer = try await send("DELETE", address(ofKey: key), body: nil)
        guard let error = failure(answer, key: key), !error.isMissingObject else { return }
        throw error
    }

    /// Every object under `prefix` with its size (ListObjectsV2, page after page), by key.
    public func list(prefix: String) async throws -> [S3ObjectList.Object] {
        try await list(prefix: prefix, pageSize: nil)
    }

    /// ``list(prefix:)`` with pages of at most `pageSize` keys (tests use short pages).
    func list(prefix: String, pageSize: Int?) async throws -> [S3ObjectList.Object] {
        var objects: [S3ObjectList.Object] = []
        var continuation: String?
        repeat {
            let query = S3ObjectList.query(prefix: prefix, continuationToken: continuation, maxKeys: pageSize)
            let answer = try await send("GET", bucketAddress, query: query, body: nil)
            try check(answer, key: prefix)
            guard let page = S3ObjectList(xml: String(decoding: answer.body, as: UTF8.self)) else {
                throw unreadable(answer, what: "the object list", key: prefix)
            }
            objects += page.objects
            continuation = page.isTruncated ? page.nextContinuationToken : nil
        } while continuation != nil
        return objects
    }

    /// Downloads the object `key` into the file at `path` without holding it in memory: the
    /// body goes piece by piece into a new hidden file beside `path`, which is synced and then
    /// renamed over `path` (so `path` is either the whole object or what it was before; the
    /// folder, which must exist, is not synced). Returns the object's size, or nil when it is
    /// not there (and `path` is left alone). The whole transfer must end within the client's
    /// `resourceTimeout`: make the client with one long enough for the largest object.
    public func get(key: String, toFile path: String) async throws -> Int64? {
        let (temporary, handle) = try Self.createHidden(beside: path)
        var keep = false
        defer {
            try? handle.close()
            if !keep { unlink(temporary) }
        }
        let received: HTTPUploadSession.Received
        do {
            received = try await receive(address(ofKey: key), headers: [], into: .file(handle), key: key)
        } catch let failure as HTTPUploadSession.WriteFailure {
            throw S3Error.localFile(path: path, reason: failure.reason)
        }
        if let error = failure(received, key: key) {
            if error.isMissingObject { return nil }
            throw error
        }
        do { try handle.synchronize() } catch { throw S3Error.localFile(path: path, reason: ErrorSentence.reason(error)) }
        guard rename(temporary, path) == 0 else { throw S3Error.localFile(path: path, reason: ErrorSentence.posix(errno)) }
        keep = true
        return received.count
    }
}
