import Foundation
import ReelCore
import ReelS3

extension BucketBackup {
    /// Files sent at once (rclone's default too): one part of each in memory, so at most
    /// 4 × 8 MiB of file bytes are held whatever the files' sizes.
    static let lanes = 4

    /// Sends the files to copy, ``lanes`` at a time (``BucketUploader``), telling ``progress``
    /// as each is done; returns the entries of the new document. A failure cancels the others
    /// (their multipart uploads are aborted, or the next run aborts them).
    func upload(_ copies: [BackupCopy], previous: PreviousBackup, objects: [String: Int64],
                report: inout LibraryBackup.Report) async throws -> [BackupMediaEntry] {
        let uploader = BucketUploader(client: client)
        var entries: [BackupMediaEntry] = []
        var done = LibraryBackup.Progress(filesTotal: copies.count, bytesTotal: copies.reduce(0) { $0 + $1.size })
        typealias Sent = (index: Int, entry: BackupMediaEntry, sent: Bool)
        func launch(_ index: Int, in group: inout ThrowingTaskGroup<Sent, any Swift.Error>) {
            group.addTask { () async throws -> Sent in
                let (entry, sent) = try await uploader.upload(copies[index], previous: previous, objects: objects)
                return (index, entry, sent)
            }
        }
        try await withThrowingTaskGroup(of: Sent.self) { group in
            var next = 0
            repeat {
                // Lanes filled up (a file done frees one): the next file starts, told first.
                while next < copies.count, next - done.filesDone < Self.lanes {
                    done.next = copies[next].source
                    try tell(done)
                    launch(next, in: &group)
                    next += 1
                }
                guard let finished = try await group.next() else { break }
                let copy = copies[finished.index]
                entries.append(finished.entry)
                if finished.sent {
                    report.copiedFiles += 1
                    report.copiedBytes += copy.size
                } else {
                    report.unchangedFiles += 1
                }
                done.filesDone += 1
                done.bytesDone += copy.size
            } while true
        }
        done.next = nil
        _ = progress?(done)
        return entries
    }

    /// Tells ``progress``; a false answer stops the backup here (the bucket keeps its backup).
    func tell(_ done: LibraryBackup.Progress) throws {
        if let progress, !progress(done) {
            throw LibraryBackup.Error(description: "the backup to \(name) was stopped; its previous backup is as it was", isStopped: true)
        }
    }
}

/// One file of a bucket backup sent (or found already there): what runs in each of the
/// backup's lanes, so it holds only what may cross tasks (the client and its location).
struct BucketUploader: Sendable {
    let client: S3Client

    var name: String { client.configuration.location.description }
    func key(_ relative: String) -> String { BucketLayout.key(relative, prefix: client.configuration.location.prefix) }

    /// One file: its entry, and whether it was sent. Not sent when it is the listed content
    /// with a new time, or an earlier run's upload that stands for it (its stamp); otherwise
    /// under its plain name, or with its checksum in front when backup.json lists that name.
    func upload(_ copy: BackupCopy, previous: PreviousBackup, objects: [String: Int64]) async throws -> (BackupMediaEntry, sent: Bool) {
        func entry(_ path: String, _ checksum: MediaChecksum) -> BackupMediaEntry {
            BackupMediaEntry(ownerID: copy.ownerID, role: copy.role, path: path, size: copy.size, checksum: checksum,
                             sourcePath: copy.source, sourceModified: copy.modified)
        }
        let name = (copy.source as NSString).lastPathComponent
        let folder = LibraryBackup.folder(of: copy.ownerID, role: copy.role)
        var relative = "\(folder)/\(name)"
        var known: MediaChecksum?
        if let old = previous.entry(copy.ownerID, copy.role) {
            let checksum = try ChecksummedFile.checksum(of: copy.source)
            if checksum == old.checksum, copy.size == old.size { return (entry(old.path, checksum), false) }
            if previous.listed.contains(relative) { relative = "\(folder)/\(checksum.short)-\(name)" }
            known = checksum
        }
        if objects[key(relative)] == copy.size, let head = try await client.head(key: key(relative)),
           let stamp = BucketLayout.UploadStamp(metadata: head.metadata), stamp.standsFor(size: copy.size, modified: copy.modified),
           known == nil || known == stamp.checksum {
            return (entry(relative, stamp.checksum), false)
        }
        let checksum = copy.size > BucketLayout.multipartThreshold
            ? try await uploadInParts(copy, key: key(relative), checksum: known)
            : try await uploadWhole(copy, key: key(relative))
        return (entry(relative, checksum), true)
    }

    /// A small file in one PUT, stamped with its checksum.
    func uploadWhole(_ copy: BackupCopy, key: String) async throws -> MediaChecksum {
        let body = try SourceFile(copy.source).read(0..<copy.size)
        let digest = try StreamingDigest(.xxh3)
        digest.update(body)
        let checksum = try digest.finish()
        let stamp = BucketLayout.UploadStamp(checksum: checksum, sourceSize: copy.size, sourceModified: copy.modified)
        _ = try await client.put(key: key, body: body, headers: [(name: "Content-Type", value: Self.contentType(of: copy.source))] + stamp.headers)
        return checksum
    }

    /// A large file in parts (``ReelCore/BucketLayout/parts(ofFileOf:)``), one part in memory
    /// at a time, each verified by the server against its SHA-256. The checksum is read first
    /// (the stamp goes in at the start) and again on the way: a file that changed meanwhile is
    /// refused. On any failure the upload is aborted (and the next run aborts what is left).
    func uploadInParts(_ copy: BackupCopy, key: String, checksum known: MediaChecksum?) async throws -> MediaChecksum {
        let checksum = try known ?? ChecksummedFile.checksum(of: copy.source)
        let stamp = BucketLayout.UploadStamp(checksum: checksum, sourceSize: copy.size, sourceModified: copy.modified)
        let uploadID = try await client.createMultipartUpload(key: key, headers: [(name: "Content-Type", value: Self.contentType(of: copy.source))]
                                                              + stamp.headers)
        do {
            let file = try SourceFile(copy.source)
            let digest = try StreamingDigest(.xxh3)
            var parts: [S3Multipart.Part] = []
            for (index, range) in BucketLayout.parts(ofFileOf: copy.size).enumerated() {
                let body = try file.read(range)
                digest.update(body)
                parts.append(try await client.uploadPart(key: key, uploadID: uploadID, number: index + 1, body: body))
            }
            guard try digest.finish() == checksum else {
                throw LibraryBackup.Error(description: "\(copy.source) changed while it was uploaded; run the backup again")
            }
            _ = try await client.completeMultipartUpload(key: key, uploadID: uploadID, parts: parts)
        } catch {
            try? await client.abortMultipartUpload(key: key, uploadID: uploadID)
            throw error
        }
        return checksum
    }

    /// The Content-Type an object gets, by the file's extension.
    static func contentType(of path: String) -> String {
        switch (path as NSString).pathExtension.lowercased() {
        case "mp4": "video/mp4"
        case "jpg", "jpeg": "image/jpeg"
        case "png": "image/png"
        case "json": "application/json"
        default: "application/octet-stream"
        }
    }
}

extension StreamingDigest {
    /// Adds `data` (nothing for no bytes).
    func update(_ data: Data) {
        data.withUnsafeBytes { raw in
            if let base = raw.baseAddress { update(base, raw.count) }
        }
    }
}

/// A source file read by ranges (a part at a time, never whole), with its path in errors.
struct SourceFile: ~Copyable {
    let path: String
    private let descriptor: Int32

    init(_ path: String) throws(ChecksummedFile.Error) {
        self.path = path
        descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw .init(description: "\(path): cannot open (\(String(cString: strerror(errno))))") }
    }

    deinit { close(descriptor) }

    /// The bytes of `range`; a file now shorter than that is an error (it changed).
    func read(_ range: Range<Int64>) throws(ChecksummedFile.Error) -> Data {
        var data = Data(count: Int(range.count))
        var filled = 0
        let failure: Int32? = data.withUnsafeMutableBytes { raw in
            while filled < raw.count {
                let n = pread(descriptor, raw.baseAddress! + filled, raw.count - filled, off_t(range.lowerBound) + off_t(filled))
                if n < 0 { if errno == EINTR { continue }; return errno }
                if n == 0 { return 0 }
                filled += n
            }
            return nil
        }
        if let failure {
            throw .init(description: failure == 0 ? "\(path) is shorter than when the backup began (it changed); run the backup again"
                                                  : "\(path): cannot read (\(String(cString: strerror(failure))))")
        }
        return data
    }
}
