import Foundation
import ReelBackup
import ReelCore
import ReelS3
import ReelStore

/// `reel backup [--to DIR|s3://BUCKET/PREFIX] [--auto] [--json]`: the library's records and
/// media to a folder (``LibraryBackup``) or a bucket (``BucketBackup``).
enum BackupCommand {
    static let to = Option.value("to", placeholder: "DIR|s3://BUCKET/PREFIX",
                                 help: "The backup folder (created when missing; any synced folder will do), or an S3 bucket and prefix (default: $REEL_BACKUP_DIR).")
    static let auto = Option.flag("auto", help: "Do nothing when the destination's last backup is under 24 hours old (for timers and the recorder).")
    static let json = Option.flag("json", help: "Print the result as one JSON object (files, bytesCopied, seconds, what was skipped) instead of sentences.")

    static let spec = CommandSpec(
        name: "backup",
        summary: "Back up the study library (records and media) to a folder or an S3 bucket.",
        discussion: """
            Writes backup.json (every session, tag, goal and material; format in docs/library.md) \
            and Media/SESSION-ID/ (videos, thumbnails, face tracks, review edits), \
            Media/materials/ID/ (covers). Incremental: files whose size and modification time are \
            unchanged are not read again. The space needed is \
            checked before anything is copied. backup.json is replaced last and atomically, so an \
            interrupted backup leaves the previous one intact. Restore with 'reel restore --from DIR'. \
            To an s3://BUCKET/PREFIX (AWS S3, MinIO, Garage, B2, R2: --s3-endpoint, or \
            AWS_ENDPOINT_URL_S3) the same layout goes up, signed with the access key from \
            AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY or ~/.aws/credentials; files above 8 MiB go in \
            8 MiB parts each checked by the server, an interrupted backup run again sends only what \
            is missing, and with nothing changed nothing is sent. One backup per prefix at a time.
            """,
        options: [to, auto, json] + BucketOptions.all + [LibraryOption.option],
        positionals: [],
        examples: ["reel backup --to ~/Sync/reel-backup", "REEL_BACKUP_DIR=~/Sync/reel-backup reel backup --auto",
                   "reel backup --to s3://my-backups/reel --s3-endpoint http://127.0.0.1:9000 --s3-profile minio"])

    /// The destination: `--to`, else `$REEL_BACKUP_DIR`, a folder made absolute or an
    /// `s3://` location as given; a usage error when neither is given.
    static func destination(_ arguments: ParsedArguments) throws(ArgumentParser.Error) -> String {
        let given = arguments.string(to) ?? ProcessInfo.processInfo.environment["REEL_BACKUP_DIR"].flatMap { $0.isEmpty ? nil : $0 }
        guard let given else { throw ArgumentParser.Error.missingRequired(command: arguments.path, option: "--to DIR (or REEL_BACKUP_DIR)") }
        return BucketOptions.isBucket(given) ? given : LibraryCommandText.absolute(given)
    }

    static func run(_ arguments: ParsedArguments) async throws -> Int32 {
        let destination = try destination(arguments)
        let bucket = try BucketOptions.configuration(arguments, location: destination, option: to.name,
                                                     usage: BucketBackup.usage(option: "--" + to.name))
        let path = LibraryOption.path(arguments)
        guard StudyLibrary.exists(at: path) else {
            // An empty library would make an empty backup and prune the destination's media.
            throw BackupError(description: "nothing to back up: the library \(path) does not exist (check --library or $HOME); \(destination) was not touched")
        }
        let library = try StudyLibrary(path: path, create: false)
        let asJSON = arguments.flag(json)
        let started = ContinuousClock.now
        let printer = StatusLinePrinter(period: 10)
        let progress = { (done: LibraryBackup.Progress) -> Bool in
            if !asJSON, done.bytesTotal > 0 { printer.status(progressLine(done), elapsed: seconds(since: started)) }
            return true
        }
        let report = try await backUp(library, to: destination, bucket: bucket, auto: arguments.flag(auto), progress: progress)
        printer.endStatus()
        let name = bucket?.location.description ?? destination
        if asJSON {
            print(try summaryJSON(report, destination: name, seconds: seconds(since: started)))
        } else {
            printSummary(report, destination: name)
        }
        return 0
    }

    /// Runs the backup into the folder, or the bucket when there is one.
    static func backUp(_ library: StudyLibrary, to destination: String, bucket: S3Client.Configuration?, auto: Bool,
                       progress: @escaping (LibraryBackup.Progress) -> Bool) async throws -> LibraryBackup.Report {
        if let bucket {
            var backup = BucketBackup(library: library, client: BucketBackup.client(bucket))
            backup.progress = progress
            return try await backup.run(auto: auto)
        }
        var backup = LibraryBackup(library: library, destination: destination)
        backup.progress = progress
        return try backup.run(auto: auto)
    }

    /// `backing up: 3 of 64 files, 512.0 MiB of 2.0 GiB (25 %)`.
    static func progressLine(_ done: LibraryBackup.Progress) -> String {
        let percent = done.bytesTotal > 0 ? Int(Double(done.bytesDone) / Double(done.bytesTotal) * 100) : 100
        return "backing up: \(done.filesDone) of \(Counted.noun(done.filesTotal, "file")), \(LibraryBackup.bytes(done.bytesDone)) of \(LibraryBackup.bytes(done.bytesTotal)) (\(percent) %)"
    }

    static func seconds(since start: ContinuousClock.Instant) -> Double {
        let elapsed = (ContinuousClock.now - start).components
        return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
    }

    /// The sentences: what was backed up, or why nothing was (`--auto`), and missing sources as warnings.
    static func printSummary(_ report: LibraryBackup.Report, destination: String) {
        if report.skippedAsRecent, let last = report.previousBackup {
            let hours = Int(Date().timeIntervalSince(last) / 3600)
            print("backup skipped: the last one in \(destination) is \(hours < 1 ? "under an hour" : "\(hours) h") old (--auto backs up once a day)")
            return
        }
        for path in report.missingSources {
            ErrorPrinter.warning("reel backup", "\(path) is missing; backed up without it")
        }
        print("""
            backed up \(Counted.noun(report.sessions, "session")), \(Counted.noun(report.tags, "tag")), \
            \(Counted.noun(report.goals, "goal")), \(Counted.noun(report.materials, "material")) to \(destination)
            media: \(report.copiedFiles) copied (\(LibraryBackup.bytes(report.copiedBytes))), \(report.unchangedFiles) unchanged\
            \(report.removedFiles > 0 ? ", \(report.removedFiles) old removed" : "")
            """)
    }

    /// `--json`: one object; `skipped` lists the sources missing on disk (backed up without them).
    static func summaryJSON(_ report: LibraryBackup.Report, destination: String, seconds: Double) throws -> String {
        struct Summary: Encodable {
            var destination: String
            var skippedAsRecent: Bool
            var sessions, tags, goals, materials: Int
            var files: Int
            var bytesCopied: Int64
            var unchangedFiles, removedFiles: Int
            var seconds: Double
            var skipped: [String]
        }
        let summary = Summary(destination: destination, skippedAsRecent: report.skippedAsRecent, sessions: report.sessions, tags: report.tags,
                              goals: report.goals, materials: report.materials, files: report.copiedFiles, bytesCopied: report.copiedBytes,
                              unchangedFiles: report.unchangedFiles, removedFiles: report.removedFiles,
                              seconds: (seconds * 1000).rounded() / 1000, skipped: report.missingSources)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    /// After `reel record` saved a session: when `REEL_AUTO_BACKUP_DIR` names a folder or an
    /// `s3://` bucket (its endpoint, region and key from the environment), the `--auto` backup
    /// into it (at most once a day). A failure is a warning; the session is saved.
    static func afterRecording(libraryPath: String) async {
        guard let target = ProcessInfo.processInfo.environment["REEL_AUTO_BACKUP_DIR"], !target.isEmpty else { return }
        let destination = BucketOptions.isBucket(target) ? target : LibraryCommandText.absolute(target)
        do {
            let bucket = BucketOptions.isBucket(target)
                ? try BucketOptions.configuration(fromEnvironment: target, usage: BucketBackup.usage(option: "REEL_AUTO_BACKUP_DIR")) : nil
            let report = try await backUp(try StudyLibrary(path: libraryPath, create: false), to: destination, bucket: bucket, auto: true,
                                          progress: { _ in true })
            if !report.skippedAsRecent {
                ErrorPrinter.note("reel record", "backed up to \(destination) (\(Counted.noun(report.copiedFiles, "media file")) copied)")
            }
        } catch {
            ErrorPrinter.warning("reel record", "the automatic backup to \(destination) failed: \(ErrorSentence.describe(error))")
        }
    }

    /// A backup that cannot start; what to do is in the text.
    struct BackupError: Error, CustomStringConvertible {
        let description: String
    }
}
