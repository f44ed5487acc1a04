import Foundation
@testable import ReelS3
import Testing

/// A request addressed and signed as the S3 target sends it, against the List Objects example of
/// AWS's S3 documentation (the signature is AWS's, not Reel's).
@Suite struct S3RequestTests {
    static let bucket = S3Location.ObjectAddress(authority: "examplebucket.s3.amazonaws.com", path: "/",
                                                 url: "https://examplebucket.s3.amazonaws.com/")
    static let signer = SigV4Signer(credentials: SigV4SignerTests.example, region: "us-east-1")
    static let exampleDate = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    @Test func theListObjectsExampleSignedWithItsQueryInTheURL() {
        let request = S3Request(method: "GET", address: Self.bucket, query: [("prefix", "J"), ("max-keys", "2")],
                                body: nil, signer: Self.signer, date: Self.exampleDate)
        #expect(request.url.absoluteString == "https://examplebucket.s3.amazonaws.com/?max-keys=2&prefix=J")
        #expect(request.headers.map(\.name) == ["x-amz-content-sha256", "x-amz-date", "Authorization"])
        #expect(request.headers[0].value == SigV4.emptyPayloadHash && request.headers[1].value == "20130524T000000Z")
        #expect(request.headers[2].value.hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7"))
    }

    @Test func aBodyIsHashedAndTheCallersHeadersComeFirstUnsigned() {
        let body = Data("Welcome to Amazon S3.".utf8)
        let object = S3Location.ObjectAddress(authority: "h:9000", path: "/b/live/a%20b.m4s", url: "http://h:9000/b/live/a%20b.m4s")
        let request = S3Request(method: "PUT", address: object, headers: [("Content-Type", "video/iso.segment")], body: body,
                                signer: Self.signer, date: Self.exampleDate)
        #expect(request.url.absoluteString == "http://h:9000/b/live/a%20b.m4s" && request.method == "PUT" && request.body == body)
        #expect(request.headers.first! == ("Content-Type", "video/iso.segment"))
        #expect(request.headers.contains { $0 == ("x-amz-content-sha256", SigV4Signer.sha256Hex(body)) })
        let authorization = request.headers.last!
        #expect(authorization.name == "Authorization" && authorization.value.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date,"))
    }

    @Test func theCallersAmzHeadersAndContentMD5AreSignedAsS3Wants() {
        let object = S3Location.ObjectAddress(authority: "h:9000", path: "/b/k", url: "http://h:9000/b/k")
        let request = S3Request(method: "PUT", address: object,
                                headers: [("Content-Type", "video/mp4"), ("X-Amz-Meta-Reel", "1"), ("Content-MD5", "1B2M2Y8AsgTpgAmY7PhCfg=="),
                                          ("x-amz-checksum-sha256", "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")],
                                body: Data(), signer: Self.signer, date: Self.exampleDate)
        let authorization = request.headers.last!.value
        #expect(authorization.contains("SignedHeaders=content-md5;host;x-amz-checksum-sha256;x-amz-content-sha256;x-amz-date;x-amz-meta-reel,"),
                "\(authorization)")
        #expect(request.headers.prefix(4).map(\.name) == ["Content-Type", "X-Amz-Meta-Reel", "Content-MD5", "x-amz-checksum-sha256"])
    }
}
