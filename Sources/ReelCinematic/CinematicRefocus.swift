import Foundation
import ReelCore
import ReelMedia
import ReelVision

/// What `reel refocus` changes in an editable recording.
public struct RefocusSettings: Sendable {
    /// The editable recording (its sidecar beside it).
    public var input: String
    /// The MP4 to write (must not exist).
    public var output: String
    /// From when the new focus applies, seconds into the video (before it, the recorded focus).
    public var at: Double
    /// The new focus: a tap, a long press or a subject (``CinematicControl``'s `tap`, `press`,
    /// `subject`; nil keeps the recorded focus and only changes the aperture).
    public var control: CinematicControl?
    /// A new aperture for the whole video (nil: as recorded).
    public var aperture: Aperture?

    /// Settings.
    public init(input: String, output: String, at: Double = 0, control: CinematicControl?, aperture: Aperture? = nil) {
        self.input = input
        self.output = output
        self.at = at
        self.control = control
        self.aperture = aperture
    }
}

/// `reel refocus`: an editable recording rendered again with new focus keyframes. The recorded
/// layers and subjects are used as they are; before the keyframe the rack follows the recorded
/// wishes, from it on a new focus controller (given the keyframe's command) decides, and the
/// rack moves from where it was — so refocusing to what a recording chose from the start gives
/// what that recording gave. The output appears only when complete (video into a hidden file,
/// the recording's sound copied in, then renamed).
public final class CinematicRefocus {
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

    /// A refocus; `progress` hears (pictures done, pictures in all) now and then.
    public init(settings: RefocusSettings, progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) {
        self.settings = settings
        self.progress = progress
    }

    /// Renders; throws a ``RefocusError`` (or a media error) that says what is wrong.
    public func run() throws -> Report {
        let sidecar = try CinematicSidecarFile(video: settings.input)
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
        let fps = max(1, Int(reader.info.framesPerSecond.rounded()))
        let writer = try MP4ArchiveWriter(path: videoOnly, video: VideoEncoderSettings(
            codec: .h264, width: sidecar.header.width, height: sidecar.header.height, framesPerSecond: fps,
            bitRate: sidecar.header.width * sidecar.header.height * fps / 5, keyFrameInterval: 2 * fps, constantRateFactor: 20), audio: nil)
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

    /// The keyframe's command must make sense where it applies: a subject must be there then.
    private func check(_ sidecar: CinematicSidecarFile) throws {
        guard !sidecar.records.isEmpty else { throw RefocusError("\(settings.input)'s sidecar holds no pictures") }
        guard case let .subject(id, _)? = settings.control else { return }
        let ticks = MediaTime(seconds: settings.at, timescale: 90_000).value
        guard let record = sidecar.records.first(where: { $0.record.ticks >= ticks }) else {
            throw RefocusError(String(format: "--at %.2f s is after the video's end", settings.at))
        }
        let ids = record.record.subjects.map(\.id)
        guard ids.contains(id) else {
            throw RefocusError(String(format: "no subject %d at %.2f s", id, record.record.time.seconds)
                               + (ids.isEmpty ? " (no subject is in the picture then)" : " (subjects then: \(ids.map(String.init).joined(separator: ", ")))"))
        }
    }

    /// Every picture: the recorded wish before the keyframe, the new controller's from it on;
    /// the rack; the blur from the recorded layers; encoded.
    private func render(_ reader: VideoFileReader, sidecar: CinematicSidecarFile, into writer: MP4ArchiveWriter) throws -> Report {
        let renderer = try BokehRenderer()
        let converter = PictureConverter(width: sidecar.header.width, height: sidecar.header.height)
        let keyframe = MediaTime(seconds: settings.at, timescale: 90_000)
        var focus: FocusController?, rack = RackFocus(), report = Report()
        let total = sidecar.records.count
        try reader.forEachFrame { decoded in
            guard report.pictures < total else { return false }
            let (record, layers) = sidecar.records[report.pictures]
            let time = record.time, subjects = record.subjects.map(\.subject)
            var wanted = record.wanted
            if let control = settings.control, time >= keyframe {
                if focus == nil { focus = Self.controller(after: control, subjects: subjects, at: time) }
                wanted = focus?.update(subjects, at: time).dioptres
            }
            let focal = rack.advance(to: wanted, at: time)
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
