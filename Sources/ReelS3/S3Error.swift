import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a request to a bucket failed, in words a user can act on (``description``), and whether
/// sending it again may help (``isRetryable``). Hints are worded for the job through its
/// ``S3Usage`` (the option that named the bucket, the permissions it needs, whether Reel
/// retries). Holds the access key id and where it came from, never the secret.
public enum S3Error: Error, Hashable, CustomStringConvertible {
    /// 403: the signature, the access key, the session token or the permissions were refused
    /// (`SignatureDoesNotMatch`, `InvalidAccessKeyId`, `AccessDenied`, `ExpiredToken`, …).
    case credentialsRefused(code: String, bucket: String, key: String, accessKeyID: String, source: String, usage: S3Usage)
    /// 404 `NoSuchBucket`.
    case noSuchBucket(bucket: String, endpoint: String, usage: S3Usage)
    /// 404 `NoSuchKey`: the object is not there (a DELETE of it is then done).
    case missingObject(key: String)
    /// `RequestTimeTooSkewed`: this machine's clock is off; `seconds` is the server's time
    /// minus the request's, when S3 said both.
    case clockSkewed(seconds: Int64?)
    /// The bucket lives in another region (`PermanentRedirect`, `AuthorizationHeaderMalformed`).
    case wrongRegion(region: String, bucketRegion: String?, code: String)
    /// Any other answer (a 200 with an `<Error>` body too, as CompleteMultipartUpload may
    /// send); retryable for 5xx, 408, 425, 429, `SlowDown`, `RequestTimeout`, `InternalError`, ….
    case answered(status: Int, code: String, message: String, key: String, usage: S3Usage)
    /// No HTTP exchange happened (refused, host not found, connection lost); retryable.
    case unreachable(url: URL, reason: String, usage: S3Usage)
    /// No progress for the request timeout; retryable.
    case timedOut(url: URL, seconds: TimeInterval, usage: S3Usage)
    /// The answer was not HTTP.
    case invalidResponse(url: URL)
    /// The object is larger than the caller's bound on what it reads into memory; `size` when
    /// the answer said it.
    case tooLarge(key: String, limit: Int, size: Int64?)
    /// A download could not be written to its file.
    case localFile(path: String, reason: String)

    /// S3 error codes that say "try again later" whatever their status.
    static let retryableCodes: Set<String> = ["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "OperationAborted"]
    /// S3 error codes that refuse the credentials or the permissions.
    static let refusals: Set<String> = ["SignatureDoesNotMatch", "InvalidAccessKeyId", "AccessDenied", "ExpiredToken", "InvalidToken",
                                        "TokenRefreshRequired", "AllAccessDisabled"]

    /// Classifies an answer that is a failure (a non-2xx status, or a 2xx with an `<Error>`
    /// body) by its status and S3's error code; `key` is the object (or prefix) asked about.
    public init(status: Int, body: Data, response: HTTPURLResponse, key: String, configuration: S3Client.Configuration) {
        self.init(status: status, body: body, bucketRegion: response.value(forHTTPHeaderField: "x-amz-bucket-region"), key: key,
                  configuration: configuration)
    }

    /// The classification, with the `x-amz-bucket-region` header's value.
    init(status: Int, body: Data, bucketRegion header: String?, key: String, configuration: S3Client.Configuration) {
        let parsed = S3ErrorBody(xml: String(decoding: body.prefix(8192), as: UTF8.self))
        let code = parsed?.code ?? ""
        let bucket = configuration.location.bucket, usage = configuration.usage
        if code == "RequestTimeTooSkewed" {
            self = .clockSkewed(seconds: parsed?.skewSeconds)
        } else if code == "NoSuchBucket" {
            self = .noSuchBucket(bucket: bucket, endpoint: configuration.endpoint.description, usage: usage)
        } else if code == "NoSuchKey" {
            self = .missingObject(key: key)
        } else if status == 301 || code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed" {
            self = .wrongRegion(region: configuration.region, bucketRegion: parsed?.region ?? header, code: code.isEmpty ? "HTTP \(status)" : code)
        } else if status == 403 || Self.refusals.contains(code) {
            self = .credentialsRefused(code: code.isEmpty ? "403 Forbidden" : code, bucket: bucket, key: key,
                                       accessKeyID: configuration.credentials.accessKeyID, source: configuration.credentials.source, usage: usage)
        } else {
            let message = parsed?.message ?? HTTPUploadSession.plainText(body)
            self = .answered(status: status, code: code, message: message, key: key, usage: usage)
        }
    }

    /// A failure without an HTTP answer.
    public static func network(_ failure: HTTPUploadSession.Failure, usage: S3Usage) -> S3Error {
        switch failure {
        case .unreachable(let url, let reason): .unreachable(url: url, reason: reason, usage: usage)
        case .timedOut(let url, let seconds): .timedOut(url: url, seconds: seconds, usage: usage)
        case .invalidResponse(let url): .invalidResponse(url: url)
        }
    }

    /// `false` for refused credentials, a missing bucket or object, a wrong region, a skewed
    /// clock, an object too large, a file that cannot be written and 4xx answers about the
    /// request itself.
    public var isRetryable: Bool {
        switch self {
        case .credentialsRefused, .noSuchBucket, .missingObject, .clockSkewed, .wrongRegion, .tooLarge, .localFile: false
        case .answered(let status, let code, _, _, _): HTTPUploadSession.isRetryable(status: status) || Self.retryableCodes.contains(code)
        case .unreachable, .timedOut, .invalidResponse: true
        }
    }

    /// Whether the answer was a 404 for the object itself (`NoSuchKey`, or a 404 without S3's
    /// code, as a HEAD gets), not for the bucket.
    var isMissingObject: Bool {
        switch self {
        case .missingObject: true
        case .answered(let status, _, _, _, _): status == 404
        default: false
        }
    }
}
