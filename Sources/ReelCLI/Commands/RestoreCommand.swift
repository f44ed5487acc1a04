import Foundation
import ReelBackup
import ReelCore
import ReelS3
import ReelStore

/// `reel restore --from DIR|s3://BUCKET/PREFIX [--media-dir DIR] [--dry-run] [--skip-missing]`: adds a backup's records
/// and media to the library, from a folder (``LibraryRestore``) or a bucket (``BucketRestore``).
enum RestoreCommand {
    static let from = Option.value("from", placeholder: "DIR|s3://BUCKET/PREFIX", required: true,
                                   help: "The backup folder, or the S3 bucket and prefix ('reel backup --to' wrote it).")
    static let dryRun = Option.flag("dry-run", help: "Only print what would be added; change nothing.")
    static let mediaDir = Option.value("media-dir", placeholder: "DIR",
                                       help: "Put the files of the sessions (and the covers of the materials) this restore adds in DIR (their records name the new paths), instead of the paths they were backed up from — for another user name or disk.")

    static let skipMissing = Option.flag("skip-missing", help: "Restore everything else when some of the backup's media files are missing or damaged (they are listed; the records are restored).")

    static let spec = CommandSpec(
        name: "restore",
        summary: "Add a backup's sessions, tags, goals, materials and media to the library.",
        discussion: """
            Restore only adds: sessions are matched by id, tags by name, goals by date, materials \
            by ISBN; what the library has is never changed or deleted, and media are copied only \
            where missing. All records go in one transaction, so running it twice changes \
            nothing the second time. A damaged or newer backup.json is refused and nothing changes; \
            so are media files missing from the backup or damaged (all are listed) unless \
            --skip-missing is given, which restores the rest and lists what was left out. \
            Media go back to the paths they were backed up from; on a machine where those do not \
            exist (another user name), --media-dir puts the added sessions' files and materials' \
            covers in one folder (a name already taken gets the id in front; nothing is \
            overwritten). From an s3://BUCKET/PREFIX (the --s3-* options and the access key as for \
            'reel backup') each file is downloaded a part at a time and checked against its \
            checksum before anything is placed.
            """,
        options: [from, mediaDir, dryRun, skipMissing] + BucketOptions.all + [LibraryOption.option],
        positionals: [],
        examples: ["reel restore --from ~/Sync/reel-backup --dry-run", "reel restore --from ~/Sync/reel-backup",
                   "reel restore --from /media/usb/reel-backup --media-dir ~/.local/share/reel/recordings",
                   "reel restore --from s3://my-backups/reel --s3-endpoint http://127.0.0.1:9000 --dry-run"])

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let given = arguments.string(from) ?? ""
        let bucket = try BucketOptions.configuration(arguments, location: given, option: from.name, usage: BucketBackup.usage(option: "--" + from.name))
        let folder = bucket?.location.description ?? LibraryCommandText.absolute(given)
        let path = LibraryOption.path(arguments)
        let library: StudyLibrary
        if arguments.flag(dryRun), !StudyLibrary.exists(at: path) {
            // A dry run changes nothing, not even by creating the library it would restore into.
            print("the library \(path) does not exist yet: a restore would create it")
            library = try StudyLibrary.empty()
        } else {
            library = try StudyLibrary(path: path, create: true)
        }
        let media = arguments.string(mediaDir).map(LibraryCommandText.absolute)
        let report: LibraryRestore.Report
        if let bucket {
            report = try await BucketRestore(library: library, client: BucketBackup.client(bucket))
                .run(dryRun: arguments.flag(dryRun), mediaFolder: media, skipMissing: arguments.flag(skipMissing))
        } else {
            report = try LibraryRestore(library: library, source: folder).run(dryRun: arguments.flag(dryRun), mediaFolder: media,
                                                                              skipMissing: arguments.flag(skipMissing))
        }
        let plan = report.plan
        for file in report.skipped {
            ErrorPrinter.warning("reel restore", "\(report.dryRun ? "would leave" : "left") out \(file.path): \(file.reason)")
        }
        if plan.isEmpty && report.media.isEmpty {
            print("nothing to restore: the library already has everything in \(folder)")
            return 0
        }
        let verb = report.dryRun ? "would add" : "added"
        for session in plan.sessions {
            printSafe("\(verb) session \(session.id.uuidString.lowercased().prefix(8)) \(session.startedAt.formatted(.iso8601))\(session.title.map { " (\($0))" } ?? "")")
        }
        for tag in plan.tags { printSafe("\(verb) tag '\(tag)'") }
        for goal in plan.goals { printSafe("\(verb) goal from \(goal.date): \(goal.minutes) min") }
        for material in plan.materials { printSafe("\(verb) material '\(material.title)'\(material.isbn.map { " (ISBN \($0))" } ?? "")") }
        for path in report.media { print("\(report.dryRun ? "would copy" : "copied") \(path)") }
        print("\(report.dryRun ? "dry run: " : "")\(Counted.noun(plan.sessions.count, "session")), \(Counted.noun(plan.tags.count, "tag")), "
                  + "\(Counted.noun(plan.goals.count, "goal")), \(Counted.noun(plan.materials.count, "material")), \(Counted.noun(report.media.count, "media file"))"
                  + (report.skipped.isEmpty ? "" : ", \(report.skipped.count) left out (missing or damaged in the backup)"))
        return 0
    }
}
