import Foundation
import ReelCore
import ReelRuntime
import ReelS3
import ReelStore

/// `reel restore --from s3://BUCKET/PREFIX`: ``LibraryRestore``'s rules for a backup in a
/// bucket. Everything is checked before anything changes: the bucket's media are listed (a
/// file missing or of the wrong size is known before any download), each file is downloaded a
/// part at a time into a hidden temporary file beside its destination, its checksum checked on
/// the way; only when all are there are they renamed into place and the records added in one
/// transaction. A download that fails (the server gone, a full disk) removes every temporary
/// file: the library and its folders are as they were.
public struct BucketRestore {
    /// The library added to.
    public let library: StudyLibrary
    /// The bucket and prefix, and the client that signs.
    public let client: S3Client

    /// A restore of the backup at `client`'s location into `library`.
    public init(library: StudyLibrary, client: S3Client) {
        self.library = library
        self.client = client
    }

    var location: S3Location { client.configuration.location }
    var name: String { location.description }
    func key(_ relative: String) -> String { BucketLayout.key(relative, prefix: location.prefix) }

    /// As ``LibraryRestore/run(dryRun:mediaFolder:skipMissing:)``.
    public func run(dryRun: Bool = false, mediaFolder: String? = nil, skipMissing: Bool = false) async throws -> LibraryRestore.Report {
        let document = try await self.document()
        let (plan, existing, relocation) = try LibraryRestore.additions(document, to: library, mediaFolder: mediaFolder)
        var sizes: [String: Int64] = [:]
        for object in try await client.list(prefix: key(LibraryBackup.mediaFolder + "/")) {
            if let relative = BucketLayout.relative(object.key, prefix: location.prefix) { sizes[relative] = object.size }
        }
        var (wanted, skipped) = LibraryRestore.mediaToCopy(document, existing: existing, plan: plan, relocation: relocation,
                                                           backup: String(name.dropLast())) { sizes[$0.path] }
        if !skipped.isEmpty, !skipMissing { throw LibraryRestore.incomplete(skipped) }
        if dryRun { return LibraryRestore.Report(plan: plan, media: wanted.map(\.destination), dryRun: true, skipped: skipped) }

        var staged: [(temporary: String, destination: String)] = []
        do {
            for (entry, destination) in wanted {
                do {
                    staged.append((try await download(entry, to: destination), destination))
                } catch let error as ChecksummedFile.Error where error.isDamage && skipMissing {
                    skipped.append(LibraryRestore.Skipped(path: name + entry.path, reason: "its checksum differs from the one recorded: damaged"))
                }
            }
        } catch {
            throw LibraryRestore.failed(error, staged: staged, mediaFolder: mediaFolder)
        }
        try LibraryRestore.place(staged)
        try library.apply(plan)
        let placed = Set(staged.map(\.destination))
        return LibraryRestore.Report(plan: plan, media: wanted.map(\.destination).filter(placed.contains), dryRun: false, skipped: skipped)
    }

    /// The bucket's backup.json; an error that says what to do when there is none or it cannot be used.
    func document() async throws -> BackupDocument {
        guard let data = try await client.get(key: key(LibraryBackup.documentName), maxBytes: BucketBackup.documentLimit) else {
            throw LibraryRestore.Error(description: "\(name) holds no \(LibraryBackup.documentName); give the prefix 'reel backup --to' wrote")
        }
        do {
            return try BackupDocument.decode(data)
        } catch {
            throw LibraryRestore.Error(description: "\(name)\(LibraryBackup.documentName): \(error)")
        }
    }

    /// Downloads `entry`'s object a part at a time (ranged GETs, one part in memory) into a
    /// hidden temporary file beside `destination` (``ReelRuntime/DurableFile``), checking its
    /// size and checksum; returns the temporary file's path, synced. Nothing is left on failure.
    func download(_ entry: BackupMediaEntry, to destination: String) async throws -> String {
        let folder = (destination as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw ChecksummedFile.Error(description: "\(folder): cannot create the folder (\(error.localizedDescription))")
        }
        let output = try DurableFile(creating: destination, ifExists: .replace)
        let digest = try StreamingDigest(entry.checksum.algorithm)
        do {
            for range in BucketLayout.parts(ofFileOf: entry.size) where !range.isEmpty {
                let body = try await client.get(key: key(entry.path), range: range)
                guard body.count == range.count else {
                    throw ChecksummedFile.Error(description: "\(name)\(entry.path): \(body.count) bytes came for a part of \(range.count): damaged", isDamage: true)
                }
                digest.update(body)
                try output.write(body)
            }
        } catch {
            output.discard()
            throw error
        }
        guard try digest.finish() == entry.checksum else {
            output.discard()
            throw ChecksummedFile.Error(description: "\(name)\(entry.path): its checksum differs from the \(entry.checksum.short)… recorded; the object is damaged",
                                        isDamage: true)
        }
        return try output.handOver(sync: true)
    }
}
