import Foundation
import ReelCore
import Testing
@testable import ReelS3

/// The canonical text of AWS's S3 examples. Source of every expected value below:
/// "Signature Calculations for the Authorization Header: Transferring Payload in a Single Chunk",
/// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html (the "GET
/// Object" example: examplebucket, test.txt, Range bytes=0-9, 20130524T000000Z). The hashes and
/// signatures are checked by SigV4SignerTests.
@Suite("SigV4 canonical text")
struct SigV4Tests {
    static let emptyHash = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"

    @Test("the GET Object example's canonical request and string to sign, as AWS prints them")
    func getObjectExample() {
        let request = SigV4.canonicalRequest(
            method: "GET", canonicalURI: "/test.txt",
            headers: [("Host", "examplebucket.s3.amazonaws.com"), ("Range", "bytes=0-9"),
                      ("x-amz-content-sha256", Self.emptyHash), ("x-amz-date", "20130524T000000Z")],
            payloadHash: Self.emptyHash)
        #expect(request.text == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        #expect(request.signedHeaders == "host;range;x-amz-content-sha256;x-amz-date")
        let scope = SigV4.credentialScope(timestamp: "20130524T000000Z", region: "us-east-1")
        #expect(scope == "20130524/us-east-1/s3/aws4_request")
        // The canonical request's hash as AWS prints it in the same example.
        let toSign = SigV4.stringToSign(timestamp: "20130524T000000Z", scope: scope,
                                        canonicalRequestHash: "7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972")
        #expect(toSign == "AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972")
        #expect(SigV4.authorization(accessKeyID: "AKIAIOSFODNN7EXAMPLE", scope: scope, signedHeaders: request.signedHeaders,
                                    signature: "f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
                == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test("URI encoding: unreserved kept, everything else %XX once; S3 keys keep their slashes")
    func uriEncoding() {
        #expect(SigV4.uriEncode("test$file.text") == "test%24file.text")  // the PUT Object example's key
        #expect(SigV4.uriEncode("a b/c~d-e_f.g") == "a%20b%2Fc~d-e_f.g")
        #expect(SigV4.uriEncode("a b/c", keepSlash: true) == "a%20b/c")
        #expect(SigV4.uriEncode("50%") == "50%25", "a % is encoded, so an encoded key is never decoded by the server")
        #expect(SigV4.uriEncode("ñ") == "%C3%B1")
        #expect(SigV4.uriEncode("\n") == "%0A")
        #expect(SigV4.uriEncode("live/streams/a/seg/000001.m4s", keepSlash: true) == "live/streams/a/seg/000001.m4s")
    }

    @Test("canonical query: encoded, sorted by name then value; a name without a value gets '='")
    func canonicalQuery() {
        #expect(SigV4.canonicalQuery([]) == "")
        #expect(SigV4.canonicalQuery([("prefix", "J"), ("max-keys", "2")]) == "max-keys=2&prefix=J")  // the list-objects example
        #expect(SigV4.canonicalQuery([("lifecycle", "")]) == "lifecycle=")
        #expect(SigV4.canonicalQuery([("b", "2"), ("a", "x/y z"), ("b", "1")]) == "a=x%2Fy%20z&b=1&b=2")
    }

    @Test("canonical headers: names lower-cased and sorted, values trimmed with inner spaces made one, repeats joined")
    func canonicalHeaders() {
        let result = SigV4.canonicalHeaders([("X-Amz-Date", " 20130524T000000Z "), ("Host", "h"), ("My-Header", "a   b  c"), ("my-header", "d")])
        #expect(result.text == "host:h\nmy-header:a b c,d\nx-amz-date:20130524T000000Z\n")
        #expect(result.signed == "host;my-header;x-amz-date")
    }

    @Test("timestamps: a Date as x-amz-date, read back")
    func timestamps() {
        #expect(SigV4.timestamp(Date(timeIntervalSince1970: 1_369_353_600)) == "20130524T000000Z")
        #expect(SigV4.timestamp(Date(timeIntervalSince1970: 951_782_399.9)) == "20000228T235959Z")
        #expect(SigV4.timestamp(Date(timeIntervalSince1970: 951_868_800)) == "20000301T000000Z", "2000 is a leap year: 29 Feb in between")
        for seconds in stride(from: 0.0, to: 4_102_444_800, by: 86_400 * 97 + 3_661) {
            let text = SigV4.timestamp(Date(timeIntervalSince1970: seconds))
            #expect(TimestampFormat.secondsSince1970(text) == Int64(seconds), "\(text)")
        }
    }
}
