/// The rules of a backup kept in an S3 bucket (`reel backup --to s3://BUCKET/PREFIX`): the
/// same layout as a backup folder (`PREFIX/backup.json`, `PREFIX/Media/…`, so a bucket copied
/// down is a backup folder and the other way round), how large files are cut into parts, what
/// a finished upload records about itself, and which prefixes may be written into.
///
/// Values and rules only; the requests are ReelStore's `BucketBackup`.
public enum BucketLayout {
    /// A file larger than this goes up in parts (multipart upload); smaller ones in one PUT.
    public static let multipartThreshold: Int64 = 8 << 20
    /// The smallest part (S3 allows 5 MiB; the issue asks for at least 8).
    public static let minimumPartSize: Int64 = 8 << 20
    /// S3's most parts in one upload.
    public static let maximumParts: Int64 = 10_000

    /// The part size for a file of `size` bytes: 8 MiB, or more (whole MiB) where 8 MiB parts
    /// would be more than S3's 10,000.
    public static func partSize(forFileOf size: Int64) -> Int64 {
        let needed = (size + maximumParts - 1) / maximumParts
        let mebibyte: Int64 = 1 << 20
        return max(minimumPartSize, (needed + mebibyte - 1) / mebibyte * mebibyte)
    }

    /// The byte ranges of a file's parts, in order (numbered from 1 in the upload); one empty
    /// range for an empty file.
    public static func parts(ofFileOf size: Int64) -> [Range<Int64>] {
        let part = partSize(forFileOf: size)
        guard size > 0 else { return [0..<0] }
        return stride(from: Int64(0), to: size, by: Int(part)).map { $0..<min(size, $0 + part) }
    }

    /// The object key of `relative` (`backup.json`, `Media/…`) under `prefix` (no leading or
    /// trailing `/`; may be empty).
    public static func key(_ relative: String, prefix: String) -> String {
        prefix.isEmpty ? relative : "\(prefix)/\(relative)"
    }

    /// The path a key has inside the backup (`Media/…`), nil for a key outside `prefix`.
    public static func relative(_ key: String, prefix: String) -> String? {
        if prefix.isEmpty { return key }
        guard key.hasPrefix(prefix + "/") else { return nil }
        return String(key.dropFirst(prefix.count + 1))
    }

    /// What an uploaded object records about itself in its metadata (`x-amz-meta-reel-*`): its
    /// checksum and the source's size and modification time. A backup killed after some
    /// uploads never listed them in `backup.json`; the next run finds each such object (a
    /// listing and one HEAD) and keeps it when it stands for the source as it is now, instead
    /// of sending it again.
    public struct UploadStamp: Sendable, Hashable {
        /// The object's content (XXH3-128).
        public var checksum: MediaChecksum
        /// The source's size when it was read.
        public var sourceSize: Int64
        /// The source's modification time (seconds since 1970) when it was read.
        public var sourceModified: Double

        public init(checksum: MediaChecksum, sourceSize: Int64, sourceModified: Double) {
            self.checksum = checksum
            self.sourceSize = sourceSize
            self.sourceModified = sourceModified
        }

        /// The metadata names, without `x-amz-meta-` (S3 lower-cases them).
        static let checksumName = "reel-checksum", sizeName = "reel-source-size", modifiedName = "reel-source-modified"

        /// The request headers that store it.
        public var headers: [(name: String, value: String)] {
            [("x-amz-meta-\(Self.checksumName)", checksum.description), ("x-amz-meta-\(Self.sizeName)", String(sourceSize)),
             ("x-amz-meta-\(Self.modifiedName)", String(sourceModified))]
        }

        /// Reads it from an object's metadata (names without `x-amz-meta-`, any case); nil when
        /// a value is missing or malformed (an object Reel did not write).
        public init?(metadata: [String: String]) {
            var lowered: [String: String] = [:]
            for (name, value) in metadata { lowered[name.lowercased()] = value }
            guard let checksum = lowered[Self.checksumName].flatMap(MediaChecksum.init),
                  let size = lowered[Self.sizeName].flatMap({ Int64($0) }),
                  let modified = lowered[Self.modifiedName].flatMap({ Double($0) }) else { return nil }
            self.init(checksum: checksum, sourceSize: size, sourceModified: modified)
        }

        /// Whether the object stands for a source now of `size` bytes modified at `modified`.
        public func standsFor(size: Int64, modified: Double) -> Bool {
            sourceSize == size && sourceModified == modified
        }
    }

    /// What a prefix without `backup.json` holds, from its keys' paths relative to it.
    public enum PrefixContents: Sendable, Hashable {
        /// Nothing: a first backup may begin.
        case empty
        /// Only `Media/…` objects: a first backup that was interrupted; it may go on.
        case interruptedBackup
        /// Something else: not a Reel backup, never written into. The first such path.
        case foreign(String)
    }

    /// Classifies a prefix without `backup.json` by the paths of its objects.
    public static func contents(of paths: some Sequence<String>) -> PrefixContents {
        var any = false
        for path in paths {
            guard path.hasPrefix("Media/") else { return .foreign(path) }
            any = true
        }
        return any ? .interruptedBackup : .empty
    }
}

extension BackupDocument {
    /// Whether `other` holds the same records and media, whenever it was made: a backup with
    /// nothing new leaves the bucket's `backup.json` as it is (nothing uploaded at all).
    public func hasSameContent(as other: BackupDocument) -> Bool {
        var other = other
        other.createdAt = createdAt
        return self == other
    }
}
