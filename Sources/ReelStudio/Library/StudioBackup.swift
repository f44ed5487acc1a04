import Foundation
import ReelBackup
import ReelCore
import ReelRuntime
import ReelStore

/// The backup page's work: ReelStore's ``LibraryBackup`` (what `reel backup` runs) on a
/// thread of its own, one at a time, its progress published as `backup` events; and
/// ``LibraryRestore`` (what `reel restore` runs), dry run or for real.
///
/// Stopping the studio stops a backup before its next file and waits for it: the backup
/// folder keeps its previous backup whole (the document is written last).
final class StudioBackup: Sendable {
    /// What the page shows: `GET /api/backup` and each `backup` event.
    struct Snapshot: Encodable, Sendable {
        var state = StudioJobState.idle
        /// The folder of the backup running or last run, else the default one (`$REEL_BACKUP_DIR`).
        @NullWhenNil var folder: String? = nil
        /// When that folder's last backup was made (from its backup.json), nil for none.
        @NullWhenNil var lastBackupAt: String? = nil
        @NullWhenNil var sessionsInBackup: Int? = nil
        var filesDone = 0, filesTotal = 0
        var bytesDone: Int64 = 0, bytesTotal: Int64 = 0
        /// What was copied and left (after a backup), or what went wrong.
        @NullWhenNil var message: String? = nil
        var missing: [String] = []

    }

    private let libraryPath: String
    private let publish: @Sendable (Snapshot) -> Void
    private let snapshot: Locked<Snapshot>
    private let stopRequested = Locked(false)
    /// Signalled when the last backup started has ended (nil before the first).
    private let lastRun = Locked<DispatchSemaphore?>(nil)

    init(libraryPath: String, defaultFolder: String?, publish: @escaping @Sendable (Snapshot) -> Void) {
        self.libraryPath = libraryPath
        self.publish = publish
        var first = Snapshot(folder: defaultFolder)
        if let defaultFolder { Self.describe(defaultFolder, into: &first) }
        snapshot = Locked(first)
    }

    var current: Snapshot { snapshot.withLock { $0 } }

    /// Reads `folder`'s backup.json for the status (nothing there: no date).
    static func describe(_ folder: String, into snapshot: inout Snapshot) {
        let document = try? LibraryBackup.document(in: folder)
        snapshot.lastBackupAt = document.map { StudySessionJSON.timestamp($0.createdAt) } ?? nil
        snapshot.sessionsInBackup = document.map { $0.sessions.count } ?? nil
    }

    /// Starts a backup into `folder` (an absolute path); refused while one runs or when there
    /// is no library yet (an empty backup would prune the folder's media).
    func start(into folder: String) throws(StudioRefusal) -> Snapshot {
        guard folder.hasPrefix("/") else { throw StudioRefusal(status: 400, message: "the backup folder must be an absolute path (/…)") }
        guard StudyLibrary.exists(at: libraryPath) else {
            throw StudioRefusal(status: 409, message: "nothing to back up: the library \(libraryPath) does not exist yet; \(folder) was not touched")
        }
        let started = try snapshot.withLock { now throws(StudioRefusal) -> Snapshot in
            guard now.state != .running else { throw StudioRefusal(status: 409, message: "a backup to \(now.folder ?? "?") is running") }
            now = Snapshot(state: .running, folder: folder)
            return now
        }
        stopRequested.withLock { $0 = false }
        let ended = DispatchSemaphore(value: 0)
        lastRun.withLock { $0 = ended }
        let thread = Thread { [self] in
            run(folder)
            ended.signal()
        }
        thread.name = "reel-studio-backup"
        publish(started)
        thread.start()
        return started
    }

    private func run(_ folder: String) {
        do {
            var backup = LibraryBackup(library: try StudyLibrary(path: libraryPath, create: false), destination: folder)
            backup.progress = { [self] progress in
                update { $0.filesDone = progress.filesDone; $0.filesTotal = progress.filesTotal
                    $0.bytesDone = progress.bytesDone; $0.bytesTotal = progress.bytesTotal }
                return !stopRequested.withLock { $0 }
            }
            let report = try backup.run()
            update { now in
                now.state = .finished
                now.missing = report.missingSources
                now.message = "backed up \(Counted.noun(report.sessions, "session")), \(Counted.noun(report.tags, "tag")), "
                    + "\(Counted.noun(report.goals, "goal")), \(Counted.noun(report.materials, "material")); "
                    + "media: \(report.copiedFiles) copied (\(LibraryBackup.bytes(report.copiedBytes))), \(report.unchangedFiles) unchanged"
                    + (report.removedFiles > 0 ? ", \(report.removedFiles) old removed" : "")
                Self.describe(folder, into: &now)
            }
        } catch let error as LibraryBackup.Error where error.isStopped {
            update { $0.state = .stopped; $0.message = error.description }
        } catch {
            update { $0.state = .failed; $0.message = "\(error)" }
        }
    }

    private func update(_ change: (inout Snapshot) -> Void) {
        let now = snapshot.withLock { value -> Snapshot in change(&value); return value }
        publish(now)
    }

    /// Stops a backup that runs (before its next file) and waits for it.
    func stop() async {
        guard let ended = lastRun.withLock({ value -> DispatchSemaphore? in defer { value = nil }; return value }) else { return }
        stopRequested.withLock { $0 = true }
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                ended.wait()
                done.resume()
            }
        }
    }

    /// `POST /api/restore`: what `reel restore` does, on the calling thread; a dry run changes
    /// nothing (not even by creating the library).
    func restore(_ request: RestoreRequest) throws(StudioRefusal) -> RestoreAnswer {
        guard request.folder.hasPrefix("/") else { throw StudioRefusal(status: 400, message: "the backup folder must be an absolute path (/…)") }
        if let media = request.mediaFolder, !media.hasPrefix("/") {
            throw StudioRefusal(status: 400, message: "the media folder must be an absolute path (/…)")
        }
        do {
            let library = request.dryRun && !StudyLibrary.exists(at: libraryPath) ? try StudyLibrary.empty()
                : try StudyLibrary(path: libraryPath, create: true)
            let report = try LibraryRestore(library: library, source: request.folder)
                .run(dryRun: request.dryRun, mediaFolder: request.mediaFolder, skipMissing: request.skipMissing ?? false)
            return RestoreAnswer(report)
        } catch let error as LibraryRestore.Error {
            throw StudioRefusal(status: 422, message: error.description)
        } catch {
            throw StudioRefusal(status: 500, message: "\(error)")
        }
    }
}

/// The body of `POST /api/restore`.
struct RestoreRequest: Decodable {
    var folder: String
    var dryRun: Bool
    var mediaFolder: String?
    var skipMissing: Bool?
}

/// What a restore added (or, dry, would add): the same lists `reel restore` prints.
struct RestoreAnswer: Encodable {
    var dryRun: Bool
    var sessions: [StudySessionJSON]
    var tags: [String]
    var goals: [GoalAnswer]
    var materials: [StudyMaterialJSON]
    var media: [String]
    var skipped: [String]

    init(_ report: LibraryRestore.Report) {
        dryRun = report.dryRun
        sessions = report.plan.sessions.map(StudySessionJSON.init)
        tags = report.plan.tags
        goals = report.plan.goals.map(GoalAnswer.init)
        materials = report.plan.materials.map(StudyMaterialJSON.init)
        media = report.media
        skipped = report.skipped.map { "\($0.path): \($0.reason)" }
    }
}
