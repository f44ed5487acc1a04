import Foundation
import ReelBackup
import ReelCore
import ReelStore

/// `reel sessions show|edit|rm|untrash SESSION`.
extension SessionsCommand {
    /// One file of a session as `show` reports it.
    struct FileLine {
        let role: String, path: String?, bytes: Int64?
    }

    /// `show`: the session, its files with their sizes (or "missing"), and its exports.
    static func show(_ arguments: ParsedArguments) throws -> Int32 {
        let reference = try LibraryOption.sessionReference(arguments, session)
        let library = try LibraryOption.openExisting(arguments)
        let found = try StudySession.find(reference, in: library.sessions())
        let exports = try library.exports(of: found.id)
        let edits = PrivacyEdits.path(forVideo: found.filePath)
        let files = [FileLine(role: "video", path: found.filePath, bytes: size(found.filePath)),
                     FileLine(role: "thumbnail", path: found.thumbnailPath, bytes: found.thumbnailPath.flatMap(size)),
                     FileLine(role: "face track", path: found.faceTrackPath, bytes: found.faceTrackPath.flatMap(size)),
                     FileLine(role: "review edits", path: size(edits) == nil ? nil : edits, bytes: size(edits))]
        if arguments.flag(json) {
            print(try showJSON(found, files: files, exports: exports))
            return 0
        }
        let mode = found.mode == .timelapse ? "timelapse, a frame every \(found.intervalSeconds.map(\.formatted3) ?? "?") s" : "full"
        var rows: [[String]] = [
            ["session", found.id.uuidString.lowercased()],
            ["title", found.title ?? "-"],
            ["started", LibraryCommandText.localTime(found.startedAt) + ", ended " + LibraryCommandText.localTime(found.endedAt)],
            ["active", StatusLinePrinter.clock(found.activeSeconds) + " (study), video " + StatusLinePrinter.clock(found.videoSeconds)],
            ["mode", mode + (found.recovered ? ", recovered after a crash" : "")],
            ["tags", found.tags.isEmpty ? "-" : found.tags.joined(separator: ", ")],
        ]
        for file in files {
            let state = file.path == nil ? (file.role == "review edits" ? "none (not reviewed)" : "none")
                : file.bytes.map { "\(file.path!) (\(LibraryBackup.bytes($0)))" } ?? "\(file.path!) (missing)"
            rows.append([file.role, state])
        }
        if exports.isEmpty { rows.append(["exports", "none (reel export \(found.id.uuidString.lowercased().prefix(8)) -o FILE.mp4)"]) }
        for (index, export) in exports.enumerated() {
            let now = size(export.path).map { LibraryBackup.bytes($0) } ?? "missing"
            rows.append([index == 0 ? "exports" : "", "\(export.path) (\(export.privacy), \(LibraryCommandText.localTime(export.exportedAt)), \(now))"])
        }
        let total = files.compactMap(\.bytes).reduce(0, +)
        rows.append(["on disk", LibraryBackup.bytes(total) + " (the session's own files)"])
        print(LibraryCommandText.table(rows), terminator: "")
        return 0
    }

    static func showJSON(_ found: StudySession, files: [FileLine], exports: [StudyLibrary.SessionExport]) throws -> String {
        let session = try JSONSerialization.jsonObject(with: Data(try jsonText([found]).utf8)) as? [[String: Any]] ?? []
        var object = session.first ?? [:]
        object["files"] = files.map { ["role": $0.role, "path": $0.path ?? NSNull(), "bytes": $0.bytes ?? NSNull()] as [String: Any] }
        object["exports"] = exports.map {
            ["path": $0.path, "privacy": $0.privacy, "exportedAt": StudySessionJSON.timestamp($0.exportedAt), "bytes": $0.bytes] as [String: Any]
        }
        return try LibraryCommandText.json(object)
    }

    /// `edit`: title and tags in one transaction.
    static func edit(_ arguments: ParsedArguments) throws -> Int32 {
        let reference = try LibraryOption.sessionReference(arguments, session)
        if let conflict = arguments.conflict(title, noTitle) { throw conflict }
        var change = StudyLibrary.SessionEdit()
        if let text = arguments.string(title) {
            do { change.title = .some(try LibraryName.validate(text, as: .title)) } catch {
                throw arguments.invalid(title, expected: "a one-line title (\(error))")
            }
        }
        if arguments.flag(noTitle) { change.title = .some(nil) }
        change.addTags = try arguments.strings(addTag).map { try checkedTag($0, arguments, option: addTag) }
        change.removeTags = arguments.strings(removeTag)
        guard !change.isEmpty else {
            throw ArgumentParser.Error.missingRequired(command: arguments.path, option: "--title, --no-title, --add-tag or --remove-tag")
        }
        let library = try LibraryOption.openExisting(arguments)
        let found = try StudySession.find(reference, in: library.sessions())
        let edited = try library.editSession(found.id, change)
        printSafe("session \(edited.id.uuidString.lowercased().prefix(8)): title \(edited.title.map { "'\($0)'" } ?? "none"), tags "
                  + (edited.tags.isEmpty ? "none" : edited.tags.map { "'\($0)'" }.joined(separator: ", ")))
        return 0
    }

    /// `rm`: the session's files and record to the Trash, then out of the library.
    static func remove(_ arguments: ParsedArguments) throws -> Int32 {
        let reference = try LibraryOption.sessionReference(arguments, session)
        let library = try LibraryOption.openExisting(arguments)
        let found = try StudySession.find(reference, in: library.sessions())
        let record = try SessionTrash(library: library, trash: FreedesktopTrash(dataFolder: UserFolders.current.data)).remove(found)
        let label = "session \(found.id.uuidString.lowercased().prefix(8))" + (found.title.map { " (\($0))" } ?? "")
        printSafe("moved \(label) to the Trash: " + (record.files.isEmpty ? "its record (it had no files left)" : record.files.map(\.originalPath).joined(separator: ", ")))
        printSafe("undo: reel sessions untrash \(found.id.uuidString.lowercased().prefix(8))")
        return 0
    }

    /// `untrash`: a session `rm` removed, back with its files.
    static func untrash(_ arguments: ParsedArguments) throws -> Int32 {
        let reference = try LibraryOption.sessionReference(arguments, session)
        let library = try LibraryOption.openOrCreate(arguments)
        let record = try SessionTrash(library: library, trash: FreedesktopTrash(dataFolder: UserFolders.current.data)).putBack(reference)
        printSafe("put back session \(record.session.id.uuidString.lowercased().prefix(8))" + (record.session.title.map { " (\($0))" } ?? "")
                  + (record.files.isEmpty ? "" : ": " + record.files.map(\.originalPath).joined(separator: ", ")))
        return 0
    }

    /// The size of the file at `path`, nil when it is not there.
    static func size(_ path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return Int64(info.st_size)
    }
}
