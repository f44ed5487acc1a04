import Foundation

extension S3Error {
    /// A message for the user: what happened and what to do, in the job's words (``S3Usage``).
    public var description: String {
        let final = " Retrying will not help."
        switch self {
        case .credentialsRefused(let code, let bucket, let key, let id, let source, let usage):
            let advice = Self.advice(code: code, bucket: bucket, accessKeyID: id, source: source, usage: usage)
            return "S3 refused the request for s3://\(bucket)/\(key) with 403 \(code): \(advice)" + final
        case .noSuchBucket(let bucket, let endpoint, let usage):
            return "The bucket \"\(bucket)\" does not exist at \(endpoint) (404 NoSuchBucket): create it, or check the name in "
                + "\(usage.locationOption) s3://\(bucket)/… and --s3-endpoint." + final
        case .missingObject(let key):
            return "The object \(key) is not in the bucket (404 NoSuchKey)."
        case .clockSkewed(let seconds):
            let how = seconds.map { Self.skewWords($0) } ?? "this machine's clock differs from the S3 server's by more than S3 allows (15 minutes)"
            return "S3 refused the request because the time in it is too far from the server's (RequestTimeTooSkewed): \(how). "
                + "Set this machine's clock right (NTP: timedatectl set-ntp true, or chrony) and start again." + final
        case .wrongRegion(let region, let bucketRegion, let code):
            let hint = bucketRegion.map { "give --s3-region \($0)" } ?? "give the bucket's region with --s3-region (or AWS_REGION)"
            return "The bucket is not in region \(region) (\(code)" + (bucketRegion.map { "; it is in \($0)" } ?? "") + "): \(hint)." + final
        case .answered(let status, let code, let message, let key, let usage):
            let what = code.isEmpty ? "" : " \(code)"
            let text = message.isEmpty ? "" : " (\(message.prefix(160)))"
            let retry = !isRetryable ? final : usage.reelRetries ? " Reel retries." : " Trying again later may help."
            return "S3 answered HTTP \(status)\(what) to the request for \(key)\(text).\(retry)"
        case .unreachable(let url, let reason, let usage):
            let retry = usage.reelRetries ? "; Reel retries" + (usage.retriesWhile.map { " \($0)" } ?? "") : ""
            return "Could not reach the S3 endpoint for \(url.absoluteString): \(reason). Check --s3-endpoint (host and port) and that the server runs\(retry)."
        case .timedOut(let url, let seconds, let usage):
            let retry = usage.reelRetries ? "; Reel retries" : ""
            return "The request to \(url.absoluteString) made no progress for \(Int(seconds)) s. The uplink may be too slow or the server stuck\(retry)."
        case .invalidResponse(let url):
            return "The answer from \(url.absoluteString) was not an HTTP response. Is --s3-endpoint an S3 server?"
        case .tooLarge(let key, let limit, let size):
            let given = size.map { " (it has \($0))" } ?? ""
            return "The object \(key) is larger than the \(limit) bytes Reel reads of it\(given), so it is not the object Reel expects there." + final
        case .localFile(let path, let reason):
            return "Could not write \(path) with what came from the bucket: \(reason)."
        }
    }

    /// What to check for a 403, by S3's code. Names the access key id (never the secret).
    static func advice(code: String, bucket: String, accessKeyID: String, source: String, usage: S3Usage) -> String {
        switch code {
        case "SignatureDoesNotMatch":
            return "the secret key does not match the access key \(accessKeyID) (from \(source)). Check AWS_SECRET_ACCESS_KEY or the profile's aws_secret_access_key."
        case "InvalidAccessKeyId":
            return "the server does not know the access key \(accessKeyID) (from \(source)). Check AWS_ACCESS_KEY_ID or the profile, and that --s3-endpoint is the server that issued it."
        case "ExpiredToken", "TokenRefreshRequired", "InvalidToken":
            return "the session token of the temporary access key \(accessKeyID) (from \(source)) has expired or is not valid. Get fresh credentials (AWS_SESSION_TOKEN or the profile's aws_session_token)."
        default:
            return "the access key \(accessKeyID) (from \(source)) may not do that there. \(usage.permissionAdvice(bucket: bucket))"
        }
    }

    /// `this machine's clock is 1200 s (20 min) behind the server's`.
    static func skewWords(_ seconds: Int64) -> String {
        let magnitude = seconds.magnitude
        let minutes = magnitude >= 120 ? " (\(magnitude / 60) min)" : ""
        return "this machine's clock is \(magnitude) s\(minutes) \(seconds >= 0 ? "behind" : "ahead of") the server's"
    }
}
