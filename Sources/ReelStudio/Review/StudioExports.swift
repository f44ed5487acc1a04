import Foundation
import ReelCore
import ReelExport
import ReelRuntime
import ReelStore

/// The export page's work: ReelExport's ``PrivacyExporter`` (what `reel export SESSION` runs)
/// or ``WeeklyVlog`` (`reel vlog`) on a thread of its own, one job at a time, its progress
/// published as `export` events. A stop (the page's Cancel, or the studio stopping) goes
/// through ``ExportStopRequest``: the exporter removes its hidden files and nothing is left.
/// Outputs go to the export folder under names that never replace a file.
final class StudioExports: Sendable {
    /// What the page shows: `GET /api/export` and each `export` event.
    struct Snapshot: Encodable, Sendable, Equatable {
        var state = StudioJobState.idle
        /// export or vlog; nil before the first job.
        @NullWhenNil var kind: String? = nil
        @NullWhenNil var session: String? = nil
        /// What is being made, in words.
        @NullWhenNil var label: String? = nil
        @NullWhenNil var fraction: Double? = nil
        var frames = 0
        @NullWhenNil var secondsLeft: Double? = nil
        @NullWhenNil var output: String? = nil
        @NullWhenNil var fileName: String? = nil
        @NullWhenNil var bytes: Int64? = nil
        @NullWhenNil var message: String? = nil
        var warnings: [String] = []

    }

    /// Where exports and vlogs are written.
    let folder: String
    private let library: StudioLibrary
    private let publish: @Sendable (Snapshot) -> Void
    private let snapshot = Locked(Snapshot())
    /// The running job's stop request and the semaphore signalled when it ends.
    private let running = Locked<(stop: ExportStopRequest, ended: DispatchSemaphore)?>(nil)
    /// When progress was last published (progress events are at most about 4 a second).
    private let lastProgress = Locked(Date.distantPast)

    init(folder: String, library: StudioLibrary, publish: @escaping @Sendable (Snapshot) -> Void) {
        self.folder = folder
        self.library = library
        self.publish = publish
    }

    var current: Snapshot { snapshot.withLock { $0 } }

    /// The last finished job's output, when it is still there.
    var finishedOutput: String? {
        let now = current
        guard now.state == .finished, let path = now.output, FileManager.default.fileExists(atPath: path) else { return nil }
        return path
    }

    /// Exports `session` with its face track and review edits, as `reel export SESSION` does.
    func export(_ session: StudySession, size: ExportSettings.Size, caption: Bool) throws(StudioRefusal) -> Snapshot {
        let label = caption ? ExportCaption.defaultLabel(language: Self.language) : nil
        let name = Self.fileStem(session)
        return try start(kind: "export", session: session.id, label: "Exporting “\(session.title ?? name)”", stem: name) { (output: String) throws(StudioRefusal) -> Work in
            var settings: ExportSettings
            do { settings = try ExportSettings.session(session, outputPath: output, captionLabel: label) } catch {
                throw StudioRefusal(status: 422, message: "\(error)")
            }
            settings.size = size
            let chosen = settings
            return { reporter, stop in
                let report = try PrivacyExporter(settings: chosen, reporter: reporter, stop: stop).run()
                return (report.warnings + [self.noteExport(of: session, settings: chosen)].compactMap { $0 }, report.partial)
            }
        }
    }

    /// Makes the weekly vlog of `week`, as `reel vlog` does. While a job runs it is refused as
    /// busy (409) before its week is looked at, as any second job is.
    func vlog(_ week: VlogWeek, layout: WeeklyVlog.Layout) throws(StudioRefusal) -> Snapshot {
        let stem = "reel-vlog-\(week.monday)-\(layout.rawValue)"
        return try start(kind: "vlog", session: nil, label: "Weekly vlog from \(week.monday)", stem: stem) { (output: String) throws(StudioRefusal) -> Work in
            guard week.days.contains(where: { !$0.sessions.isEmpty }) else {
                throw StudioRefusal(status: 422, message: "the week of \(week.monday) holds no session: there is nothing to put in a vlog")
            }
            let settings = WeeklyVlog.Settings(week: week, layout: layout, musicPath: nil, outputPath: output)
            return { reporter, stop in
                let report = try WeeklyVlog(settings: settings, reporter: reporter, stop: stop).run()
                return (report.warnings, report.partial)
            }
        }
    }

    /// A job's work: runs it with the reporter and stop request; its warnings and whether the
    /// source was read only in part.
    typealias Work = @Sendable (JobReporter, ExportStopRequest) throws -> (warnings: [String], partial: Bool)

    /// Starts a job writing `stem`.mp4 (numbered if taken) in the folder; refused while one runs.
    private func start(kind: String, session: UUID?, label: String, stem: String,
                       prepare: (String) throws(StudioRefusal) -> Work) throws(StudioRefusal) -> Snapshot {
        let stop = ExportStopRequest(), ended = DispatchSemaphore(value: 0)
        try running.withLock { now throws(StudioRefusal) in
            guard now == nil else { throw StudioRefusal(status: 409, message: "\(current.label ?? "a job") is running; wait for it or cancel it") }
            now = (stop, ended)
        }
        let work: Work, output: String
        do {
            output = try Self.freePath(in: folder, stem: stem)
            work = try prepare(output)
        } catch {
            running.withLock { $0 = nil }
            throw error
        }
        let started = Snapshot(state: .running, kind: kind, session: session?.uuidString.lowercased(), label: label, output: output,
                               fileName: (output as NSString).lastPathComponent)
        snapshot.withLock { $0 = started }
        publish(started)
        let thread = Thread { [self] in
            // Niced, with the encoder threads it starts: a recording running beside it keeps
            // the processor first.
            WorkerThread.lowerCurrentPriority(nice: 10)
            run(work, stop: stop)
            running.withLock { $0 = nil }
            ended.signal()
        }
        thread.name = "reel-studio-export"
        thread.start()
        return started
    }

    private func run(_ work: Work, stop: ExportStopRequest) {
        let reporter = JobReporter { [self] progress in
            let due = lastProgress.withLock { last -> Bool in
                guard Date().timeIntervalSince(last) >= 0.25 else { return false }
                last = Date()
                return true
            }
            update(publishing: due) { $0.fraction = progress.fraction; $0.frames = progress.frames; $0.secondsLeft = progress.secondsLeft }
        }
        do {
            let (warnings, partial) = try work(reporter, stop)
            update { now in
                now.state = .finished
                now.fraction = 1
                now.secondsLeft = 0
                now.warnings = warnings
                now.bytes = now.output.flatMap { (try? FileManager.default.attributesOfItem(atPath: $0)[.size] as? NSNumber)?.int64Value }
                now.message = (partial ? "made from the part of the video that could be read: " : "written to ") + (now.output ?? "?")
            }
        } catch let stopped as ExportStopRequest.Stopped {
            update { $0.state = .stopped; $0.message = stopped.description }
        } catch {
            update { $0.state = .failed; $0.message = "\(error)" }
        }
    }

    private func update(publishing: Bool = true, _ change: (inout Snapshot) -> Void) {
        let now = snapshot.withLock { value -> Snapshot in change(&value); return value }
        if publishing { publish(now) }
    }

    /// `POST /api/export/stop`: asks the running job to stop (its partial output is removed).
    func cancel() -> Snapshot {
        running.withLock { $0?.stop.request(reason: "cancelled from the studio") }
        return current
    }

    /// Stops a running job and waits for it (the studio is stopping).
    func stop() async {
        guard let job = running.withLock({ $0 }) else { return }
        job.stop.request(reason: "the studio stopped")
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            DispatchQueue.global().async {
                job.ended.wait()
                job.ended.signal()
                done.resume()
            }
        }
    }

    /// Notes a session's export in the library, as `reel export` does (`reel sessions show`
    /// lists it); a failure is a warning, returned.
    private func noteExport(of session: StudySession, settings: ExportSettings) -> String? {
        let bytes = ((try? FileManager.default.attributesOfItem(atPath: settings.outputPath)[.size]) as? NSNumber)?.int64Value ?? 0
        do {
            let record = StudyLibrary.SessionExport(path: settings.outputPath, exportedAt: Date(), privacy: settings.privacyName, bytes: bytes)
            _ = try library.withOpen { try $0.recordExport(record, of: session.id) }
            return nil
        } catch {
            return "the export is done, but the library could not note it: \(error.message)"
        }
    }

    /// `folder/stem.mp4`, or `stem-2.mp4` … when taken; the folder is made.
    static func freePath(in folder: String, stem: String) throws(StudioRefusal) -> String {
        do { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) } catch {
            throw StudioRefusal(status: 500, message: "the export folder \(folder) cannot be made: \(error)")
        }
        for n in 1...1000 {
            let path = folder + "/" + stem + (n == 1 ? "" : "-\(n)") + ".mp4"
            if !FileManager.default.fileExists(atPath: path) { return path }
        }
        throw StudioRefusal(status: 409, message: "\(folder) already holds a thousand files named \(stem)…; move some away")
    }

    /// `reel-2026-12-02-1405-TITLE` (the session's start, local time; the title's letters and
    /// digits, else the id's first 8 characters).
    static func fileStem(_ session: StudySession) -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd-HHmm"
        let title = StampName.from(original: session.title ?? "").dropLast(4)
        let named = title == "stamp" || title.isEmpty ? String(session.id.uuidString.lowercased().prefix(8)) : String(title.prefix(40))
        return "reel-" + formatter.string(from: session.startedAt) + "-" + named
    }

    private static var language: String? {
        let environment = ProcessInfo.processInfo.environment
        return environment["LC_ALL"] ?? environment["LANG"]
    }
}

/// Hands an export's progress to the job; keeps its warnings.
final class JobReporter: ExportReporter, Sendable {
    private let onProgress: @Sendable (ExportProgress) -> Void

    init(onProgress: @escaping @Sendable (ExportProgress) -> Void) {
        self.onProgress = onProgress
    }

    func info(_ line: String) {}
    func warning(_ line: String) {}
    func progress(_ progress: ExportProgress) { onProgress(progress) }
}
