import Foundation
import ReelCore
import ReelStore

/// `reel restore --from DIR [--dry-run]` (docs/library.md, Backup and restore): adds what the
/// backup has and the library lacks (``RestorePlan``), copies media missing at their library
/// paths, never deletes or overwrites. Everything is checked before anything changes: the
/// document is read and every media file to copy is copied to a hidden temporary file with its
/// checksum verified; only then are the copies renamed into place and the records added in one
/// transaction.
public struct LibraryRestore {
    /// What a restore added (or, in a dry run, would add).
    public struct Report: Sendable, Equatable {
        /// The additions.
        public var plan: RestorePlan
        /// Library paths of media copied (or to copy).
        public var media: [String]
        /// Whether this was a dry run.
        public var dryRun: Bool
        /// Backup files left out with `skipMissing` (missing or damaged in the backup).
        public var skipped: [Skipped] = []
    }

    /// A backup file that cannot be restored, and why.
    public struct Skipped: Sendable, Equatable {
        /// The file in the backup.
        public var path: String
        /// Missing, or damaged and how.
        public var reason: String
    }

    /// A restore that could not be done; nothing was changed.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// The library added to.
    public let library: StudyLibrary
    /// The backup folder.
    public let source: String

    /// A restore of the backup in `source` into `library`.
    public init(library: StudyLibrary, source: String) {
        self.library = library
        self.source = source
    }

    /// Restores (or with `dryRun` only reports what would be added). With `mediaFolder`, the
    /// sessions this restore adds get their files there (``MediaRelocation``) and their
    /// records name those paths; without it every file goes back to the path it was backed
    /// up from. A backup file that is missing or damaged stops the restore with every such
    /// file listed and nothing changed; with `skipMissing` those files are left out (listed in
    /// the report) and everything else is restored, records included.
    public func run(dryRun: Bool = false, mediaFolder: String? = nil, skipMissing: Bool = false) throws -> Report {
        let document: BackupDocument
        do {
            guard let read = try LibraryBackup.document(in: source) else {
                throw Error(description: "\(source) holds no \(LibraryBackup.documentName); give the folder 'reel backup --to' wrote")
            }
            document = read
        } catch let error as BackupDocument.Error {
            throw Error(description: "\(source)/\(LibraryBackup.documentName): \(error)")
        }
        let (plan, existing, relocation) = try Self.additions(document, to: library, mediaFolder: mediaFolder)
        var (wanted, skipped) = Self.mediaToCopy(document, existing: existing, plan: plan, relocation: relocation, backup: source) {
            ChecksummedFile.status(source + "/" + $0.path)?.size
        }
        if !skipped.isEmpty, !skipMissing { throw Self.incomplete(skipped) }
        if dryRun { return Report(plan: plan, media: wanted.map(\.destination), dryRun: true, skipped: skipped) }

        var staged: [(temporary: String, destination: String)] = []
        do {
            for (entry, destination) in wanted {
                do {
                    let copy = try ChecksummedFile.copy(from: source + "/" + entry.path, to: destination, expected: entry.checksum, rename: false)
                    staged.append((copy.temporary, destination))
                } catch where error.isDamage && skipMissing {
                    skipped.append(Skipped(path: source + "/" + entry.path, reason: "its checksum differs from the one recorded: damaged"))
                }
            }
        } catch {
            throw Self.failed(error, staged: staged, mediaFolder: mediaFolder)
        }
        try Self.place(staged)
        try library.apply(plan)
        let placed = Set(staged.map(\.destination))
        return Report(plan: plan, media: wanted.map(\.destination).filter(placed.contains), dryRun: false, skipped: skipped)
    }

    /// What restoring `document` adds to `library`: the plan (with `mediaFolder`, the added
    /// sessions' and materials' paths moved there), what the library had, and the relocation.
    static func additions(_ document: BackupDocument, to library: StudyLibrary, mediaFolder: String?) throws
        -> (plan: RestorePlan, existing: RestorePlan.Existing, relocation: MediaRelocation?) {
        let existing = try library.restoreKeys()
        var plan = RestorePlan(backup: document, existing: existing)
        guard let mediaFolder else { return (plan, existing, nil) }
        let relocation: MediaRelocation
        do {
            relocation = try MediaRelocation(sessions: plan.sessions, materials: plan.materials, into: mediaFolder,
                                             exists: { FileManager.default.fileExists(atPath: $0) })
        } catch {
            throw Error(description: "\(error); nothing was changed")
        }
        plan.sessions = plan.sessions.map { relocation.relocated($0) }
        plan.materials = plan.materials.map { relocation.relocated($0) }
        return (plan, existing, relocation)
    }

    /// The error for a fetch that failed: the staged copies removed, nothing changed, and the
    /// way on when there is one.
    static func failed(_ error: any Swift.Error, staged: [(temporary: String, destination: String)], mediaFolder: String?) -> Error {
        for file in staged { unlink(file.temporary) }
        let elsewhere = mediaFolder == nil && "\(error)".contains("cannot create") ? " (to put the media of the added sessions in another folder, restore with --media-dir DIR)" : ""
        let rest = (error as? ChecksummedFile.Error)?.isDamage == true ? " (to restore everything else, run again with --skip-missing)" : ""
        return Error(description: "\(error); nothing was changed\(elsewhere)\(rest)")
    }

    /// Places every staged copy at its destination, never over a file: one that appeared
    /// meanwhile stays and the copy goes. On a failure the copies not placed are removed.
    static func place(_ staged: [(temporary: String, destination: String)]) throws {
        for (index, file) in staged.enumerated() {
            do {
                _ = try ChecksummedFile.commitWithoutReplacing(file.temporary, to: file.destination)
            } catch {
                for rest in staged.dropFirst(index + 1) { unlink(rest.temporary) }
                throw error
            }
        }
    }

    /// The media of every session and material the library will have whose file is missing
    /// where it belongs, each once; those the backup lacks or holds at the wrong size (`size`
    /// of an entry's file in the backup, nil when missing) apart. `backup` names the backup in
    /// the list of files left out.
    static func mediaToCopy(_ document: BackupDocument, existing: RestorePlan.Existing, plan: RestorePlan, relocation: MediaRelocation?,
                            backup: String, size: (BackupMediaEntry) -> Int64?)
        -> (wanted: [(entry: BackupMediaEntry, destination: String)], skipped: [Skipped]) {
        let sessionIDs = existing.sessionIDs.union(plan.sessions.map(\.id))
        let materialIDs = existing.materialIDs.union(plan.materials.map(\.id))
        var seen = Set<String>()
        var wanted: [(entry: BackupMediaEntry, destination: String)] = []
        var skipped: [Skipped] = []
        for entry in document.media where (entry.role.ownedByMaterial ? materialIDs : sessionIDs).contains(entry.ownerID) {
            let destination = relocation?.destination(of: entry) ?? entry.sourcePath
            guard !FileManager.default.fileExists(atPath: destination), seen.insert(destination).inserted else { continue }
            let path = backup + "/" + entry.path
            if let found = size(entry) {
                if found == entry.size {
                    wanted.append((entry, destination))
                } else {
                    skipped.append(Skipped(path: path, reason: "\(found) bytes, \(LibraryBackup.documentName) says \(entry.size): damaged"))
                }
            } else {
                skipped.append(Skipped(path: path, reason: "missing, though \(LibraryBackup.documentName) lists it"))
            }
        }
        return (wanted, skipped)
    }

    /// The error for backup files that are missing or damaged: every one of them, and the way on.
    static func incomplete(_ files: [Skipped]) -> Error {
        let list = files.prefix(20).map { "  \($0.path): \($0.reason)" }.joined(separator: "\n")
        let more = files.count > 20 ? "\n  … and \(files.count - 20) more" : ""
        return Error(description: """
            \(Counted.noun(files.count, "file")) of the backup cannot be restored; nothing was changed:
            \(list)\(more)
            To restore everything else (records included, these files left out), run again with --skip-missing.
            """)
    }
}
