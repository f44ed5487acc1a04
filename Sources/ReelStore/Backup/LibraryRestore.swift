import Foundation
import ReelCore

/// `reel restore --from DIR [--dry-run]` (issue 6, Restore): adds what the backup has and the
/// library lacks (``RestorePlan``), copies media missing at their library paths, never deletes
/// or overwrites. Everything is checked before anything changes: the document is read and
/// every media file to copy is copied to a hidden temporary file with its checksum verified;
/// only then are the copies renamed into place and the records added in one transaction.
public struct LibraryRestore {
    /// What a restore added (or, in a dry run, would add).
    public struct Report: Sendable, Equatable {
        /// The additions.
        public var plan: RestorePlan
        /// Library paths of media copied (or to copy).
        public var media: [String]
        /// Whether this was a dry run.
        public var dryRun: Bool
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

    /// Restores (or with `dryRun` only reports what would be added).
    public func run(dryRun: Bool = false) throws -> Report {
        let document: BackupDocument
        do {
            guard let read = try LibraryBackup.document(in: source) else {
                throw Error(description: "\(source) holds no \(LibraryBackup.documentName); give the folder 'reel backup --to' wrote")
            }
            document = read
        } catch let error as BackupDocument.Error {
            throw Error(description: "\(source)/\(LibraryBackup.documentName): \(error)")
        }
        let plan = RestorePlan(backup: document, existing: try library.restoreKeys())

        // Media of every session the library will have whose file is missing at its path.
        let sessionIDs = Set(try library.restoreKeys().sessionIDs).union(plan.sessions.map(\.id))
        var seen = Set<String>()
        let wanted = document.media.filter { entry in
            sessionIDs.contains(entry.sessionID) && !FileManager.default.fileExists(atPath: entry.sourcePath) && seen.insert(entry.sourcePath).inserted
        }
        for entry in wanted {
            guard let status = ChecksummedFile.status(source + "/" + entry.path) else {
                throw Error(description: "\(source)/\(entry.path) is missing, though \(LibraryBackup.documentName) lists it; nothing was changed")
            }
            guard status.size == entry.size else {
                throw Error(description: "\(source)/\(entry.path) has \(status.size) bytes, \(LibraryBackup.documentName) says \(entry.size); the backup is damaged, nothing was changed")
            }
        }
        if dryRun { return Report(plan: plan, media: wanted.map(\.sourcePath), dryRun: true) }

        var staged: [(temporary: String, destination: String)] = []
        do {
            for entry in wanted {
                let copy = try ChecksummedFile.copy(from: source + "/" + entry.path, to: entry.sourcePath, expectedSHA256: entry.sha256, rename: false)
                staged.append((copy.temporary, entry.sourcePath))
            }
        } catch {
            for file in staged { unlink(file.temporary) }
            throw Error(description: "\(error); nothing was changed")
        }
        for (index, file) in staged.enumerated() {
            // Never overwrite: a file that appeared meanwhile stays, the copy goes.
            do {
                _ = try ChecksummedFile.commitWithoutReplacing(file.temporary, to: file.destination)
            } catch {
                for rest in staged.dropFirst(index + 1) { unlink(rest.temporary) }
                throw error
            }
        }
        try library.apply(plan)
        return Report(plan: plan, media: wanted.map(\.sourcePath), dryRun: false)
    }
}
