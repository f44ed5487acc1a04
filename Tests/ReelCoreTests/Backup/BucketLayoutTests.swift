import Foundation
import ReelCore
import Testing

/// A backup in a bucket: parts, keys, the stamp an upload leaves, which prefixes may be
/// written, and when a backup.json is worth writing again. No I/O.
@Suite("BucketLayout")
struct BucketLayoutTests {
    static let mebibyte: Int64 = 1 << 20

    @Test("8 MiB parts, larger (whole MiB) only where 10,000 would not do; the last part is the rest")
    func parts() {
        #expect(BucketLayout.partSize(forFileOf: 1) == 8 * Self.mebibyte)
        #expect(BucketLayout.partSize(forFileOf: 80_000 * Self.mebibyte) == 8 * Self.mebibyte, "exactly 10,000 parts")
        #expect(BucketLayout.partSize(forFileOf: 80_000 * Self.mebibyte + 1) == 9 * Self.mebibyte)
        let size = 20 * Self.mebibyte + 5
        let parts = BucketLayout.parts(ofFileOf: size)
        #expect(parts == [0..<8 * Self.mebibyte, 8 * Self.mebibyte..<16 * Self.mebibyte, 16 * Self.mebibyte..<size])
        #expect(BucketLayout.parts(ofFileOf: 8 * Self.mebibyte).count == 1)
        #expect(BucketLayout.parts(ofFileOf: 0) == [0..<0])
        let huge = 200_000 * Self.mebibyte
        #expect(BucketLayout.parts(ofFileOf: huge).count <= 10_000 && BucketLayout.parts(ofFileOf: huge).last?.upperBound == huge)
    }

    @Test("keys under the prefix, and back")
    func keys() {
        #expect(BucketLayout.key("backup.json", prefix: "") == "backup.json")
        #expect(BucketLayout.key("Media/a/b.mp4", prefix: "home/reel") == "home/reel/Media/a/b.mp4")
        #expect(BucketLayout.relative("home/reel/Media/a/b.mp4", prefix: "home/reel") == "Media/a/b.mp4")
        #expect(BucketLayout.relative("home/reelx/Media/a", prefix: "home/reel") == nil, "a longer name is another prefix")
    }

    @Test("an upload's stamp goes into its metadata and comes back; a foreign object has none")
    func stamp() throws {
        let checksum = try #require(MediaChecksum("xxh3-128:6ba30a4e9dffe1ff801fedc74ccd608c"))
        let stamp = BucketLayout.UploadStamp(checksum: checksum, sourceSize: 123_456_789, sourceModified: 1_765_000_000.123456)
        var metadata: [String: String] = [:]
        for (name, value) in stamp.headers {
            #expect(name.hasPrefix("x-amz-meta-"))
            metadata[String(name.dropFirst("x-amz-meta-".count)).uppercased()] = value   // servers may change the case
        }
        #expect(BucketLayout.UploadStamp(metadata: metadata) == stamp, "the time comes back exactly")
        #expect(stamp.standsFor(size: 123_456_789, modified: 1_765_000_000.123456))
        #expect(!stamp.standsFor(size: 123_456_789, modified: 1_765_000_000.123457))
        #expect(!stamp.standsFor(size: 123_456_788, modified: 1_765_000_000.123456))
        metadata.removeValue(forKey: "REEL-SOURCE-SIZE")
        #expect(BucketLayout.UploadStamp(metadata: metadata) == nil)
        #expect(BucketLayout.UploadStamp(metadata: ["reel-checksum": "md5:abc", "reel-source-size": "1", "reel-source-modified": "2"]) == nil)
    }

    @Test("a prefix without backup.json: empty, an interrupted first backup, or someone else's")
    func prefixes() {
        #expect(BucketLayout.contents(of: []) == .empty)
        #expect(BucketLayout.contents(of: ["Media/a/b.mp4", "Media/materials/c/d.jpg"]) == .interruptedBackup)
        #expect(BucketLayout.contents(of: ["Media/a/b.mp4", "photos/cat.jpg"]) == .foreign("photos/cat.jpg"))
        #expect(BucketLayout.contents(of: ["backup.json.bak"]) == .foreign("backup.json.bak"))
    }

    @Test("a document is the same whenever it was made, and differs by any record or file")
    func sameContent() throws {
        let session = RestorePlanTests.session(1)
        let entry = BackupMediaEntry(ownerID: session.id, role: .video, path: "Media/x/a.mp4", size: 1, checksum: RestorePlanTests.checksum,
                                     sourcePath: "/a.mp4", sourceModified: 5)
        let one = BackupDocument(createdAt: Date(timeIntervalSince1970: 1), libraryMigrations: ["1"], sessions: [session], tags: ["t"],
                                 goals: [], materials: [], media: [entry])
        var later = one
        later.createdAt = Date(timeIntervalSince1970: 99_999)
        #expect(one.hasSameContent(as: later))
        var touched = later
        touched.media[0].sourceModified = 6
        #expect(!one.hasSameContent(as: touched), "a source's new time is worth writing (the next run then skips reading it)")
        var tagged = later
        tagged.tags.append("u")
        #expect(!one.hasSameContent(as: tagged))
    }
}
