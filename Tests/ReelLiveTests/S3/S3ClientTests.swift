import Foundation
import ReelCore
@testable import ReelS3
import ReelTestSupport
import Testing

/// ReelS3's ``S3Client`` against moto on loopback, as the S3 target's tests run it: signatures
/// checked, and bodies checked against `x-amz-content-sha256`, `Content-MD5` and
/// `x-amz-checksum-sha256` by `scripts/moto-s3.py` as S3 checks them. Every operation, the
/// multipart upload included.
@Suite("S3 client against moto", .serialized)
struct S3ClientTests {
    /// A backup's words: errors name `--to` and the permissions a backup needs; Reel does not retry.
    static let usage = S3Usage(locationOption: "--to",
                               objectActions: ["s3:PutObject", "s3:GetObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
                               bucketActions: ["s3:ListBucket", "s3:ListBucketMultipartUploads"], reelRetries: false)

    static func client(_ server: MotoS3Server, bucket: String? = nil) throws -> S3Client {
        let credentials = AWSCredentials(accessKeyID: server.accessKeyID, secretAccessKey: server.secretAccessKey, source: "the test")
        let location = try S3Location(parsing: "s3://\(bucket ?? server.bucket)/backup")
        return S3Client(configuration: .init(location: location, endpoint: S3Location.Endpoint(parsing: server.endpoint), addressing: nil,
                                             region: "us-east-1", credentials: credentials, usage: usage), requestTimeout: 10)
    }

    /// Bytes that differ from place to place, so a part out of order or a shifted range shows.
    static func pattern(_ count: Int, seed: UInt8) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ Int(seed) &+ $0 >> 11) })
    }

    @Test("put with metadata, then head, get (whole, bounded, a range, into a file), list page by page, delete; what is missing is nil")
    func objects() async throws {
        try await withMotoS3 { server in
            let client = try Self.client(server)
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let body = Self.pattern(300_000, seed: 1)
            let key = client.configuration.location.key(forPath: "media/a b/clip.mp4")
            let etag = try await client.put(key: key, body: body, headers: [("Content-Type", "video/mp4"), ("x-amz-meta-reel-checksum", "xxh3:abc")])
            let md5 = try #require(Data(base64Encoded: S3Multipart.Checksums(of: body).md5))
            #expect(etag == "\"" + SigV4Signer.hex(Array(md5)) + "\"")

            let head = try #require(try await client.head(key: key))
            #expect(head == S3Client.ObjectHead(size: 300_000, etag: etag, metadata: ["reel-checksum": "xxh3:abc"]))
            #expect(try await client.get(key: key, maxBytes: 1 << 20) == body)
            await #expect(throws: S3Error.tooLarge(key: key, limit: 1000, size: 300_000)) { try await client.get(key: key, maxBytes: 1000) }
            #expect(try await client.get(key: key, range: 1000..<1100) == body.subdata(in: 1000..<1100))
            #expect(try await client.get(key: key, range: 299_990..<300_000) == body.subdata(in: 299_990..<300_000))

            let folder = dir.path("restored")
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            #expect(try await client.get(key: key, toFile: folder + "/clip.mp4") == 300_000)
            #expect(FileManager.default.contents(atPath: folder + "/clip.mp4") == body)

            let missing = key + ".missing"
            #expect(try await client.head(key: missing) == nil)
            #expect(try await client.get(key: missing, maxBytes: 10) == nil)
            #expect(try await client.get(key: missing, toFile: folder + "/missing") == nil)
            #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["clip.mp4"], "no file for the missing one, no hidden file left")
            await #expect(throws: S3Error.missingObject(key: missing)) { try await client.get(key: missing, range: 0..<10) }

            let listed = (0..<5).map { S3ObjectList.Object(key: "backup/list/\($0)", size: Int64($0 * 10)) }
            for object in listed { try await client.put(key: object.key, body: Self.pattern(Int(object.size), seed: 2)) }
            #expect(try await client.list(prefix: "backup/list/", pageSize: 2) == listed, "three pages of at most two")
            #expect(try await client.list(prefix: "backup/").map(\.key) == listed.map(\.key) + [key])

            try await client.delete(key: key)
            #expect(try await client.head(key: key) == nil)
            try await client.delete(key: key)
        }
    }

    @Test("multipart: two 5 MiB parts and a smaller last one, listed, completed in any order into the object; the upload is gone")
    func multipartUpload() async throws {
        try await withMotoS3 { server in
            let client = try Self.client(server)
            let dir = try TemporaryDirectory()
            defer { dir.cleanup() }
            let key = "backup/media/big.mp4"
            let bodies = [Self.pattern(5 << 20, seed: 3), Self.pattern(5 << 20, seed: 4), Self.pattern(123_457, seed: 5)]
            let uploadID = try await client.createMultipartUpload(key: key, headers: [("Content-Type", "video/mp4"), ("x-amz-meta-reel-checksum", "xxh3:big")])
            #expect(try await client.listMultipartUploads(prefix: "backup/").map { [$0.key, $0.uploadID] } == [[key, uploadID]])

            var parts: [S3Multipart.Part] = []
            for (index, body) in bodies.enumerated() {
                parts.append(try await client.uploadPart(key: key, uploadID: uploadID, number: index + 1, body: body))
            }
            #expect(parts.map(\.checksumSHA256) == bodies.map { S3Multipart.Checksums(of: $0).sha256 })
            let listed = try await client.listParts(key: key, uploadID: uploadID)
            #expect(listed.map(\.number) == [1, 2, 3] && listed.map(\.etag) == parts.map(\.etag))
            #expect(listed.map(\.size) == bodies.map { Int64($0.count) })

            let etag = try await client.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts.reversed())
            #expect(etag.hasSuffix("-3\""), "a multipart ETag names its part count: \(etag)")
            #expect(try await client.listMultipartUploads(prefix: "backup/").isEmpty)
            let whole = bodies.reduce(Data(), +)
            let head = try #require(try await client.head(key: key))
            #expect(head.size == Int64(whole.count) && head.etag == etag && head.metadata["reel-checksum"] == "xxh3:big")
            #expect(try await client.get(key: key, toFile: dir.path("big.mp4")) == Int64(whole.count))
            #expect(FileManager.default.contents(atPath: dir.path("big.mp4")) == whole)
            #expect(try await client.get(key: key, range: Int64(5 << 20) - 5..<Int64(5 << 20) + 5) == whole.subdata(in: (5 << 20) - 5..<(5 << 20) + 5))
        }
    }

    @Test("an aborted upload leaves no object and no upload (aborting twice is fine); a part that does not match its checksums is refused")
    func abortAndRefusedPart() async throws {
        try await withMotoS3 { server in
            let client = try Self.client(server)
            let key = "backup/media/aborted.mp4"
            let uploadID = try await client.createMultipartUpload(key: key)
            _ = try await client.uploadPart(key: key, uploadID: uploadID, number: 1, body: Self.pattern(5 << 20, seed: 6))
            try await client.abortMultipartUpload(key: key, uploadID: uploadID)
            #expect(try await client.listMultipartUploads(prefix: "backup/").isEmpty)
            #expect(try await client.head(key: key) == nil)
            #expect(try await client.list(prefix: "backup/").isEmpty)
            try await client.abortMultipartUpload(key: key, uploadID: uploadID)

            let checked = try await client.createMultipartUpload(key: key)
            let body = Self.pattern(100_000, seed: 7)
            var other = body
            other[500] ^= 1
            do {
                _ = try await client.uploadPart(key: key, uploadID: checked, number: 1, body: body, checksums: S3Multipart.Checksums(of: other))
                Issue.record("a part whose body does not match its checksums must be refused")
            } catch let error as S3Error {
                guard case .answered(status: 400, code: "BadDigest", _, key: key, _) = error else {
                    Issue.record("not a 400 BadDigest: \(error)")
                    return
                }
                #expect(error.description.hasPrefix("S3 answered HTTP 400 BadDigest to the request for \(key)"), "\(error)")
            }
            #expect(try await client.listParts(key: key, uploadID: checked).isEmpty)
            try await client.abortMultipartUpload(key: key, uploadID: checked)
        }
    }

    @Test("a missing bucket: HEAD learns NoSuchBucket with a GET and words it for --to; a wrong secret is named by key id, never the secret")
    func refusals() async throws {
        try await withMotoS3 { server in
            let missing = try Self.client(server, bucket: "no-such-bucket")
            do {
                _ = try await missing.head(key: "backup/library.json")
                Issue.record("a missing bucket must fail")
            } catch let error as S3Error {
                #expect(error == .noSuchBucket(bucket: "no-such-bucket", endpoint: server.endpoint, usage: Self.usage))
                #expect(error.description.contains("check the name in --to s3://no-such-bucket/… and --s3-endpoint"), "\(error)")
            }
            let credentials = AWSCredentials(accessKeyID: server.accessKeyID, secretAccessKey: "not-the-secret-0123456789", source: "the test")
            var configuration = try Self.client(server).configuration
            configuration.credentials = credentials
            let wrong = S3Client(configuration: configuration, requestTimeout: 10)
            do {
                _ = try await wrong.createMultipartUpload(key: "backup/x")
                Issue.record("a wrong secret must fail")
            } catch let error as S3Error {
                #expect(!error.isRetryable && error.description.contains("403 SignatureDoesNotMatch"), "\(error)")
                #expect(!error.description.contains("not-the-secret") && !error.description.contains(server.secretAccessKey))
            }
        }
    }
}
