import Foundation
import ReelCore

/// `reel sessions rm` and `reel sessions untrash`: a session's files and its record
/// go to the freedesktop Trash together, and come back together.
///
/// Removing: each file the session has on disk (video, thumbnail, face track, review edits) is
/// moved to the Trash; if one cannot be, those already moved are put back and nothing changes.
/// Then ``TrashedSession`` (the record and where each file went) is written into the home
/// Trash, and only then is the session deleted from the library. Putting back reverses it:
/// the files return to their places (never over a file that is there now), the session is
/// added again, the record leaves the Trash.
public struct SessionTrash {
    /// The library.
    public let library: StudyLibrary
    /// The Trash.
    public let trash: FreedesktopTrash

    /// Session removal for `library` into `trash`.
    public init(library: StudyLibrary, trash: FreedesktopTrash) {
        self.library = library
        self.trash = trash
    }

    /// A removal or a putting back that could not be done; nothing was changed.
    public struct Error: Swift.Error, CustomStringConvertible {
        public var description: String
    }

    /// Moves `session`'s files and record to the Trash and deletes it from the library.
    /// Files that are already gone are left out (listed in the record as nothing).
    public func remove(_ session: StudySession, at date: Date = Date()) throws -> TrashedSession {
        var moved: [TrashedSession.File] = []
        do {
            for path in TrashedSession.paths(of: session) where FileManager.default.fileExists(atPath: path) {
                moved.append(try trash.trash(path, at: date))
            }
            let record = TrashedSession(session: session, files: moved)
            let folder = (session.filePath as NSString).deletingLastPathComponent
            let recordFile = try trash.add(try record.encoded(), originalPath: folder + "/" + TrashedSession.fileName(for: session.id), at: date)
            do {
                try library.removeSession(session.id)
            } catch {
                trash.erase(recordFile)
                throw error
            }
            return record
        } catch {
            for file in moved.reversed() { try? trash.restore(file) }
            throw Error(description: "\(error); nothing was changed")
        }
    }

    /// The sessions in the home Trash, oldest removal first (by the `.trashinfo`'s deletion
    /// date, then by the number the Trash added to a taken name: a later removal in the same
    /// second got the higher one); records that cannot be read are skipped.
    public func trashed() -> [(record: TrashedSession, file: TrashedSession.File)] {
        let found = trash.homeFiles(startingWith: "reel-session-").compactMap { name -> (record: TrashedSession, file: TrashedSession.File, at: Date)? in
            let path = trash.homeTrash + "/files/" + name
            guard let data = FileManager.default.contents(atPath: path), let record = try? TrashedSession.decoded(data) else {
                return nil
            }
            let info = (try? String(contentsOfFile: trash.homeTrash + "/info/" + name + ".trashinfo", encoding: .utf8))
                .flatMap { TrashInfo(text: $0, timeZone: trash.timeZone) }
            let file = TrashedSession.File(originalPath: info?.originalPath ?? path, trash: trash.homeTrash, name: name)
            return (record, file, info?.deletedAt ?? .distantPast)
        }
        return found.sorted { a, b in
            a.at != b.at ? a.at < b.at : Self.copyNumber(a.file.name) < Self.copyNumber(b.file.name)
        }.map { ($0.record, $0.file) }
    }

    /// The number the Trash put before the extension of a taken name (`reel-session-ID.2.json`
    /// → 2), 1 for the name itself.
    private static func copyNumber(_ name: String) -> Int {
        let stem = (name as NSString).deletingPathExtension
        return Int((stem as NSString).pathExtension) ?? 1
    }

    /// Puts the trashed session `reference` names back (`last`: the newest removed; or its id
    /// or the start of it): files to their places, the session into the library, the record
    /// out of the Trash. A session removed twice (removed, restored from a backup, removed
    /// again) has two records; its id names the newer, so a whole id is never ambiguous.
    public func putBack(_ reference: String) throws -> TrashedSession {
        let all = trashed()
        guard let newest = all.last else {
            throw Error(description: "the Trash (\(trash.homeTrash)) holds no session removed by reel sessions rm")
        }
        var latest: [UUID: Int] = [:]
        for (index, entry) in all.enumerated() { latest[entry.record.session.id] = index }
        let candidates = latest.values.sorted().map { all[$0] }
        let (record, recordFile) = reference == "last" ? newest : try {
            let found = try StudySession.find(reference, in: candidates.map(\.record.session))
            return candidates.first { $0.record.session.id == found.id }!
        }()
        guard try !library.contains(record.session.id) else {
            throw Error(description: "session \(record.session.id.uuidString.lowercased().prefix(8)) is in the library already (restored from a backup?); its files stay in the Trash")
        }
        for file in record.files {
            if FileManager.default.fileExists(atPath: file.originalPath) {
                throw Error(description: "\(file.originalPath) exists now; move it away, then run this again (nothing was changed)")
            }
            if !FileManager.default.fileExists(atPath: file.trash + "/files/" + file.name) {
                throw Error(description: "\(file.name) is no longer in \(file.trash)/files (emptied from the Trash?); nothing was changed")
            }
        }
        var restored: [TrashedSession.File] = []
        do {
            for file in record.files {
                try trash.restore(file)
                restored.append(file)
            }
            try library.add(record.session)
        } catch {
            for file in restored { try? trash.undoRestore(file, at: Date()) }
            throw Error(description: "\(error); the session stays in the Trash")
        }
        trash.erase(recordFile)
        return record
    }
}
