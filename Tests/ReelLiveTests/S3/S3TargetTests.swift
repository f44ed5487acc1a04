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
}
