import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import ReelCore
@testable import ReelLive
import ReelS3
import ReelTestSupport
import Testing

/// ``S3Target`` against moto on loopback (signatures checked), read back without a signature
/// as a player reads a public bucket.
@Suite("S3 target against moto", .serialized)
struct S3TargetTests {
    static func target(_ server: MotoS3Server, secret: String? = nil, bucket: String? = nil) throws -> S3Target {
        let credentials = AWSCredentials(accessKeyID: server.accessKeyID, secretAccessKey: secret ?? server.secretAccessKey, source: "the test")
        let location = try S3Location(parsing: "s3://\(bucket ?? server.bucket)/\(server.prefix)")
        return S3Target(configuration: .init(location: location, endpoint: S3Location.Endpoint(parsing: server.endpoint), addressing: nil,
                                             region: "us-east-1", credentials: credentials), requestTimeout: 5)
    }

    @Test("PUT then an unsigned GET: the bytes, Content-Type and Cache-Control of OriginFile; DELETE removes, twice is fine")
    func roundTrip() async throws {
        try await withMotoS3 { server in
            let target = try Self.target(server)
            #expect(target.configuration.addressing == .path, "path-style by default with an endpoint")
            let files: [(String, OriginFile, Data)] = [
                ("streams/rt/playlist.m3u8", .playlist, Data("#EXTM3U\n".utf8)),
                ("streams/rt/init.mp4", .initSegment, Data(repeating: 7, count: 1000)),
                ("streams/rt/seg/000001.m4s", .segment(sequence: 1), Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })),
            ]
            for (path, file, body) in files {
                try await target.put(path: path, body: body, contentType: StreamLayout.contentType(forPath: path))
                let got = try await server.get(path)
                #expect(got.status == 200 && got.body == body, "\(path): \(got.status)")
                #expect(got.headers["content-type"] == file.contentType, "\(path): \(got.headers)")
                #expect(got.headers["cache-control"] == file.cacheControl, "\(path): \(got.headers)")
            }
            #expect(target.url(forPath: "streams/rt/init.mp4").absoluteString == "\(server.endpoint)/\(server.bucket)/live/streams/rt/init.mp4")
            try await target.delete(path: "streams/rt/init.mp4")
            #expect(try await server.get("streams/rt/init.mp4").status == 404)
            try await target.delete(path: "streams/rt/init.mp4")
        }
    }

    @Test("a wrong secret is a final 403 naming the key id, never the secret; a missing bucket a final 404; a dead endpoint retryable")
    func refusals() async throws {
        try await withMotoS3 { server in
            let wrong = try Self.target(server, secret: "not-the-secret-0123456789")
            do {
                try await wrong.put(path: "streams/x/init.mp4", body: Data([1]), contentType: "video/mp4")
                Issue.record("a wrong secret must fail")
            } catch let error as S3Target.Error {
                #expect(!error.isRetryable)
                #expect(error.description.contains("403 SignatureDoesNotMatch: the secret key does not match the access key \(server.accessKeyID)"), "\(error)")
                #expect(!error.description.contains("not-the-secret") && !error.description.contains(server.secretAccessKey))
            }
            let missing = try Self.target(server, bucket: "no-such-bucket")
            do {
                try await missing.put(path: "streams/x/init.mp4", body: Data([1]), contentType: "video/mp4")
                Issue.record("a missing bucket must fail")
            } catch let error as S3Target.Error {
                #expect(!error.isRetryable)
                #expect(error.description.contains("The bucket \"no-such-bucket\" does not exist at \(server.endpoint) (404 NoSuchBucket)"), "\(error)")
            }
        }
        let credentials = AWSCredentials(accessKeyID: "AKIA", secretAccessKey: "s", source: "the test")
        let dead = S3Target(configuration: .init(location: try S3Location(parsing: "s3://bucket/p"),
                                                 endpoint: S3Location.Endpoint(parsing: "http://127.0.0.1:\(try Loopback.freePort())"),
                                                 addressing: nil, region: "us-east-1", credentials: credentials), requestTimeout: 5)
        do {
            try await dead.put(path: "streams/x/init.mp4", body: Data([1]), contentType: "video/mp4")
            Issue.record("nothing listens there")
        } catch let error as S3Target.Error {
            #expect(error.isRetryable && error.description.contains("Could not reach the S3 endpoint"), "\(error)")
        }
    }

    @Test("S3's answers classified: skew (with the seconds and NTP), region, SlowDown, 5xx, 400 RequestTimeout retryable; other 4xx final")
    func classification() throws {
        let credentials = AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "s", source: "the test")
        let configuration = S3Target.Configuration(location: try S3Location(parsing: "s3://bkt/p"), endpoint: nil, addressing: nil,
                                                   region: "us-east-1", credentials: credentials)
        #expect(configuration.addressing == .virtualHost && configuration.endpoint.host == "s3.us-east-1.amazonaws.com")
        func error(_ status: Int, _ xml: String, headers: [String: String] = [:]) -> S3Target.Error {
            let response = HTTPURLResponse(url: URL(string: "http://x/")!, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers)!
            return S3Target.Error(status: status, body: Data(xml.utf8), response: response, key: "p/k", configuration: configuration)
        }
        let skew = error(403, "<Error><Code>RequestTimeTooSkewed</Code><RequestTime>20130524T000000Z</RequestTime><ServerTime>2013-05-24T00:20:00Z</ServerTime></Error>")
        #expect(skew == .clockSkewed(seconds: 1200) && !skew.isRetryable)
        #expect(skew.description.contains("this machine's clock is 1200 s (20 min) behind the server's") && skew.description.contains("NTP"), "\(skew)")
        let region = error(400, "<Error><Code>AuthorizationHeaderMalformed</Code><Region>eu-west-1</Region></Error>")
        #expect(!region.isRetryable && region.description.contains("give --s3-region eu-west-1"), "\(region)")
        #expect(error(301, "", headers: ["x-amz-bucket-region": "ap-northeast-1"]).description.contains("--s3-region ap-northeast-1"))
        #expect(error(503, "<Error><Code>SlowDown</Code></Error>").isRetryable)
        #expect(error(400, "<Error><Code>RequestTimeout</Code></Error>").isRetryable)
        #expect(error(500, "<html>oops</html>").isRetryable)
        #expect(error(429, "").isRetryable)
        #expect(!error(400, "<Error><Code>InvalidArgument</Code><Message>bad</Message></Error>").isRetryable)
        let denied = error(403, "<Error><Code>AccessDenied</Code></Error>")
        #expect(!denied.isRetryable && denied.description.contains("s3:PutObject, s3:GetObject and s3:DeleteObject on arn:aws:s3:::bkt/* and s3:ListBucket on arn:aws:s3:::bkt "), "\(denied)")
        #expect(error(403, "<Error><Code>InvalidAccessKeyId</Code></Error>").description.contains("does not know the access key AKIAEXAMPLE"))
    }

    @Test("the live stream's messages, word for word as they were before the client moved to ReelS3")
    func liveWording() throws {
        let live = S3Target.Configuration(location: try S3Location(parsing: "s3://bkt/p"), endpoint: nil, addressing: nil, region: "us-east-1",
                                          credentials: AWSCredentials(accessKeyID: "AKIAEXAMPLE", secretAccessKey: "s", source: "the test")).usage
        #expect(live == .liveStream)
        let url = URL(string: "http://127.0.0.1:9/bkt/p/k")!
        let expected: [(S3Target.Error, String)] = [
            (.credentialsRefused(code: "AccessDenied", bucket: "bkt", key: "p/k", accessKeyID: "AKIAEXAMPLE", source: "the test", usage: live),
             "S3 refused the request for s3://bkt/p/k with 403 AccessDenied: the access key AKIAEXAMPLE (from the test) may not do that there. Allow it s3:PutObject, s3:GetObject and s3:DeleteObject on arn:aws:s3:::bkt/* and s3:ListBucket on arn:aws:s3:::bkt (the bucket's or the user's policy; Reel reads the playlist to check that a stream id is new, and lists an old stream to --replace it). Retrying will not help."),
            (.credentialsRefused(code: "SignatureDoesNotMatch", bucket: "bkt", key: "p/k", accessKeyID: "AKIAEXAMPLE", source: "the test", usage: live),
             "S3 refused the request for s3://bkt/p/k with 403 SignatureDoesNotMatch: the secret key does not match the access key AKIAEXAMPLE (from the test). Check AWS_SECRET_ACCESS_KEY or the profile's aws_secret_access_key. Retrying will not help."),
            (.noSuchBucket(bucket: "bkt", endpoint: "https://s3.us-east-1.amazonaws.com", usage: live),
             "The bucket \"bkt\" does not exist at https://s3.us-east-1.amazonaws.com (404 NoSuchBucket): create it, or check the name in --origin s3://bkt/… and --s3-endpoint. Retrying will not help."),
            (.missingObject(key: "p/k"),
             "The object p/k is not in the bucket (404 NoSuchKey)."),
            (.clockSkewed(seconds: 1200),
             "S3 refused the request because the time in it is too far from the server's (RequestTimeTooSkewed): this machine's clock is 1200 s (20 min) behind the server's. Set this machine's clock right (NTP: timedatectl set-ntp true, or chrony) and start again. Retrying will not help."),
            (.clockSkewed(seconds: nil),
             "S3 refused the request because the time in it is too far from the server's (RequestTimeTooSkewed): this machine's clock differs from the S3 server's by more than S3 allows (15 minutes). Set this machine's clock right (NTP: timedatectl set-ntp true, or chrony) and start again. Retrying will not help."),
            (.wrongRegion(region: "us-east-1", bucketRegion: "eu-west-1", code: "AuthorizationHeaderMalformed"),
             "The bucket is not in region us-east-1 (AuthorizationHeaderMalformed; it is in eu-west-1): give --s3-region eu-west-1. Retrying will not help."),
            (.answered(status: 503, code: "SlowDown", message: "m", key: "p/k", usage: live),
             "S3 answered HTTP 503 SlowDown to the request for p/k (m). Reel retries."),
            (.answered(status: 400, code: "InvalidArgument", message: "bad", key: "p/k", usage: live),
             "S3 answered HTTP 400 InvalidArgument to the request for p/k (bad). Retrying will not help."),
            (.unreachable(url: url, reason: "connection refused", usage: live),
             "Could not reach the S3 endpoint for http://127.0.0.1:9/bkt/p/k: connection refused. Check --s3-endpoint (host and port) and that the server runs; Reel retries while streaming."),
            (.timedOut(url: url, seconds: 15, usage: live),
             "The request to http://127.0.0.1:9/bkt/p/k made no progress for 15 s. The uplink may be too slow or the server stuck; Reel retries."),
            (.invalidResponse(url: url),
             "The answer from http://127.0.0.1:9/bkt/p/k was not an HTTP response. Is --s3-endpoint an S3 server?"),
        ]
        for (error, words) in expected {
            #expect(error.description == words)
        }
    }
}
