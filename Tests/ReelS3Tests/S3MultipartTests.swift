import Foundation
@testable import ReelS3
import Testing

/// The multipart upload's XML and checksums, against the shapes of AWS's S3 API reference
/// (CreateMultipartUpload, UploadPart, CompleteMultipartUpload, ListParts, ListMultipartUploads);
/// the digests were computed with Python's hashlib, not Reel.
@Suite("S3 multipart uploads as values")
struct S3MultipartTests {
    @Test("a part's checksums: base64 MD5 (Content-MD5) and base64 SHA-256 (x-amz-checksum-sha256)")
    func checksums() {
        let empty = S3Multipart.Checksums(of: Data())
        #expect(empty.md5 == "1B2M2Y8AsgTpgAmY7PhCfg==" && empty.sha256 == "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
        let welcome = S3Multipart.Checksums(of: Data("Welcome to Amazon S3.".utf8))
        #expect(welcome.md5 == "1EfQ6PKJ8WoS/2AnznfCWA==" && welcome.sha256 == "RM591nyVng01JP+sF3Hfu6h9K2tLTpnkIDSouAP4sHI=")
    }

    @Test("CreateMultipartUpload's answer gives the upload id; anything else none")
    func initiate() {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <InitiateMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>example-bucket</Bucket>\
            <Key>example-object</Key><UploadId>VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId></InitiateMultipartUploadResult>
            """
        #expect(S3Multipart.uploadID(inInitiateAnswer: xml) == "VXBsb2FkIElEIGZvciA2aWWpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA")
        #expect(S3Multipart.uploadID(inInitiateAnswer: "<Error><Code>AccessDenied</Code><UploadId>x</UploadId></Error>") == nil)
        #expect(S3Multipart.uploadID(inInitiateAnswer: "<InitiateMultipartUploadResult><UploadId></UploadId></InitiateMultipartUploadResult>") == nil)
    }

    @Test("Complete's body: parts by number with checksum, ETag (quotes kept, & escaped) and number")
    func completeRequest() {
        let parts = [S3Multipart.Part(number: 2, etag: "\"b&2\"", size: 5, checksumSHA256: "c2=="),
                     S3Multipart.Part(number: 1, etag: "\"a1\"", size: 5 << 20, checksumSHA256: nil)]
        #expect(S3Multipart.completeRequest(parts: parts) == #"<?xml version="1.0" encoding="UTF-8"?>"#
            + #"<CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
            + #"<Part><ETag>"a1"</ETag><PartNumber>1</PartNumber></Part>"#
            + #"<Part><ChecksumSHA256>c2==</ChecksumSHA256><ETag>"b&amp;2"</ETag><PartNumber>2</PartNumber></Part>"#
            + "</CompleteMultipartUpload>")
    }

    @Test("Complete's answer: the result's ETag; an <Error> sent with 200 is a failure; anything else unreadable")
    func completion() throws {
        let done = """
            <?xml version="1.0" encoding="UTF-8"?>

            <CompleteMultipartUploadResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">\
            <Location>http://Example-Bucket.s3.Region.amazonaws.com/Example-Object</Location><Bucket>Example-Bucket</Bucket>\
            <Key>Example-Object</Key><ETag>&quot;3858f62230ac3c915f300c664312c11f-9&quot;</ETag></CompleteMultipartUploadResult>
            """
        #expect(S3Multipart.completion(done) == .completed(etag: "\"3858f62230ac3c915f300c664312c11f-9\""))
        let failed = """
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>InternalError</Code><Message>We encountered an internal error. Please try again.</Message>\
            <RequestId>656c76696e6727732072657175657374</RequestId></Error>
            """
        #expect(S3Multipart.completion(failed) == .failed(S3ErrorBody(code: "InternalError", message: "We encountered an internal error. Please try again.")))
        #expect(S3Multipart.completion("   ") == .unreadable)
    }

    @Test("ListParts: number, ETag, size and checksum of each part; the next page's marker")
    func partPage() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>example-bucket</Bucket><Key>example-object</Key>\
            <UploadId>XXBsb2FkIElEIGZvciBlbHZpbmcncyVcdS1tb3ZpZS5tMnRzEEEwbG9hZA</UploadId>\
            <Initiator><ID>arn:aws:iam::111122223333:user/some-user-11116a31-17b5-4fb7-9df5-b288870f11xx</ID><DisplayName>umat-user</DisplayName></Initiator>\
            <StorageClass>STANDARD</StorageClass><PartNumberMarker>1</PartNumberMarker><NextPartNumberMarker>3</NextPartNumberMarker>\
            <MaxParts>2</MaxParts><IsTruncated>true</IsTruncated>\
            <Part><PartNumber>2</PartNumber><LastModified>2010-11-10T20:48:34.000Z</LastModified>\
            <ETag>"7778aef83f66abc1fa1e8477f296d394"</ETag><Size>10485760</Size></Part>\
            <Part><ChecksumSHA256>RM591nyVng01JP+sF3Hfu6h9K2tLTpnkIDSouAP4sHI=</ChecksumSHA256><PartNumber>3</PartNumber>\
            <LastModified>2010-11-10T20:48:33.000Z</LastModified><ETag>"aaaa18db4cc2f85cedef654fccc4a4x8"</ETag><Size>21</Size></Part>\
            </ListPartsResult>
            """
        let page = try #require(S3Multipart.PartPage(xml: xml))
        #expect(page.parts == [S3Multipart.Part(number: 2, etag: "\"7778aef83f66abc1fa1e8477f296d394\"", size: 10_485_760, checksumSHA256: nil),
                               S3Multipart.Part(number: 3, etag: "\"aaaa18db4cc2f85cedef654fccc4a4x8\"", size: 21,
                                                checksumSHA256: "RM591nyVng01JP+sF3Hfu6h9K2tLTpnkIDSouAP4sHI=")])
        #expect(page.isTruncated && page.nextPartNumberMarker == 3)
        #expect(SigV4.canonicalQuery(S3Multipart.PartPage.query(uploadID: "a/b=", marker: 3)) == "part-number-marker=3&uploadId=a%2Fb%3D")
        #expect(S3Multipart.PartPage(xml: "<ListPartsResult><IsTruncated>false</IsTruncated></ListPartsResult>")?.parts == [])
        let moto = "<ListPartsResponse><IsTruncated>false</IsTruncated><Part><PartNumber>1</PartNumber><ETag>\"e\"</ETag><Size>10</Size></Part></ListPartsResponse>"
        #expect(S3Multipart.PartPage(xml: moto)?.parts == [S3Multipart.Part(number: 1, etag: "\"e\"", size: 10, checksumSHA256: nil)], "moto's root name")
        #expect(S3Multipart.PartPage(xml: "<Error><Code>NoSuchUpload</Code></Error>") == nil)
    }

    @Test("ListMultipartUploads: key, upload id and start of each upload; the next page's markers")
    func uploadPage() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListMultipartUploadsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Bucket>bucket</Bucket><KeyMarker></KeyMarker>\
            <UploadIdMarker></UploadIdMarker><NextKeyMarker>my-movie.m2ts</NextKeyMarker>\
            <NextUploadIdMarker>YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ</NextUploadIdMarker><MaxUploads>3</MaxUploads>\
            <IsTruncated>true</IsTruncated>\
            <Upload><Key>my-divisor</Key><UploadId>XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw</UploadId>\
            <Initiator><ID>arn:aws:iam::111122223333:user/user1-11111a31-17b5-4fb7-9df5-b111111f13de</ID><DisplayName>user1</DisplayName></Initiator>\
            <Owner><ID>75aa57f09aa0c8caeab4f8c24e99d10f8e7faeebf76c078efc7c6caea54ba06a</ID><DisplayName>OwnerDisplayName</DisplayName></Owner>\
            <StorageClass>STANDARD</StorageClass><Initiated>2010-11-10T20:48:33.000Z</Initiated></Upload>\
            <Upload><Key> a &amp; b </Key><UploadId>VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA</UploadId></Upload>\
            </ListMultipartUploadsResult>
            """
        let page = try #require(S3Multipart.UploadPage(xml: xml))
        #expect(page.uploads == [
            S3Multipart.Upload(key: "my-divisor", uploadID: "XMgbGlrZSBlbHZpbmcncyBub3QgaGF2aW5nIG11Y2ggbHVjaw",
                               initiated: Date(timeIntervalSince1970: 1_289_422_113)),
            S3Multipart.Upload(key: " a & b ", uploadID: "VXBsb2FkIElEIGZvciBlbHZpbmcncyBteS1tb3ZpZS5tMnRzIHVwbG9hZA", initiated: nil),
        ])
        #expect(page.isTruncated && page.nextKeyMarker == "my-movie.m2ts" && page.nextUploadIDMarker == "YW55IGlkZWEgd2h5IGVsdmluZydzIHVwbG9hZCBmYWlsZWQ")
        let query = S3Multipart.UploadPage.query(prefix: "backup/", keyMarker: "k", uploadIDMarker: "u")
        #expect(SigV4.canonicalQuery(query) == "key-marker=k&prefix=backup%2F&upload-id-marker=u&uploads=")
        let last = try #require(S3Multipart.UploadPage(xml: "<ListMultipartUploadsResult><NextKeyMarker></NextKeyMarker><IsTruncated>false</IsTruncated></ListMultipartUploadsResult>"))
        #expect(last.uploads.isEmpty && !last.isTruncated && last.nextKeyMarker == nil)
    }
}
