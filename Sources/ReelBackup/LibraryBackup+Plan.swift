import Foundation
import ReelCore

/// A file the backup holds: whose it is, in which role, and where it is now. An optional one
/// (the review's edits exist only once a session was reviewed) is no missing file.
struct BackupSource {
    var owner: UUID
    var role: BackupMediaEntry.Role
    var path: String
    var optional = false
}

/// A file to copy (new or changed since the previous backup), as it was when planned.
struct BackupCopy: Sendable {
    var ownerID: UUID
    var role: BackupMediaEntry.Role
    var source: String
    var size: Int64
    var modified: Double
}

/// What the backup does with its files: entries that stand as they are, and copies.
struct BackupPlan {
    var kept: [BackupMediaEntry] = []
    var copies: [BackupCopy] = []
}

/// The backup already in the destination, looked up by owner and role.
struct PreviousBackup: Sendable {
    let document: BackupDocument?
    /// Every path its document lists (never written over).
    let listed: Set<String>
    private let bySource: [String: BackupMediaEntry]

    init(_ document: BackupDocument?) {
        self.document = document
        listed = Set(document?.media.map(\.path) ?? [])
        var bySource: [String: BackupMediaEntry] = [:]
        for entry in document?.media ?? [] { bySource[Self.key(entry.ownerID, entry.role)] = entry }
        self.bySource = bySource
    }

    /// The listed entry for `owner`'s file in `role`.
    func entry(_ owner: UUID, _ role: BackupMediaEntry.Role) -> BackupMediaEntry? {
        bySource[Self.key(owner, role)]
    }

    private static func key(_ owner: UUID, _ role: BackupMediaEntry.Role) -> String { "\(owner)/\(role.rawValue)" }
}

extension LibraryBackup {
    /// Every file to back up: each session's (video, thumbnail, face track, review edits),
    /// and each material's cover.
    static func sources(sessions: [StudySession], materials: [StudyMaterial]) -> [BackupSource] {
        var files: [BackupSource] = []
        for session in sessions {
            files.append(BackupSource(owner: session.id, role: .video, path: session.filePath))
            if let thumbnail = session.thumbnailPath { files.append(BackupSource(owner: session.id, role: .thumbnail, path: thumbnail)) }
            if let track = session.faceTrackPath { files.append(BackupSource(owner: session.id, role: .faceTrack, path: track)) }
            files.append(BackupSource(owner: session.id, role: .reviewEdits, path: PrivacyEdits.path(forVideo: session.filePath), optional: true))
        }
        for material in materials {
            if let cover = material.coverPath { files.append(BackupSource(owner: material.id, role: .cover, path: cover)) }
        }
        return files
    }

    /// Which files stand as they are (same source path, size and time as listed, and the copy
    /// there with its size) and which must be copied; missing ones go to the report.
    func plan(_ files: [BackupSource], previous: PreviousBackup, report: inout Report) -> BackupPlan {
        Self.plan(files, previous: previous, report: &report) { ChecksummedFile.status(destination + "/" + $0.path)?.size == $0.size }
    }

    /// Which files stand as they are (same source path, size and time as listed, and
    /// `copyStands` says the listed copy is there) and which must be copied; missing ones go
    /// to the report.
    static func plan(_ files: [BackupSource], previous: PreviousBackup, report: inout Report,
                     copyStands: (BackupMediaEntry) -> Bool) -> BackupPlan {
        var plan = BackupPlan()
        for file in files {
            guard let status = ChecksummedFile.status(file.path) else {
                if !file.optional { report.missingSources.append(file.path) }
                continue
            }
            if let old = previous.entry(file.owner, file.role),
               old.standsFor(sourcePath: file.path, size: status.size, modified: status.modified), copyStands(old) {
                plan.kept.append(old)
                report.unchangedFiles += 1
            } else {
                plan.copies.append(BackupCopy(ownerID: file.owner, role: file.role, source: file.path, size: status.size,
                                              modified: status.modified))
            }
        }
        return plan
    }

    /// Copies each file, never over a listed one: to a hidden staging file, then under its
    /// plain name or, when the document lists that, a name with its checksum. A copy equal to
    /// the listed one (only its time changed) is dropped for the one there. Returns the entries.
    func copy(_ copies: [BackupCopy], previous: PreviousBackup, report: inout Report) throws -> [BackupMediaEntry] {
        var entries: [BackupMediaEntry] = []
        var done = Progress(filesTotal: copies.count, bytesTotal: copies.reduce(0) { $0 + $1.size })
        for copy in copies {
            done.next = copy.source
            if let progress, !progress(done) {
                throw Error(description: "the backup to \(destination) was stopped; its previous backup is as it was", isStopped: true)
            }
            let name = (copy.source as NSString).lastPathComponent
            let folder = Self.folder(of: copy.ownerID, role: copy.role)
            let plain = "\(folder)/\(name)"
            let (size, checksum, temporary) = try ChecksummedFile.copy(from: copy.source, to: destination + "/" + plain,
                                                                       rename: false, durable: false)
            var relative = plain
            if let old = previous.entry(copy.ownerID, copy.role), old.checksum == checksum, old.size == size,
               ChecksummedFile.status(destination + "/" + old.path)?.size == old.size {
                relative = old.path   // same content already there (only its time changed)
                unlink(temporary)
            } else {
                if previous.listed.contains(relative) {
                    relative = "\(folder)/\(checksum.short)-\(name)"
                }
                try ChecksummedFile.commit(temporary, to: destination + "/" + relative, durable: false)
                report.copiedFiles += 1
                report.copiedBytes += size
            }
            entries.append(BackupMediaEntry(ownerID: copy.ownerID, role: copy.role, path: relative, size: size, checksum: checksum,
                                            sourcePath: copy.source, sourceModified: copy.modified))
            done.filesDone += 1
            done.bytesDone += copy.size
        }
        done.next = nil
        _ = progress?(done)
        return entries
    }
}
