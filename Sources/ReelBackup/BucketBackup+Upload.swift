import Foundation
import ReelCore
import ReelS3

extension BucketBackup {
    /// Sends each file to copy (``upload(_:previous:objects:done:)``), telling ``progress``;
    /// returns the entries of the new document.
    func upload(_ copies: [BackupCopy], previous: PreviousBackup, objects: [String: Int64],
                report: inout LibraryBackup.Report) async throws -> [BackupMediaEntry] {
        var entries: [BackupMediaEntry] = []
        var done = LibraryBackup.Progress(filesTotal: copies.count, bytesTotal: copies.reduce(0) { $0 + $1.size })
        for copy in copies {
            done.next = copy.source
            try tell(done)
            let (entry, sent) = try await upload(copy, previous: previous, objects: objects, done: done)
            entries.append(entry)
            if sent {
                report.copiedFiles += 1
                report.copiedBytes += copy.size
            } else {
                report.unchangedFiles += 1
            }
            done.filesDone += 1
            done.bytesDone += copy.size
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

    /// One file: its entry, and whether it was sent. Not sent when it is the listed content
    /// with a new time, or an earlier run's upload that stands for it (its stamp); otherwise
    /// under its plain name, or with its checksum in front when backup.json lists that name.
    func upload(_ copy: BackupCopy, previous: PreviousBackup, objects: [String: Int64],
                done: LibraryBackup.Progress) async throws -> (BackupMediaEntry, sent: Bool) {
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
            ? try await uploadInParts(copy, key: key(relative), checksum: known, done: done)
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
    func uploadInParts(_ copy: BackupCopy, key: String, checksum known: MediaChecksum?, done: LibraryBackup.Progress) async throws -> MediaChecksum {
        let checksum = try known ?? ChecksummedFile.checksum(of: copy.source)
        let stamp = BucketLayout.UploadStamp(checksum: checksum, sourceSize: copy.size, sourceModified: copy.modified)
        let uploadID = try await client.createMultipartUpload(key: key, headers: [(name: "Content-Type", value: Self.contentType(of: copy.source))]
                                                              + stamp.headers)
        do {
            let file = try SourceFile(copy.source)
            let digest = try StreamingDigest(.xxh3)
            var parts: [S3Multipart.Part] = []
            var progressed = done
            for (index, range) in BucketLayout.parts(ofFileOf: copy.size).enumerated() {
                let body = try file.read(range)
                digest.update(body)
                parts.append(try await client.uploadPart(key: key, uploadID: uploadID, number: index + 1, body: body))
                progressed.bytesDone = done.bytesDone + range.upperBound
                try tell(progressed)
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
