import Foundation
import Testing
@testable import ReelS3

@Suite("S3 ListObjectsV2 answers and the bucket's address")
struct S3ObjectListTests {
    @Test("keys in order with entities decoded, their sizes, IsTruncated and NextContinuationToken")
    func readsAPage() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><Name>reel</Name><Prefix>live/streams/a/</Prefix>\
            <KeyCount>2</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>\
            <NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>\
            <Contents><Key>live/streams/a/init.mp4</Key><Size>800</Size><StorageClass>STANDARD</StorageClass></Contents>\
            <Contents><Key>live/streams/a/seg/000001.m4s&amp;x</Key><Size>1</Size></Contents></ListBucketResult>
            """
        let page = try #require(S3ObjectList(xml: xml))
        #expect(page.keys == ["live/streams/a/init.mp4", "live/streams/a/seg/000001.m4s&x"])
        #expect(page.objects.map(\.size) == [800, 1])
        #expect(page.isTruncated)
        #expect(page.nextContinuationToken == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
    }

    @Test("a key keeps its spaces; an entry without <Size> counts 0; <Key> outside <Contents> is no object")
    func entries() throws {
        let xml = "<ListBucketResult><Prefix><Key>not one</Key></Prefix><Contents><Key> a b </Key><Size>12345678901</Size></Contents>"
            + "<Contents><Key>c</Key></Contents><IsTruncated>false</IsTruncated></ListBucketResult>"
        let page = try #require(S3ObjectList(xml: xml))
        #expect(page.objects == [S3ObjectList.Object(key: " a b ", size: 12_345_678_901), S3ObjectList.Object(key: "c", size: 0)])
    }

    @Test("an empty last page; an error body is not a list")
    func emptyAndNotAList() throws {
        let empty = try #require(S3ObjectList(xml: "<ListBucketResult><Name>b</Name><KeyCount>0</KeyCount><IsTruncated>false</IsTruncated></ListBucketResult>"))
        #expect(empty.keys.isEmpty && !empty.isTruncated && empty.nextContinuationToken == nil)
        #expect(S3ObjectList(xml: "<Error><Code>AccessDenied</Code><Key>x</Key></Error>") == nil)
    }

    @Test("the list request: list-type=2, the prefix, then the continuation token; the bucket's path by addressing")
    func request() throws {
        let query = S3ObjectList.query(prefix: "live/streams/a/", continuationToken: "t/1=")
        #expect(SigV4.canonicalQuery(query) == "continuation-token=t%2F1%3D&list-type=2&prefix=live%2Fstreams%2Fa%2F")
        #expect(SigV4.canonicalQuery(S3ObjectList.query(prefix: "p/", continuationToken: nil, maxKeys: 2)) == "list-type=2&max-keys=2&prefix=p%2F")
        let location = try S3Location(parsing: "s3://reel/live")
        let endpoint = try #require(S3Location.Endpoint(parsing: "http://127.0.0.1:9000"))
        #expect(location.bucketAddress(endpoint: endpoint, addressing: .path).url == "http://127.0.0.1:9000/reel")
        let aws = location.bucketAddress(endpoint: .aws(region: "eu-west-1"), addressing: .virtualHost)
        #expect(aws.url == "https://reel.s3.eu-west-1.amazonaws.com/" && aws.path == "/" && aws.authority == "reel.s3.eu-west-1.amazonaws.com")
    }
}
