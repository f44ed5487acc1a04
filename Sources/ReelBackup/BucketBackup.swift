import Foundation
import ReelCore
import ReelS3
import ReelStore

/// `reel backup --to s3://BUCKET/PREFIX` (docs/library.md, Backup to a bucket): the same
/// backup as a folder's (``LibraryBackup``), in an S3 bucket, laid out the same way
/// (``ReelCore/BucketLayout``): `PREFIX/backup.json` and `PREFIX/Media/…`.
///
/// Consistency: a PUT (or a completed multipart upload) is all or nothing, and `backup.json`
/// goes up last, only after every object it lists; an object it lists is never written over
/// (a changed file gets a name with its checksum). So the bucket always holds the previous
/// backup or the new one, and an unfinished multipart upload is never a visible object.
///
/// Files go up four at a time (``lanes``), each large one a part at a time, so at most
/// 4 × 8 MiB of file bytes are in memory.
///
/// Incremental: a file whose source path, size and time match the bucket's `backup.json` is
/// neither read nor sent, and the bucket is not even listed; with nothing changed at all, not
/// a byte goes up (not even `backup.json`). A file whose time changed but whose checksum did
/// not keeps its object. An upload finished by a run that was then killed is found by its
/// stamp (``ReelCore/BucketLayout/UploadStamp``) and kept; unfinished multipart uploads under
/// the prefix are aborted before new uploads begin (one backup per prefix at a time).
public struct BucketBackup {
    /// The library read.
    public let library: StudyLibrary
    /// The bucket and prefix, and the client that signs.
    public let client: S3Client
    /// As ``LibraryBackup/progress``: told as each file starts (``BucketBackup/lanes`` go at
    /// once) and as each is done; a false answer stops the backup before the next file.
    public var progress: ((LibraryBackup.Progress) -> Bool)?

    /// A backup of `library` to the bucket `client` is for.
    public init(library: StudyLibrary, client: S3Client) {
        self.library = library
        self.client = client
    }

    var location: S3Location { client.configuration.location }

    /// `s3://BUCKET/PREFIX/`, as messages name it.
    public var name: String { location.description }

    func key(_ relative: String) -> String { BucketLayout.key(relative, prefix: location.prefix) }

    /// Runs the backup (``LibraryBackup/run(auto:now:)``'s rules). The steps: the bucket's
    /// backup.json read → the plan → (when there are files to send) the bucket's media listed
    /// and unfinished uploads aborted → uploads → backup.json, when anything changed → objects
    /// no longer listed deleted.
    public func run(auto: Bool = false, now: Date = Date()) async throws -> LibraryBackup.Report {
        var report = LibraryBackup.Report()
        let previousDocument = try await self.previousDocument()
        let previous = PreviousBackup(previousDocument)
        report.previousBackup = previousDocument?.createdAt
        if auto, !BackupPolicy.isAutoDue(lastBackup: previousDocument?.createdAt, now: now) {
            report.skippedAsRecent = true
            return report
        }
        let sessions = try library.sessions()
        let materials = try library.materials()
        // backup.json lists only objects that were there when it went up: trusted, not listed.
        let plan = LibraryBackup.plan(LibraryBackup.sources(sessions: sessions, materials: materials), previous: previous,
                                      report: &report) { _ in true }
        var objects: [String: Int64]?
        var entries = plan.kept
        if !plan.copies.isEmpty {
            objects = try await mediaObjects()
            try await abortUnfinishedUploads()
            entries += try await upload(plan.copies, previous: previous, objects: objects ?? [:], report: &report)
        }
        let document = BackupDocument(createdAt: now, libraryMigrations: try library.appliedMigrations(), sessions: sessions,
                                      tags: try library.tagNames(), goals: try library.goals(), materials: materials,
                                      media: entries.sorted { ($0.ownerID.uuidString, $0.role.rawValue) < ($1.ownerID.uuidString, $1.role.rawValue) })
        report.sessions = document.sessions.count
        report.tags = document.tags.count
        report.goals = document.goals.count
        report.materials = document.materials.count
        if let previousDocument, document.hasSameContent(as: previousDocument) { return report }
        _ = try await client.put(key: key(LibraryBackup.documentName), body: try document.encoded(),
                                 headers: [(name: "Content-Type", value: "application/json")])
        // Only now: objects the new document does not list (older versions, uploads of a killed run).
        let listed: [String: Int64]
        if let objects { listed = objects } else { listed = try await mediaObjects() }
        report.removedFiles = try await prune(listed, keeping: Set(entries.map(\.path)))
        return report
    }

    /// The bucket's backup.json (nil: none, or one too damaged to trust for skipping: everything
    /// is sent again). A prefix without one must be empty or hold only an interrupted first
    /// backup's media: anything else is not a Reel backup and is never written into.
    func previousDocument() async throws -> BackupDocument? {
        guard let data = try await client.get(key: key(LibraryBackup.documentName), maxBytes: Self.documentLimit) else {
            let paths = try await client.list(prefix: location.prefix.isEmpty ? "" : location.prefix + "/")
                .compactMap { BucketLayout.relative($0.key, prefix: location.prefix) }
            if case .foreign(let path) = BucketLayout.contents(of: paths) {
                throw LibraryBackup.Error(description: "\(name) holds \(path) and no \(LibraryBackup.documentName): it is not a Reel backup, so nothing was written there; back up to an empty prefix or one 'reel backup' wrote (e.g. s3://\(location.bucket)/reel-backup)")
            }
            return nil
        }
        do {
            return try BackupDocument.decode(data)
        } catch .newerFormat(let version) {
            throw LibraryBackup.Error(description: "\(name)\(LibraryBackup.documentName) was written by a newer Reel (format \(version)); update Reel or back up to another prefix")
        } catch {
            return nil
        }
    }

    /// What a backup or a restore uses a bucket for, for the words of its errors: `option`
    /// named it (`--to`, `--from`); it lists the prefix (to prune and to resume) and aborts the
    /// uploads an interrupted run left; Reel does not retry (run the command again).
    public static func usage(option: String) -> S3Usage {
        S3Usage(locationOption: option,
                objectActions: ["s3:PutObject", "s3:GetObject", "s3:DeleteObject", "s3:AbortMultipartUpload", "s3:ListMultipartUploadParts"],
                bucketActions: ["s3:ListBucket", "s3:ListBucketMultipartUploads"],
                why: "a backup lists its prefix to find what an interrupted run sent and to remove old files, and aborts the uploads such a run left",
                reelRetries: false)
    }

    /// A client for a backup or a restore: 60 s without progress fails a request, and a whole
    /// request (an 8 MiB part, or more for a file of over 78 GiB) may take 15 minutes: a slow
    /// uplink must not fail a part that is moving.
    public static func client(_ configuration: S3Client.Configuration) -> S3Client {
        S3Client(configuration: configuration, requestTimeout: 60, resourceTimeout: 900)
    }

    /// The largest backup.json read (a library of 100,000 sessions is about 100 MB).
    static let documentLimit = 512 << 20

    /// Every object under `PREFIX/Media/`, by key, with its size.
    func mediaObjects() async throws -> [String: Int64] {
        var objects: [String: Int64] = [:]
        for object in try await client.list(prefix: key(LibraryBackup.mediaFolder + "/")) { objects[object.key] = object.size }
        return objects
    }

    /// Aborts the multipart uploads a killed run left under `PREFIX/Media/` (none is visible;
    /// each holds storage until aborted).
    func abortUnfinishedUploads() async throws {
        for upload in try await client.listMultipartUploads(prefix: key(LibraryBackup.mediaFolder + "/")) {
            try await client.abortMultipartUpload(key: upload.key, uploadID: upload.uploadID)
        }
    }

    /// Deletes every object of `objects` whose path `kept` does not hold; returns how many.
    func prune(_ objects: [String: Int64], keeping kept: Set<String>) async throws -> Int {
        var removed = 0
        for key in objects.keys.sorted() {
            guard let relative = BucketLayout.relative(key, prefix: location.prefix), !kept.contains(relative) else { continue }
            try await client.delete(key: key)
            removed += 1
        }
        return removed
    }
}
