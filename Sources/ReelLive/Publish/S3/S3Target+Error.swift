import Foundation
import ReelCore
import ReelS3
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension S3Target {
    /// Why a request to the bucket failed, in words a user can act on. Never holds the secret.
    public enum Error: PublishTargetError, Hashable {
        /// 403: the signature, the access key, the session token or the permissions were refused
        /// (`SignatureDoesNotMatch`, `InvalidAccessKeyId`, `AccessDenied`, `ExpiredToken`, …).
        case credentialsRefused(code: String, bucket: String, key: String, accessKeyID: String, source: String)
        /// 404 `NoSuchBucket`.
        case noSuchBucket(bucket: String, endpoint: String)
        /// 404 `NoSuchKey`: the object is not there (a DELETE of it is then done).
        case missingObject(key: String)
        /// `RequestTimeTooSkewed`: this machine's clock is off; `seconds` is the server's time
        /// minus the request's, when S3 said both.
        case clockSkewed(seconds: Int64?)
        /// The bucket lives in another region (`PermanentRedirect`, `AuthorizationHeaderMalformed`).
        case wrongRegion(region: String, bucketRegion: String?, code: String)
        /// Any other answer; retryable for 5xx, 408, 425, 429, `SlowDown` and `RequestTimeout`.
        case answered(status: Int, code: String, message: String, key: String)
        /// No HTTP exchange happened (refused, host not found, connection lost); retryable.
        case unreachable(url: URL, reason: String)
        /// No progress for the request timeout; retryable.
        case timedOut(url: URL, seconds: TimeInterval)
        /// The answer was not HTTP.
        case invalidResponse(url: URL)

        /// S3 error codes that say "try again later" whatever their status.
        static let retryableCodes: Set<String> = ["SlowDown", "RequestTimeout", "InternalError", "ServiceUnavailable", "OperationAborted"]

        /// Classifies a non-2xx answer by its status and S3's error code.
        init(status: Int, body: Data, response: HTTPURLResponse, key: String, configuration: Configuration) {
            let parsed = S3ErrorBody(xml: String(decoding: body.prefix(8192), as: UTF8.self))
            let code = parsed?.code ?? ""
            let bucket = configuration.location.bucket
            let refusals: Set<String> = ["SignatureDoesNotMatch", "InvalidAccessKeyId", "AccessDenied", "ExpiredToken", "InvalidToken",
                                         "TokenRefreshRequired", "AllAccessDisabled"]
            if code == "RequestTimeTooSkewed" {
                self = .clockSkewed(seconds: parsed?.skewSeconds)
            } else if code == "NoSuchBucket" {
                self = .noSuchBucket(bucket: bucket, endpoint: configuration.endpoint.description)
            } else if code == "NoSuchKey" {
                self = .missingObject(key: key)
            } else if status == 301 || code == "PermanentRedirect" || code == "AuthorizationHeaderMalformed" {
                let header = response.value(forHTTPHeaderField: "x-amz-bucket-region")
                self = .wrongRegion(region: configuration.region, bucketRegion: parsed?.region ?? header, code: code.isEmpty ? "HTTP \(status)" : code)
            } else if status == 403 || refusals.contains(code) {
                self = .credentialsRefused(code: code.isEmpty ? "403 Forbidden" : code, bucket: bucket, key: key,
                                           accessKeyID: configuration.credentials.accessKeyID, source: configuration.credentials.source)
            } else {
                let message = parsed?.message ?? HTTPUploadSession.plainText(body)
                self = .answered(status: status, code: code, message: message, key: key)
            }
        }

        /// A failure without an HTTP answer.
        static func network(_ failure: HTTPUploadSession.Failure) -> Error {
            switch failure {
            case .unreachable(let url, let reason): .unreachable(url: url, reason: reason)
            case .timedOut(let url, let seconds): .timedOut(url: url, seconds: seconds)
            case .invalidResponse(let url): .invalidResponse(url: url)
            }
        }

        /// `false` for refused credentials, a missing bucket or object, a wrong region, a skewed
        /// clock and 4xx answers about the request itself.
        public var isRetryable: Bool {
            switch self {
            case .credentialsRefused, .noSuchBucket, .missingObject, .clockSkewed, .wrongRegion: false
            case .answered(let status, let code, _, _): HTTPUploadSession.isRetryable(status: status) || Self.retryableCodes.contains(code)
            case .unreachable, .timedOut, .invalidResponse: true
            }
        }

        /// A message for the user: what happened and what to do.
        public var description: String {
            let final = " Retrying will not help."
            switch self {
            case .credentialsRefused(let code, let bucket, let key, let id, let source):
                return "S3 refused the request for s3://\(bucket)/\(key) with 403 \(code): \(Self.advice(code: code, bucket: bucket, accessKeyID: id, source: source))" + final
            case .noSuchBucket(let bucket, let endpoint):
                return "The bucket \"\(bucket)\" does not exist at \(endpoint) (404 NoSuchBucket): create it, or check the name in --origin s3://\(bucket)/… and --s3-endpoint." + final
            case .missingObject(let key):
                return "The object \(key) is not in the bucket (404 NoSuchKey)."
            case .clockSkewed(let seconds):
                let how = seconds.map { Self.skewWords($0) } ?? "this machine's clock differs from the S3 server's by more than S3 allows (15 minutes)"
                return "S3 refused the request because the time in it is too far from the server's (RequestTimeTooSkewed): \(how). "
                    + "Set this machine's clock right (NTP: timedatectl set-ntp true, or chrony) and start again." + final
            case .wrongRegion(let region, let bucketRegion, let code):
                let hint = bucketRegion.map { "give --s3-region \($0)" } ?? "give the bucket's region with --s3-region (or AWS_REGION)"
                return "The bucket is not in region \(region) (\(code)"
                    + (bucketRegion.map { "; it is in \($0)" } ?? "") + "): \(hint)." + final
            case .answered(let status, let code, let message, let key):
                let what = code.isEmpty ? "" : " \(code)"
                let text = message.isEmpty ? "" : " (\(message.prefix(160)))"
                let retry = isRetryable ? " Reel retries." : final
                return "S3 answered HTTP \(status)\(what) to the request for \(key)\(text).\(retry)"
            case .unreachable(let url, let reason):
                return "Could not reach the S3 endpoint for \(url.absoluteString): \(reason). Check --s3-endpoint (host and port) and that the server runs; Reel retries while streaming."
            case .timedOut(let url, let seconds):
                return "The request to \(url.absoluteString) made no progress for \(Int(seconds)) s. The uplink may be too slow or the server stuck; Reel retries."
            case .invalidResponse(let url):
                return "The answer from \(url.absoluteString) was not an HTTP response. Is --s3-endpoint an S3 server?"
            }
        }

        /// What to check for a 403, by S3's code. Names the access key id (never the secret).
        static func advice(code: String, bucket: String, accessKeyID: String, source: String) -> String {
            switch code {
            case "SignatureDoesNotMatch":
                return "the secret key does not match the access key \(accessKeyID) (from \(source)). Check AWS_SECRET_ACCESS_KEY or the profile's aws_secret_access_key."
            case "InvalidAccessKeyId":
                return "the server does not know the access key \(accessKeyID) (from \(source)). Check AWS_ACCESS_KEY_ID or the profile, and that --s3-endpoint is the server that issued it."
            case "ExpiredToken", "TokenRefreshRequired", "InvalidToken":
                return "the session token of the temporary access key \(accessKeyID) (from \(source)) has expired or is not valid. Get fresh credentials (AWS_SESSION_TOKEN or the profile's aws_session_token)."
            default:
                return "the access key \(accessKeyID) (from \(source)) may not do that there. Allow it s3:PutObject, s3:GetObject and s3:DeleteObject on arn:aws:s3:::\(bucket)/* and s3:ListBucket on arn:aws:s3:::\(bucket) (the bucket's or the user's policy; Reel reads the playlist to check that a stream id is new, and lists an old stream to --replace it)."
            }
        }

        /// `this machine's clock is 1200 s (20 min) behind the server's`.
        static func skewWords(_ seconds: Int64) -> String {
            let magnitude = seconds.magnitude
            let minutes = magnitude >= 120 ? " (\(magnitude / 60) min)" : ""
            return "this machine's clock is \(magnitude) s\(minutes) \(seconds >= 0 ? "behind" : "ahead of") the server's"
        }
    }
}
