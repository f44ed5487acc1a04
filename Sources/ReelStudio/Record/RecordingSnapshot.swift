import Foundation
import ReelCore
import ReelRecord
import ReelRuntime

/// What the record page shows of the recording: `GET /api/recording` and the `recording`
/// event. Built from the recorder's own reports (``RecordReporter``), the same ones `reel
/// record` prints as its status line.
public struct RecordingSnapshot: Codable, Sendable, Equatable {
    public var state = StudioRecordingState.idle
    /// Grows by one with every change, across recordings: the answer to a start or a stop and
    /// the event stream can reach a page in either order, and the newer one wins.
    public var revision = 0
    public var id: String?
    public var mode: String?
    /// Timelapse: study seconds between frames.
    public var intervalSeconds: Double?
    public var title: String?
    public var tags: [String] = []
    /// The source as given (`test`, `v4l2:/dev/video0` …) and as the recorder names it.
    public var source: String?
    public var sourceName: String?
    /// The recorded picture's size.
    public var width: Int?, height: Int?
    /// Active (study) time against wall time, in seconds.
    public var activeSeconds: Double = 0
    public var wallSeconds: Double = 0
    public var framesWritten: Int = 0
    public var fileBytes: Int64 = 0
    /// Free bytes where the recording in progress is kept, and how long that lasts at this
    /// mode's rate (the disk estimate of ``DiskBudget``).
    public var freeBytes: Int64?
    public var bytesPerHour: Int64?
    public var hoursLeft: Double?
    /// The load level (`normal` …) and why when not normal; the recorder's CPU share of a core.
    public var load: String = "normal"
    public var loadReason: String?
    public var cpuShare: Double?
    /// The tracker's newest face box in the recorded picture (normalized, origin top-left).
    public var face: Face?
    /// The newest message (a warning, an interruption's cause, why it stopped).
    public var message: String?
    /// When finished: the MP4 and whether it went into the library; why it stopped early or
    /// failed (a finished recording stopped by a full disk has both).
    public var outputPath: String?
    public var sessionRegistered: Bool?
    public var error: String?

    public struct Face: Codable, Sendable, Equatable {
        public var x: Double, y: Double, width: Double, height: Double
        /// `face`, `upperBody`, `widenedFace` or `defaultRegion`.
        public var kind: String
    }

    public init() {}

    /// Whether a recording is under way (not idle, finished or failed).
    public var isActive: Bool { state.isActive }

    /// A recording starting with `settings`.
    init(starting settings: RecordSettings, sourceText: String) {
        state = .starting
        id = settings.id.uuidString.lowercased()
        mode = settings.mode.rawValue
        intervalSeconds = settings.mode == .timelapse ? settings.interval.seconds : nil
        title = settings.title
        tags = settings.tags
        source = sourceText
        width = settings.dimensions.width
        height = settings.dimensions.height
        bytesPerHour = settings.videoBytesPerHour
    }

    /// The status line's numbers.
    mutating func update(_ status: RecordStatus) {
        state = StudioRecordingState(status.state)
        activeSeconds = status.activeSeconds
        wallSeconds = status.wallSeconds
        framesWritten = status.framesWritten
        fileBytes = status.fileBytes
        freeBytes = status.freeBytes
        if let free = status.freeBytes, let rate = bytesPerHour, rate > 0 {
            hoursLeft = Double(free) / Double(rate)
        } else {
            hoursLeft = nil
        }
        load = "\(status.load)"
        loadReason = status.loadReason
        cpuShare = status.cpuShare
        sourceName = status.sourceName ?? sourceName
        if let sample = status.face {
            let kind = switch sample.kind {
            case .face: "face"
            case .upperBody: "upperBody"
            case .widenedFace: "widenedFace"
            case .defaultRegion: "defaultRegion"
            }
            face = Face(x: sample.box.x, y: sample.box.y, width: sample.box.width, height: sample.box.height, kind: kind)
        }
    }

    /// The final report.
    mutating func finish(_ report: RecordReport) {
        activeSeconds = report.activeSeconds
        if report.wallSeconds > 0 { wallSeconds = report.wallSeconds }
        framesWritten = report.framesWritten
        if report.fileBytes > 0 { fileBytes = report.fileBytes }
        outputPath = report.outputPath
        sessionRegistered = report.sessionRegistered
        let problem = report.startError.map(Self.pageWords) ?? report.diskStop ?? report.writerError ?? report.finishError ?? report.sourceError
        error = problem
        if let kept = report.keptForRecovery { message = "the recording is kept in \(kept); 'reel recover' finishes it" }
        state = report.outputPath != nil ? .finished : .failed
    }

    /// A refusal to start in the page's words: the record form's fields where `reel record`'s
    /// refusal names its options (the disk check's "--min-hours" and "--output").
    static func pageWords(_ text: String) -> String {
        text.replacingOccurrences(of: "(--min-hours)", with: "(the Disk floor)")
            .replacingOccurrences(of: "choose another --output", with: "choose another Output folder")
            .replacingOccurrences(of: "with --min-hours 0", with: "with a Disk floor of 0")
    }

    /// One line of JSON.
    var json: String { StudioJSON.line(self) }
}

/// JSON for the API and the events: keys sorted, slashes plain, one line.
enum StudioJSON {
    static func line(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }
}

/// The recorder's reports, kept as a ``RecordingSnapshot`` and published on every change.
final class StudioRecordReporter: RecordReporter {
    private struct Kept {
        var snapshot: RecordingSnapshot
        var published = false
    }
    private let kept: Locked<Kept>
    private let publish: @Sendable (RecordingSnapshot) -> Void

    /// Keeps `starting` and its changes; nothing is published before ``begin()`` (a start that
    /// loses to another says nothing).
    init(starting: RecordingSnapshot, publish: @escaping @Sendable (RecordingSnapshot) -> Void) {
        kept = Locked(Kept(snapshot: starting))
        self.publish = publish
    }

    var current: RecordingSnapshot { kept.withLock { $0.snapshot } }

    /// Publishes the snapshot now and every change from here on.
    func begin() {
        kept.withLock { kept in
            kept.published = true
            publish(kept.snapshot)
        }
    }

    // Published under the lock: the events go out in the order of their revisions.
    private func change(_ body: (inout RecordingSnapshot) -> Void) {
        kept.withLock { kept in
            body(&kept.snapshot)
            kept.snapshot.revision += 1
            if kept.published { publish(kept.snapshot) }
        }
    }

    func info(_ line: String) {}

    func warning(_ line: String) { change { $0.message = line } }

    func stateChanged(_ change: RecordStateChange) {
        self.change { snapshot in
            snapshot.state = StudioRecordingState(change.to)
            snapshot.activeSeconds = change.activeSeconds
            if let detail = change.detail { snapshot.message = "\(change.to.rawValue): \(detail)" }
        }
    }

    func status(_ status: RecordStatus) { change { $0.update(status) } }

    func finished(_ report: RecordReport) { change { $0.finish(report) } }
}
