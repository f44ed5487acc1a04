import Foundation
@testable import ReelS3
import Testing

/// The signer against AWS's published examples; no expected value here is Reel's own.
@Suite("SigV4 signer (AWS's published vectors)")
struct SigV4SignerTests {
    /// The S3 examples' key: https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
    static let example = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
                                        source: "AWS's S3 documentation")

    @Test("the signing key of the SigV4 docs' example (20120215, us-east-1, iam)")
    func signingKey() {
        // https://docs.aws.amazon.com/general/latest/gr/signature-v4-examples.html ("Examples of
        // how to derive a signing key for Signature Version 4"; now in the IAM User Guide).
        let key = SigV4Signer.signingKey(secret: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", date: "20120215", region: "us-east-1", service: "iam")
        #expect(SigV4Signer.hex(key) == "f4780e2d9f65fa895f9c67b32ce1baf0b0d8a43505a000a1a9e090d414db404d")
    }

    @Test("SHA-256 of nothing and of the PUT example's body")
    func sha256() {
        #expect(SigV4Signer.sha256Hex(Data()) == SigV4.emptyPayloadHash)
        #expect(SigV4Signer.sha256Hex(Data("Welcome to Amazon S3.".utf8)) == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
    }

    /// Signs like the S3 target, returning the Authorization header.
    static func authorization(_ method: String, _ uri: String, query: [(name: String, value: String)] = [],
                              headers: [(name: String, value: String)], payloadHash: String) -> String? {
        let signer = SigV4Signer(credentials: example, region: "us-east-1")
        let signed = signer.sign(method: method, canonicalURI: uri, query: query, headers: [("host", "examplebucket.s3.amazonaws.com")] + headers,
                                 payloadHash: payloadHash, timestamp: "20130524T000000Z")
        return signed.first { $0.name == "Authorization" }?.value
    }

    @Test("S3's GET Object example (Range bytes=0-9)")
    func getObject() {
        #expect(Self.authorization("GET", "/test.txt", headers: [("Range", "bytes=0-9")], payloadHash: SigV4.emptyPayloadHash)
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("S3's PUT Object example (test$file.text, a signed body, Date and x-amz-storage-class)")
    func putObject() {
        let hash = SigV4Signer.sha256Hex(Data("Welcome to Amazon S3.".utf8))
        let auth = Self.authorization("PUT", "/" + SigV4.uriEncode("test$file.text", keepSlash: true),
                                      headers: [("Date", "Fri, 24 May 2013 00:00:00 GMT"), ("x-amz-storage-class", "REDUCED_REDUNDANCY")],
                                      payloadHash: hash)
        #expect(auth == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=date;host;x-amz-content-sha256;x-amz-date;x-amz-storage-class,Signature=98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
    }

    @Test("S3's GET Bucket Lifecycle and List Objects examples (query strings)")
    func queries() {
        #expect(Self.authorization("GET", "/", query: [("lifecycle", "")], headers: [], payloadHash: SigV4.emptyPayloadHash)?
            .hasSuffix("Signature=fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543") == true)
        #expect(Self.authorization("GET", "/", query: [("max-keys", "2"), ("prefix", "J")], headers: [], payloadHash: SigV4.emptyPayloadHash)?
            .hasSuffix("Signature=34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7") == true)
    }

    @Test("temporary credentials add x-amz-security-token and sign it; the secret is in no header")
    func sessionToken() {
        var credentials = Self.example
        credentials.sessionToken = "SESSION"
        let signed = SigV4Signer(credentials: credentials, region: "us-east-1")
            .sign(method: "PUT", canonicalURI: "/k", headers: [("host", "h")], payloadHash: SigV4.emptyPayloadHash, timestamp: "20130524T000000Z")
        #expect(signed.contains { $0.name == "x-amz-security-token" && $0.value == "SESSION" })
        let auth = signed.first { $0.name == "Authorization" }?.value ?? ""
        #expect(auth.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"))
        #expect(!signed.contains { $0.value.contains(credentials.secretAccessKey) })
    }
}
