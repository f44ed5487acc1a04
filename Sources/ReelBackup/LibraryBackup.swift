import Foundation
import ReelCore
import ReelStore

/// `reel backup` (docs/library.md, Backup and restore): the library's records to `backup.json`
/// and its media (videos, thumbnails, face tracks, review edits) to `Media/<session id>/`,
/// study materials' covers to `Media/materials/<material id>/`, in a folder the user can see
/// and share.
///
/// Crash safety: a file the current `backup.json` lists is never written over. New or changed
/// media are copied to a hidden temporary file (``DurableFile``) and renamed to a name no listed file has; the
/// file system is synced once (syncfs); `backup.json` is replaced atomically last; only then are files it no longer lists
/// removed. So at every moment the folder holds the previous consistent backup or the new one.
///
/// Incremental: a file whose source path, size and modification time match the previous
/// manifest (and whose copy is there with its size) is neither read nor copied; anything else
/// is copied with its checksum (XXH3-128) computed on the way, and a copy whose checksum equals
/// the listed one is dropped in favour of the one already there.
public struct LibraryBackup {
    /// What a run did.
    public struct Report: Sendable, Equatable {
        /// `--auto` found a backup younger than a day and did nothing.
        public var skippedAsRecent: Bool = false
        /// When the previous backup was made (nil: none).
        public var previousBackup: Date?
        /// Records written.
        public var sessions = 0, tags = 0, goals = 0, materials = 0
        /// Media files copied and their bytes.
        public var copiedFiles = 0, copiedBytes: Int64 = 0
        /// Media files left as they were.
        public var unchangedFiles = 0
        /// Files the library lists but the disk lacks (not in the backup).
        public var missingSources: [String] = []
        /// Files removed from `Media/` that the new `backup.json` no longer lists.
        public var removedFiles = 0
    }

    /// A backup that could not be made; the destination still holds its previous backup.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
        /// Stopped on request (``progress`` answered false).
        public var isStopped = false
    }

    /// The library read.
    public let library: StudyLibrary
    /// The destination folder.
    public let destination: String

    /// The name of the document in the destination.
    public static let documentName = "backup.json"
    /// The media folder in the destination.
    public static let mediaFolder = "Media"

    /// How far the copies are: told before the first and after each file; answering false
    /// stops the backup before the next file (``Error/isStopped``), leaving the previous one.
    public var progress: ((Progress) -> Bool)?

    /// Files and bytes to copy in this run, and done so far.
    public struct Progress: Sendable, Equatable {
        public var filesDone = 0, filesTotal = 0
        public var bytesDone: Int64 = 0, bytesTotal: Int64 = 0
        /// The file being copied next (nil when done).
        public var next: String?
    }

    /// A backup of `library` into `destination` (created when missing).
    public init(library: StudyLibrary, destination: String) {
        self.library = library
        self.destination = destination
    }

    /// The backup document at `folder`, nil when there is none.
    public static func document(in folder: String) throws(BackupDocument.Error) -> BackupDocument? {
        guard let data = FileManager.default.contents(atPath: folder + "/" + documentName) else { return nil }
        return try BackupDocument.decode(data)
    }

    /// Runs the backup. With `auto`, does nothing when the previous one is under a day old.
    /// Fails before copying anything when the destination lacks the room, with the numbers.
    /// The steps: the previous backup read → the plan (what stands, what is copied) → room
    /// checked → copies → one sync → the document, atomically → files no longer listed removed.
    public func run(auto: Bool = false, now: Date = Date()) throws -> Report {
        var report = Report()
        let previous = PreviousBackup(try previousDocument())
        report.previousBackup = previous.document?.createdAt
        if auto, !BackupPolicy.isAutoDue(lastBackup: previous.document?.createdAt, now: now) {
            report.skippedAsRecent = true
            return report
        }
        let sessions = try library.sessions()
        let materials = try library.materials()
        let plan = plan(Self.sources(sessions: sessions, materials: materials), previous: previous, report: &report)
        try checkRoom(for: plan.copies)
        let entries = try plan.kept + copy(plan.copies, previous: previous, report: &report)
        // Every copy and its name on disk before the document that lists them (one syncfs).
        if !plan.copies.isEmpty { try ChecksummedFile.syncFileSystem(destination) }

        // The document, atomically and last.
        let document = BackupDocument(createdAt: now, libraryMigrations: try library.appliedMigrations(), sessions: sessions,
                                      tags: try library.tagNames(), goals: try library.goals(), materials: materials,
                                      media: entries.sorted { ($0.ownerID.uuidString, $0.role.rawValue) < ($1.ownerID.uuidString, $1.role.rawValue) })
        try ChecksummedFile.writeAtomically(try document.encoded(), to: destination + "/" + Self.documentName)
        report.sessions = document.sessions.count
        report.tags = document.tags.count
        report.goals = document.goals.count
        report.materials = document.materials.count

        // Only now: files the new document does not list (older versions, interrupted copies).
        report.removedFiles = prune(keeping: Set(entries.map(\.path)))
        return report
    }

    /// Creates the destination's media folder and reads the backup already there (nil: none,
    /// or one too damaged to trust for skipping: everything is copied again).
    private func previousDocument() throws -> BackupDocument? {
        do {
            try FileManager.default.createDirectory(atPath: destination + "/" + Self.mediaFolder, withIntermediateDirectories: true)
        } catch {
            throw Error(description: "backup folder \(destination): cannot create it (\(error.localizedDescription))")
        }
        do {
            return try Self.document(in: destination)
        } catch .newerFormat(let version) {
            throw Error(description: "\(destination)/\(Self.documentName) was written by a newer Reel (format \(version)); update Reel or back up to another folder")
        } catch {
            return nil
        }
    }

    /// Room, before copying anything: the copies and the policy's margin must fit.
    private func checkRoom(for copies: [BackupCopy]) throws {
        let needed = copies.reduce(Int64(0)) { $0 + $1.size }
        let available = try ChecksummedFile.availableBytes(at: destination)
        guard BackupPolicy.fits(bytesToCopy: needed, available: available) else {
            throw Error(description: "backup folder \(destination) lacks the space: \(Counted.noun(copies.count, "file")) to copy need \(Self.bytes(needed + BackupPolicy.margin(forCopying: needed))) (\(Self.bytes(needed)) of media plus \(Self.bytes(BackupPolicy.margin(forCopying: needed))) margin), \(Self.bytes(available)) are free; free some space or choose another folder with --to")
        }
    }

    /// `Media/<session id>/` for a session's files, `Media/materials/<material id>/` for a cover.
    static func folder(of owner: UUID, role: BackupMediaEntry.Role) -> String {
        "\(mediaFolder)/\(role.ownedByMaterial ? "materials/" : "")\(owner.uuidString.lowercased())"
    }

    /// Removes every file under `Media/` that `kept` does not list, and the folders left empty.
    /// A symbolic link is removed as a link, never followed (a shared folder may hold one that
    /// points anywhere).
    private func prune(keeping kept: Set<String>) -> Int {
        func walk(_ relative: String) -> (removed: Int, left: Int) {
            var removed = 0, left = 0
            for name in (try? FileManager.default.contentsOfDirectory(atPath: destination + "/" + relative)) ?? [] {
                let child = relative + "/" + name
                var info = stat()
                guard lstat(destination + "/" + child, &info) == 0 else { continue }
                if (info.st_mode & S_IFMT) == S_IFDIR {
                    let inner = walk(child)
                    removed += inner.removed
                    if inner.left == 0 && rmdir(destination + "/" + child) == 0 { continue }
                    left += 1
                } else if !kept.contains(child) && unlink(destination + "/" + child) == 0 {
                    removed += 1
                } else {
                    left += 1
                }
            }
            return (removed, left)
        }
        return walk(Self.mediaFolder).removed
    }

    /// Bytes as a person reads them (binary units, one decimal).
    public static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count), unit = 0
        while value >= 1024, unit < units.count - 1 { value /= 1024; unit += 1 }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }
}
