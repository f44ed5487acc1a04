import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import ReelS3
import Testing

/// ``S3Error``'s classification and its words for a job other than the live stream (a backup:
/// `--to`, more permissions, no retries by Reel). The live stream's own words are checked,
/// exactly, in ReelLiveTests (`S3TargetTests`).
@Suite("S3 errors: classification and words by usage")
struct S3ErrorTests {
    static let backup = S3Usage(locationOption: "--to",
                                objectActions: ["s3:PutObject", "s3:GetObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
                                bucketActions: ["s3:ListBucket", "s3:ListBucketMultipartUploads"],
                                why: "a backup resumes its unfinished uploads", reelRetries: false)
    static let secret = "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"
    static let configuration = S3Client.Configuration(
        location: try! S3Location(parsing: "s3://bkt/library"), endpoint: S3Location.Endpoint(parsing: "http://127.0.0.1:9000"), addressing: nil,
        region: "us-east-1", credentials: AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: secret, source: "the test"), usage: backup)

    static func error(_ status: Int, _ xml: String) -> S3Error {
        let response = HTTPURLResponse(url: URL(string: "http://x/")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!
        return S3Error(status: status, body: Data(xml.utf8), response: response, key: "library/k", configuration: configuration)
    }

    @Test("hints name the job's option and permissions; a retryable answer does not promise that Reel retries")
    func wordedForTheJob() {
        let bucket = Self.error(404, "<Error><Code>NoSuchBucket</Code></Error>")
        #expect(bucket == .noSuchBucket(bucket: "bkt", endpoint: "http://127.0.0.1:9000", usage: Self.backup) && !bucket.isRetryable)
        #expect(bucket.description.contains("check the name in --to s3://bkt/… and --s3-endpoint."), "\(bucket)")
        let denied = Self.error(403, "<Error><Code>AccessDenied</Code></Error>")
        #expect(denied.description.hasSuffix("Allow it s3:PutObject, s3:GetObject, s3:DeleteObject, s3:AbortMultipartUpload and "
            + "s3:ListMultipartUploadParts on arn:aws:s3:::bkt/* and s3:ListBucket and s3:ListBucketMultipartUploads on arn:aws:s3:::bkt "
            + "(the bucket's or the user's policy; a backup resumes its unfinished uploads). Retrying will not help."), "\(denied)")
        let slow = Self.error(503, "<Error><Code>SlowDown</Code><Message>Please reduce your request rate.</Message></Error>")
        #expect(slow.isRetryable && slow.description == "S3 answered HTTP 503 SlowDown to the request for library/k (Please reduce your request rate.). Trying again later may help.")
        let url = URL(string: "http://127.0.0.1:9/bkt/library/k")!
        let unreachable = S3Error.network(.unreachable(url: url, reason: "connection refused"), usage: Self.backup)
        #expect(unreachable.isRetryable && unreachable.description.hasSuffix("Check --s3-endpoint (host and port) and that the server runs."))
        let stuck = S3Error.network(.timedOut(url: url, seconds: 15), usage: Self.backup)
        #expect(stuck.description.hasSuffix("made no progress for 15 s. The uplink may be too slow or the server stuck."))
    }

    @Test("a 200 with an <Error> body (CompleteMultipartUpload) is classified by its code: InternalError retryable, others final")
    func errorsSentWith200() {
        let serverFault = Self.error(200, "<Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message></Error>")
        #expect(serverFault == .answered(status: 200, code: "InternalError", message: "We encountered an internal error. Please try again.",
                                      key: "library/k", usage: Self.backup))
        #expect(serverFault.isRetryable)
        #expect(!Self.error(200, "<Error><Code>InvalidPart</Code></Error>").isRetryable)
        #expect(!Self.error(400, "<Error><Code>BadDigest</Code></Error>").isRetryable)
    }

    @Test("what counts as a missing object: NoSuchKey, a 404 without a code (HEAD), NoSuchUpload; never a missing bucket")
    func missingObjects() {
        #expect(Self.error(404, "<Error><Code>NoSuchKey</Code></Error>") == .missingObject(key: "library/k"))
        #expect(Self.error(404, "").isMissingObject && Self.error(404, "<Error><Code>NoSuchUpload</Code></Error>").isMissingObject)
        #expect(!Self.error(404, "<Error><Code>NoSuchBucket</Code></Error>").isMissingObject)
        #expect(!Self.error(403, "").isMissingObject && !Self.error(500, "").isMissingObject)
    }

    @Test("an object too large and a file that cannot be written are final; no message shows the secret")
    func finalAndSecretFree() {
        let large = S3Error.tooLarge(key: "library/library.json", limit: 1000, size: 5000)
        #expect(!large.isRetryable && large.description.contains("larger than the 1000 bytes Reel reads of it (it has 5000)"), "\(large)")
        let file = S3Error.localFile(path: "/m/x.mp4", reason: "no space left on the device")
        #expect(!file.isRetryable && file.description == "Could not write /m/x.mp4 with what came from the bucket: no space left on the device.")
        for code in ["SignatureDoesNotMatch", "InvalidAccessKeyId", "ExpiredToken", "AccessDenied"] {
            let refused = Self.error(403, "<Error><Code>\(code)</Code></Error>")
            #expect(refused.description.contains("AKIAEXAMPLE") && !refused.description.contains(Self.secret), "\(refused)")
        }
    }
}
