import Foundation
import ReelCinematic
import ReelCore
import ReelRuntime

/// The cinematic page's clips and stills (the files in ``StudioSettings/cinematicFolder`` and
/// ``StudioSettings/cinematicStillsFolder``), an editable clip's timeline for the refocus
/// editor (its recorded subjects and focus, from the sidecar), and the refocus job: `reel
/// refocus` (``ReelCinematic/CinematicRefocus``) with the editor's keyframes, one at a time on
/// its own thread, its progress published as `cinematic-refocus` events.
final class StudioCinematicClips: Sendable {
    /// Keyframes a refocus takes at most.
    static let maxKeyframes = 100

    private struct Job {
        var answer = RefocusJobAnswer()
        var refocus: CinematicRefocus?
        var thread: WorkerThread?
    }

    private let settings: StudioSettings
    private let events: StudioEvents
    private let job = Locked(Job())

    init(settings: StudioSettings, events: StudioEvents) {
        self.settings = settings
        self.events = events
    }

    // MARK: Files

    /// The clips and stills, newest first; the clip being recorded (`recording`) is not listed
    /// until it is finished, so it cannot be opened half written.
    func list(excluding recording: String? = nil) -> ClipsList {
        let clips = files(in: settings.cinematicFolder, kind: .clip).filter { $0.name != recording }.map { file in
            ClipsList.File(name: file.name, bytes: file.bytes, modified: file.modified,
                           editable: FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: settings.cinematicFolder + "/" + file.name)))
        }
        let stills = files(in: settings.cinematicStillsFolder, kind: .still).map {
            ClipsList.File(name: $0.name, bytes: $0.bytes, modified: $0.modified, editable: nil)
        }
        return ClipsList(clips: clips, stills: stills, folder: settings.cinematicFolder, stillsFolder: settings.cinematicStillsFolder)
    }

    private func files(in folder: String, kind: CinematicFileName.Kind) -> [(name: String, bytes: Int64, modified: Date)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        return names.filter { CinematicFileName.isValid($0, kind: kind) }.compactMap { name in
            guard let attributes = try? FileManager.default.attributesOfItem(atPath: folder + "/" + name),
                  attributes[.type] as? FileAttributeType == .typeRegular else { return nil }
            return (name, (attributes[.size] as? NSNumber)?.int64Value ?? 0, attributes[.modificationDate] as? Date ?? .distantPast)
        }.sorted { $0.modified > $1.modified }
    }

    /// The path of the clip `name` (a route has checked the name's form); 404 when it is not there.
    func clipPath(_ name: String) throws(StudioRefusal) -> String {
        try existing(settings.cinematicFolder + "/" + name, what: "clip \(name)")
    }

    /// The path of the still `name`; 404 when it is not there.
    func stillPath(_ name: String) throws(StudioRefusal) -> String {
        try existing(settings.cinematicStillsFolder + "/" + name, what: "still \(name)")
    }

    private func existing(_ path: String, what: String) throws(StudioRefusal) -> String {
        guard FileManager.default.fileExists(atPath: path) else { throw StudioRefusal(status: 404, message: "no \(what)") }
        return path
    }

    // MARK: Timeline

    /// What the editor draws over the clip: every 0.1 s the recorded subjects (their ids are
    /// what a keyframe names) and the recorded focus. 422 for a clip without a sidecar.
    func timeline(_ name: String) throws(StudioRefusal) -> TimelineAnswer {
        let path = try clipPath(name)
        let sidecar: CinematicSidecarFile
        do { sidecar = try CinematicSidecarFile(video: path) } catch {
            throw StudioRefusal(status: 422, message: "\(name) cannot be refocused: \(error)")
        }
        var points: [TimelineAnswer.Point] = []
        for (record, _) in sidecar.records {
            let t = record.time.seconds
            if let last = points.last, t < last.t + 0.1 { continue }
            let subjects = record.subjects.map { subject in
                TimelineAnswer.Subject(id: subject.id, kind: subject.kind.label, box: [subject.x, subject.y, subject.width, subject.height])
            }
            points.append(.init(t: t, subjects: subjects, mode: record.mode.rawValue, target: record.target, focal: record.focal))
        }
        let header = sidecar.header
        return TimelineAnswer(name: name, width: header.width, height: header.height,
                              duration: sidecar.records.last.map { $0.record.time.seconds } ?? 0,
                              fNumber: sidecar.records.first?.record.fNumber ?? Aperture.standard.fNumber, points: points)
    }

    // MARK: Refocus

    /// The job, as the page shows it.
    var refocusJob: RefocusJobAnswer { job.withLock { $0.answer } }

    /// Starts rendering `request.clip` again with the keyframes into a new clip beside it
    /// (`NAME-refocused.mp4`). Everything is checked first (400: a bad command or aperture, too
    /// many keyframes; 404: no such clip; 422: not editable; 409: a refocus runs).
    func refocus(_ request: RefocusRequest) throws(StudioRefusal) -> RefocusJobAnswer {
        let input = try clipPath(request.clip)
        guard FileManager.default.fileExists(atPath: CinematicSidecarWriter.path(forVideo: input)) else {
            throw StudioRefusal(status: 422, message: "\(request.clip) was not recorded editable (no sidecar): it cannot be refocused")
        }
        let keyframes = try Self.keyframes(request.keyframes)
        var aperture: Aperture?
        if let number = request.aperture {
            do { aperture = try Aperture(fNumber: number) } catch { throw StudioRefusal(status: 400, message: error.description) }
        }
        let folder = settings.cinematicFolder
        let output = CinematicFileName.refocused(request.clip) { FileManager.default.fileExists(atPath: folder + "/" + $0) }
        let refocus = CinematicRefocus(settings: RefocusSettings(input: input, output: folder + "/" + output, keyframes: keyframes, aperture: aperture)) {
            [weak self] done, total in self?.progress(done, total)
        }
        let answer = try job.withLock { job throws(StudioRefusal) -> RefocusJobAnswer in
            guard job.answer.state != .running else { throw StudioRefusal(status: 409, message: "a refocus of \(job.answer.clip ?? "a clip") is running: wait for it or stop it") }
            job.answer = RefocusJobAnswer(state: .running, clip: request.clip, output: output, keyframes: keyframes.count)
            job.refocus = refocus
            job.thread = WorkerThread.run(name: "reel.studio.refocus") { [weak self] in self?.run(refocus) }
            return job.answer
        }
        events.publish(.cinematicRefocus, data: StudioJSON.line(answer))
        return answer
    }

    /// The editor's keyframes as the refocus takes them: a command each (`subject 2 strong`,
    /// `tap X Y`, `press X Y`, `lock`, `auto`), at a time within the clip.
    static func keyframes(_ asked: [RefocusRequest.Keyframe]) throws(StudioRefusal) -> [RefocusKeyframe] {
        guard asked.count <= maxKeyframes else { throw StudioRefusal(status: 400, message: "at most \(maxKeyframes) keyframes") }
        var keyframes: [RefocusKeyframe] = []
        for keyframe in asked {
            guard keyframe.at.isFinite, keyframe.at >= 0 else { throw StudioRefusal(status: 400, message: "a keyframe's time is seconds from 0") }
            let control: CinematicControl
            do { control = try CinematicControl(parsing: keyframe.command) } catch { throw StudioRefusal(status: 400, message: error.description) }
            if case .aperture = control { throw StudioRefusal(status: 400, message: "the aperture is the whole clip's: give it as \"aperture\", not as a keyframe") }
            keyframes.append(RefocusKeyframe(at: keyframe.at, control: control))
        }
        return keyframes
    }

    private func run(_ refocus: CinematicRefocus) {
        var answer: RefocusJobAnswer
        do {
            let report = try refocus.run()
            answer = job.withLock { job in
                job.answer.state = .finished
                job.answer.done = report.pictures
                job.answer.message = "\(job.answer.output ?? "the clip") is ready (\(Counted.noun(report.pictures, "picture")))"
                return job.answer
            }
        } catch {
            answer = job.withLock { job in
                job.answer.state = .failed
                job.answer.message = ErrorSentence.reason(error)
                return job.answer
            }
        }
        job.withLock { $0.refocus = nil }
        events.publish(.cinematicRefocus, data: StudioJSON.line(answer))
        events.publish(.cinematicClips, data: "{}")
    }

    private func progress(_ done: Int, _ total: Int) {
        let answer = job.withLock { job in
            job.answer.done = done
            job.answer.total = total
            return job.answer
        }
        events.publish(.cinematicRefocus, data: StudioJSON.line(answer))
    }

    /// Stops a running refocus (no file is left); 409 when none runs.
    func stopRefocus() throws(StudioRefusal) -> RefocusJobAnswer {
        guard let refocus = job.withLock({ $0.refocus }) else { throw StudioRefusal(status: 409, message: "no refocus is running") }
        refocus.stop()
        return refocusJob
    }

    /// Stops a running refocus and waits for it (the studio is stopping).
    func shutdown() {
        let (refocus, thread) = job.withLock { ($0.refocus, $0.thread) }
        refocus?.stop()
        thread?.join()
    }
}

/// `GET /api/cinematic/clips` and the `cinematic-clips` event's reload.
struct ClipsList: Encodable {
    struct File: Encodable {
        var name: String
        var bytes: Int64
        var modified: Date
        /// Clips: whether it has a sidecar (the refocus editor can open it).
        var editable: Bool?
    }

    var clips: [File]
    var stills: [File]
    var folder: String
    var stillsFolder: String
}

/// `GET /api/cinematic/clips/NAME/timeline`.
struct TimelineAnswer: Encodable {
    struct Subject: Encodable {
        var id: Int
        var kind: String
        var box: [Double]
    }

    struct Point: Encodable {
        var t: Double
        var subjects: [Subject]
        var mode: String
        var target: String?
        var focal: Double?
    }

    var name: String
    var width: Int
    var height: Int
    var duration: Double
    var fNumber: Double
    var points: [Point]
}

/// The body of `POST /api/cinematic/refocus`.
struct RefocusRequest: Decodable {
    struct Keyframe: Decodable {
        var at: Double
        var command: String
    }

    var clip: String
    var keyframes: [Keyframe]
    /// A new f-number for the whole clip (nil: as recorded).
    var aperture: Double?
}

/// The refocus job: idle, running, finished or failed.
struct RefocusJobAnswer: Encodable, Sendable {
    var state = StudioJobState.idle
    var clip: String?
    var output: String?
    var keyframes = 0
    var done = 0
    var total = 0
    var message: String?
}
