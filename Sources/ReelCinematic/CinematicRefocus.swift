import Foundation
import ReelCore
import ReelMedia
import ReelRuntime
import ReelVision

/// A new focus from a time on: a tap, a long press, a subject or the lock
/// (``CinematicControl``'s `tap`, `press`, `subject`, `lock`, `auto`).
public struct RefocusKeyframe: Sendable, Equatable {
    /// Seconds into the video.
    public var at: Double
    public var control: CinematicControl

    public init(at: Double, control: CinematicControl) {
        self.at = at
        self.control = control
    }
}

/// What `reel refocus` changes in an editable recording.
public struct RefocusSettings: Sendable {
    /// The editable recording (its sidecar beside it).
    public var input: String
    /// The MP4 to write (must not exist).
    public var output: String
    /// The new focus keyframes, in any order (before the first, the recorded focus; empty keeps
    /// the recorded focus and only changes the aperture).
    public var keyframes: [RefocusKeyframe]
    /// A new aperture for the whole video (nil: as recorded).
    public var aperture: Aperture?

    /// Settings with several keyframes (the studio's refocus editor).
    public init(input: String, output: String, keyframes: [RefocusKeyframe], aperture: Aperture? = nil) {
        self.input = input
        self.output = output
        self.keyframes = keyframes.sorted { $0.at < $1.at }
        self.aperture = aperture
    }

    /// Settings with one keyframe, `control` from `at` on (`reel refocus --at T …`).
    public init(input: String, output: String, at: Double = 0, control: CinematicControl?, aperture: Aperture? = nil) {
        self.init(input: input, output: output, keyframes: control.map { [RefocusKeyframe(at: at, control: $0)] } ?? [], aperture: aperture)
    }
}

/// `reel refocus`: an editable recording rendered again with new focus keyframes. The recorded
/// layers and subjects are used as they are; before the first keyframe the rack follows the
/// recorded wishes, from each keyframe on a new focus controller (given its command) decides, and the
/// rack moves from where it was — so refocusing to what a recording chose from the start gives
/// what that recording gave. The output appears only when complete (video into a hidden file,
/// the recording's sound copied in, then renamed).
public final class CinematicRefocus: @unchecked Sendable {
    /// How it went.
    public struct Report: Sendable {
        /// Pictures rendered.
        public var pictures = 0
        /// The focal depth of each picture (dioptres; nil: nothing focused), for the tests and a summary.
        public var focal: [Double?] = []
    }

    /// The settings.
    public let settings: RefocusSettings
    private let progress: @Sendable (Int, Int) -> Void
    private let warn: @Sendable (String) -> Void
    private let stopped = Locked(false)

    /// A refocus; `progress` hears (pictures done, pictures in all) now and then, `warn` what is
    /// done but doubtful (a sidecar that names no video).
    public init(settings: RefocusSettings, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in },
                warn: @escaping @Sendable (String) -> Void = { _ in }) {
        self.settings = settings
        self.progress = progress
        self.warn = warn
    }

    /// Asks a running ``run()`` to stop (any thread): it throws ``RefocusError/stopped`` and
    /// leaves no output.
    public func stop() { stopped.withLock { $0 = true } }

    /// Renders; throws a ``RefocusError`` (or a media error) that says what is wrong.
    public func run() throws -> Report {
        guard FileManager.default.fileExists(atPath: settings.input) else { throw RefocusError("\(settings.input) does not exist") }
        let sidecar = try CinematicSidecarFile(video: settings.input)
        try checkBelongs(sidecar)
        try check(sidecar)
        let reader = try VideoFileReader(path: settings.input)
        guard reader.info.width == sidecar.header.width, reader.info.height == sidecar.header.height else {
            throw RefocusError("\(settings.input) is \(reader.info.width)x\(reader.info.height), its sidecar says \(sidecar.header.width)x\(sidecar.header.height): they do not belong together")
        }
        let folder = (settings.output as NSString).deletingLastPathComponent
        let name = (settings.output as NSString).lastPathComponent
        let videoOnly = (folder.isEmpty ? "." : folder) + "/.\(name).video.part"
        let finishing = (folder.isEmpty ? "." : folder) + "/.\(name).part"
        defer {
            try? FileManager.default.removeItem(atPath: videoOnly)
            try? FileManager.default.removeItem(atPath: finishing)
        }
        let writer = try MP4ArchiveWriter(path: videoOnly, video: CinematicEncoding.video(
            width: sidecar.header.width, height: sidecar.header.height, framesPerSecond: reader.info.framesPerSecond), audio: nil)
        let report: Report
        do {
            report = try render(reader, sidecar: sidecar, into: writer)
            try writer.finish()
        } catch {
            writer.abandon()
            throw error
        }
        try MP4Remuxer.merge(video: videoOnly, audioFrom: reader.info.hasAudio ? settings.input : nil, to: finishing,
                             videoEnd: reader.lastPictureEnd)
        guard rename(finishing, settings.output) == 0 else {
            throw RefocusError("cannot move the result to \(settings.output): \(String(cString: strerror(errno)))")
        }
        return report
    }

    /// The sidecar must be the video's: the one it names (its size and the sample of its ends),
    /// with a record for each of its pictures. A sidecar that names no video is checked by its
    /// picture count only, while rendering (``render(_:sidecar:into:)``), and said so.
    private func checkBelongs(_ sidecar: CinematicSidecarFile) throws {
        guard let identity = sidecar.identity else {
            warn("\(sidecar.path) names no video (written by an older Reel, or cut short): only its picture count is checked")
            return
        }
        let video = try VideoSample(path: settings.input)
        guard video.bytes == identity.bytes, video.sample == identity.sample else {
            let seconds = MediaTime(value: identity.ticks, timescale: 90_000).seconds
            throw RefocusError("\(sidecar.path) belongs to another video (one of \(identity.pictures) pictures, \(String(format: "%.1f", seconds)) s, "
                               + "\(identity.bytes) bytes; \(settings.input) is \(video.bytes) bytes and its content differs): refocus the video it was recorded with")
        }
        guard sidecar.records.count == identity.pictures else {
            throw RefocusError("\(sidecar.path) is cut short: it holds the layers of \(sidecar.records.count) of the \(identity.pictures) pictures of \(settings.input)")
        }
    }

    /// Each keyframe must make sense where it applies: within the video, a subject there then.
    private func check(_ sidecar: CinematicSidecarFile) throws {
        guard !sidecar.records.isEmpty else { throw RefocusError("\(settings.input)'s sidecar holds no pictures") }
        for keyframe in settings.keyframes {
            guard keyframe.at >= 0 else { throw RefocusError(String(format: "a keyframe at %.2f s is before the video's start", keyframe.at)) }
            let ticks = MediaTime(seconds: keyframe.at, timescale: 90_000).value
            guard let record = sidecar.records.first(where: { $0.record.ticks >= ticks }) else {
                throw RefocusError(String(format: "a keyframe at %.2f s is after the video's end (%.2f s)", keyframe.at,
                                          sidecar.records.last!.record.time.seconds))
            }
            guard case let .subject(id, _) = keyframe.control else { continue }
            let ids = record.record.subjects.map(\.id)
            guard ids.contains(id) else {
                throw RefocusError(String(format: "no subject %d at %.2f s", id, record.record.time.seconds)
                                   + (ids.isEmpty ? " (no subject is in the picture then)" : " (subjects then: \(ids.map(String.init).joined(separator: ", ")))"))
            }
        }
    }

    /// Every picture: the recorded wish before the keyframe, the new controller's from it on;
    /// the rack; the blur from the recorded layers; encoded.
    private func render(_ reader: VideoFileReader, sidecar: CinematicSidecarFile, into writer: MP4ArchiveWriter) throws -> Report {
        let renderer = try BokehRenderer()
        let converter = PictureConverter(width: sidecar.header.width, height: sidecar.header.height)
        var keyframes = settings.keyframes.map { (time: MediaTime(seconds: $0.at, timescale: 90_000), control: $0.control) }[...]
        var focus: FocusController?, rack = RackFocus(), report = Report(), beyond = 0
        let total = sidecar.records.count
        try reader.forEachFrame { decoded in
            guard report.pictures < total else {
                beyond += 1
                return true
            }
            if stopped.withLock({ $0 }) { throw RefocusError.stopped }
            let record = sidecar.records[report.pictures].record, layers = try sidecar.layers(at: report.pictures)
            let time = record.time, subjects = record.subjects.map(\.subject)
            var wanted = record.wanted, followed = CinematicSidecar.subject(in: record.target)
            while let next = keyframes.first, time >= next.time {
                focus = Self.controller(after: next.control, subjects: subjects, at: time)
                keyframes.removeFirst()
            }
            if let decision = focus?.update(subjects, at: time) { (wanted, followed) = (decision.dioptres, decision.followed) }
            let focal = rack.rendered(to: wanted, following: followed, at: time)
            let picture = try converter.convert(decoded)
            if let focal {
                let aperture = try settings.aperture ?? Aperture(fNumber: record.fNumber)
                try picture.withWritablePlanes { planes in
                    try renderer.render(DetectorPicture(planes, width: picture.width, height: picture.height), layers: layers, focus: focal, aperture: aperture,
                                        into: planes.map { .init(base: UnsafeMutableRawPointer($0.base), stride: $0.stride) })
                }
            }
            try writer.appendVideo(picture, pts: time)
            report.focal.append(focal)
            report.pictures += 1
            if report.pictures % 30 == 0 { progress(report.pictures, total) }
            return true
        }
        if beyond > 0 {
            throw RefocusError("\(sidecar.path) holds the layers of \(total) of the \(total + beyond) pictures of \(settings.input): "
                               + "it is cut short or belongs to another video")
        }
        if report.pictures < total {
            throw RefocusError("\(settings.input) has \(report.pictures) pictures, its sidecar the layers of \(total): they do not belong together")
        }
        progress(report.pictures, total)
        return report
    }

    /// A fresh controller that has seen the keyframe's subjects and then been given `control`.
    static func controller(after control: CinematicControl, subjects: [CinematicSubject], at time: MediaTime) -> FocusController {
        var focus = FocusController()
        _ = focus.update(subjects, at: time)
        switch control {
        case let .tap(x, y): focus.tap(x: x, y: y)
        case let .press(x, y): focus.press(x: x, y: y)
        case let .subject(id, strong): focus.focus(on: id, strong: strong)
        case .lock: focus.lockMainSubject()
        case .automatic, .aperture: break
        }
        return focus
    }
}
