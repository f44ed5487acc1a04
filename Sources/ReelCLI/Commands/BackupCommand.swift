import Foundation
import ReelCore
import ReelStore

/// `reel backup [--to DIR] [--auto]`: the library's records and media to a folder.
enum BackupCommand {
    static let to = Option.value("to", placeholder: "DIR",
                                 help: "The backup folder (created when missing; default: $REEL_BACKUP_DIR). Any synced folder will do.")
    static let auto = Option.flag("auto", help: "Do nothing when the folder's last backup is under 24 hours old (for timers and the recorder).")

    static let spec = CommandSpec(
        name: "backup",
        summary: "Back up the study library (records and media) to a folder.",
        discussion: """
            Writes backup.json (every session, tag, goal and material; format in docs/library.md) \
            and Media/SESSION-ID/ (videos, thumbnails, face tracks, review edits), \
            Media/materials/ID/ (covers). Incremental: files whose size and modification time are \
            unchanged are not read again. The space needed is \
            checked before anything is copied. backup.json is replaced last and atomically, so an \
            interrupted backup leaves the previous one intact. Restore with 'reel restore --from DIR'.
            """,
        options: [to, auto, LibraryOption.option],
        positionals: [],
        examples: ["reel backup --to ~/Sync/reel-backup", "REEL_BACKUP_DIR=~/Sync/reel-backup reel backup --auto"])

    /// The destination: `--to`, else `$REEL_BACKUP_DIR`; a usage error when neither is given.
    static func destination(_ arguments: ParsedArguments) throws(ArgumentParser.Error) -> String {
        if let path = arguments.string(to) { return LibraryCommandText.absolute(path) }
        if let path = ProcessInfo.processInfo.environment["REEL_BACKUP_DIR"], !path.isEmpty { return LibraryCommandText.absolute(path) }
        throw ArgumentParser.Error.missingRequired(command: arguments.path, option: "--to DIR (or REEL_BACKUP_DIR)")
    }

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let folder = try destination(arguments)
        let path = LibraryOption.path(arguments)
        guard StudyLibrary.exists(at: path) else {
            // An empty library would make an empty backup and prune the folder's media.
            throw BackupError(description: "nothing to back up: the library \(path) does not exist (check --library or $HOME); \(folder) was not touched")
        }
        let library = try StudyLibrary(path: path, create: false)
        let report = try LibraryBackup(library: library, destination: folder).run(auto: arguments.flag(auto))
        if report.skippedAsRecent, let last = report.previousBackup {
            let hours = Int(Date().timeIntervalSince(last) / 3600)
            print("backup skipped: the last one in \(folder) is \(hours < 1 ? "under an hour" : "\(hours) h") old (--auto backs up once a day)")
            return 0
        }
        for path in report.missingSources {
            ErrorPrinter.warning("reel backup", "\(path) is missing; backed up without it")
        }
        print("""
            backed up \(Counted.noun(report.sessions, "session")), \(Counted.noun(report.tags, "tag")), \
            \(Counted.noun(report.goals, "goal")), \(Counted.noun(report.materials, "material")) to \(folder)
            media: \(report.copiedFiles) copied (\(LibraryBackup.bytes(report.copiedBytes))), \(report.unchangedFiles) unchanged\
            \(report.removedFiles > 0 ? ", \(report.removedFiles) old removed" : "")
            """)
        return 0
    }

    /// After `reel record` saved a session: when `REEL_AUTO_BACKUP_DIR` names a folder, the
    /// `--auto` backup into it (at most once a day). A failure is a warning; the session is saved.
    static func afterRecording(libraryPath: String) {
        guard let folder = ProcessInfo.processInfo.environment["REEL_AUTO_BACKUP_DIR"], !folder.isEmpty else { return }
        let path = LibraryCommandText.absolute(folder)
        do {
            let report = try LibraryBackup(library: try StudyLibrary(path: libraryPath, create: false), destination: path).run(auto: true)
            if !report.skippedAsRecent {
                ErrorPrinter.note("reel record", "backed up to \(path) (\(Counted.noun(report.copiedFiles, "media file")) copied)")
            }
        } catch {
            ErrorPrinter.warning("reel record", "the automatic backup to \(path) failed: \(ErrorSentence.describe(error))")
        }
    }

    /// A backup that cannot start; what to do is in the text.
    struct BackupError: Error, CustomStringConvertible {
        let description: String
    }
}
