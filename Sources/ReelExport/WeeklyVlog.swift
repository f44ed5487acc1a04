import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy

/// `reel vlog`: a week of study as one video. Per day with sessions: a title card
/// (the date, the day's study time, the session titles), then that day's session videos with
/// privacy applied (each session's stored face track and review edits, the export's mosaic),
/// each scaled and padded — never cropped — into the layout, on one continuous 30 fps
/// timeline, H.264; background music looped or trimmed to the length with a 1 s fade in and a
/// 2 s fade out (AAC), or no sound without music.
///
/// A session whose video is missing or a still image, or that has no face positions, is
/// skipped with a warning (a vlog is shared: a session whose faces cannot be hidden from its
/// recorded track is not put in; `reel export --all-faces` exports such a session on its
/// own). The output appears only when complete, as `reel export`'s does.
public final class WeeklyVlog {
    /// The picture's shape.
    public enum Layout: String, Sendable, CaseIterable {
        /// 1080x1920 (phones).
        case vertical
        /// 1920x1080.
        case horizontal

        /// The canvas size.
        public var size: (width: Int, height: Int) { self == .vertical ? (1080, 1920) : (1920, 1080) }
    }

    /// What to make.
    public struct Settings: Sendable {
        /// The week, its days and sessions.
        public var week: VlogWeek
        /// The layout.
        public var layout: Layout
        /// Background music (any audio or video file with sound), or nil for none.
        public var musicPath: String?
        /// The MP4 to write.
        public var outputPath: String
        /// Replace an existing output.
        public var overwrite = false
        /// Seconds each day's title card is shown.
        public var cardSeconds = 2
        /// Output frame rate.
        public var framesPerSecond = 30
        /// x264 preset and constant quality.
        public var preset = EncoderPreset.veryfast
        public var quality = 23

        /// Settings with the defaults.
        public init(week: VlogWeek, layout: Layout, musicPath: String?, outputPath: String) {
            self.week = week
            self.layout = layout
            self.musicPath = musicPath
            self.outputPath = outputPath
        }
    }

    /// A vlog that cannot be made, with what to do.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What happened and what to do.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// What was made.
    public struct Report: Sendable {
        /// The output, its size, frames and length.
        public var outputPath: String
        public var width = 0, height = 0, frames = 0
        public var videoSeconds = 0.0, wallSeconds = 0.0
        /// Title cards and sessions put in.
        public var cards = 0, sessions = 0
        /// Whether background music was mixed in.
        public var music = false
        /// Sessions skipped and other problems.
        public var warnings: [String] = []
        /// A session's video could not be read to its end (damaged, cut short): only the part
        /// read is in the vlog (a warning says how much).
        public var partial = false
    }

    /// The settings.
    public let settings: Settings
    private let reporter: any ExportReporter
    private let stop: ExportStopRequest

    /// A vlog maker reporting to `reporter`; `stop` is looked at before each picture (Ctrl-C).
    public init(settings: Settings, reporter: any ExportReporter, stop: ExportStopRequest = ExportStopRequest()) {
        self.settings = settings
        self.reporter = reporter
        self.stop = stop
    }

    /// The music's gain at `seconds` into a vlog of `total` seconds: 0 → 1 over the first
    /// second, 1 → 0 over the last two.
    public static func musicGain(at seconds: Double, total: Double) -> Double {
        max(0, min(1, seconds / 1.0, (total - seconds) / 2.0))
    }

    /// The output, checked: never a session's video, face positions or edits, nor the music.
    private func openOutput() throws -> ExportOutput {
        var inputs: [ExportOutput.Input] = []
        for day in settings.week.days {
            for session in day.sessions {
                let name = "session \(session.id.uuidString.lowercased().prefix(8))"
                inputs.append(.init(role: "the video of \(name)", path: session.filePath))
                if let track = session.faceTrackPath { inputs.append(.init(role: "the face positions of \(name)", path: track)) }
                inputs.append(.init(role: "the review edits of \(name)", path: SessionMedia(session).editsPath))
            }
        }
        if let music = settings.musicPath { inputs.append(.init(role: "the background music (--bgm)", path: music)) }
        return try ExportRun.checkedOutput(path: settings.outputPath, overwrite: settings.overwrite, inputs: inputs,
                                           refuse: { Error($0) })
    }

    /// The vlog as ``ExportRun`` names it.
    private var job: ExportRun.Job {
        ExportRun.Job(noun: "vlog", doing: "making the vlog", hiddenRole: "vlog", threadName: "reel.vlog.encode",
                      error: { Error($0) })
    }

    /// Makes the vlog; throws ``Error`` (nothing written) when it cannot, and
    /// ``ExportStopRequest/Stopped`` when stopped from outside (nothing written either). Runs
    /// on ``ExportRun``: prepare (plan, music) → start → supervise (cards and clips) → finish.
    public func run() throws -> Report {
        try stop.check()
        let output = try openOutput()
        let run = ExportRun(job: job, output: output, stop: stop, reporter: reporter)
        defer { run.end() }
        var report = Report(outputPath: output.path)
        let week = settings.week
        guard !week.days.isEmpty else {
            throw Error("no study sessions were recorded from \(week.monday) to \(week.sunday); nothing to put in a vlog (reel sessions lists them)")
        }
        let plan = try plan { run.warn($0, into: &report) }
        try run.checkStop()
        let music = try VlogSoundtrack(path: settings.musicPath, totalSeconds: plan.seconds)
        try run.checkStop()
        (report.width, report.height) = settings.layout.size
        try run.start(video: encoderSettings, audio: music.encoderSettings)
        let painter = try VlogPainter(width: report.width, height: report.height)
        let planned = Int((plan.seconds * Double(settings.framesPerSecond)).rounded())
        let timeline = VlogTimeline(run: run, music: music, framesPerSecond: settings.framesPerSecond) { [self] frames in
            progress(frames: frames, total: planned, since: run.started)
        }
        try run.supervise { try write(plan, painter: painter, timeline: timeline, into: &report) }
        let frames = run.pictures
        _ = try run.finish { video, finishing in
            try MP4Remuxer.faststart(from: video, to: finishing, videoEnd: timeline.time(frames))
        }
        report.frames = frames
        report.videoSeconds = Double(frames) / Double(settings.framesPerSecond)
        report.music = !music.isEmpty
        run.complete(&report, last: progress(frames: frames, total: frames, since: run.started))
        return report
    }

    /// H.264 at the layout's size and the vlog's rate.
    private var encoderSettings: VideoEncoderSettings {
        let (width, height) = settings.layout.size, fps = settings.framesPerSecond
        return VideoEncoderSettings(codec: .h264, width: width, height: height, framesPerSecond: fps, bitRate: 0,
                                    preset: settings.preset, keyFrameInterval: 2 * fps, zeroLatency: false,
                                    constantRateFactor: settings.quality)
    }

    /// Supervise: each day's card, then its clips, then the music to the last picture.
    private func write(_ plan: Plan, painter: VlogPainter, timeline: VlogTimeline, into report: inout Report) throws {
        for (day, clips) in plan.days {
            let card = try painter.cards.picture(for: day, shown: clips.map(\.session), fitter: painter.fitter)
            for _ in 0..<(settings.cardSeconds * settings.framesPerSecond) { try timeline.emit(card) }
            report.cards += 1
            for clip in clips {
                if let shortfall = try write(clip, painter: painter, timeline: timeline) {
                    report.partial = true
                    timeline.run.warn(shortfall, into: &report)
                }
                report.sessions += 1
            }
        }
        try timeline.finishMusic()
    }

    /// One session's pictures with their faces covered, fitted into the layout, each shown
    /// until the next one's time (the last for its own duration); returns the warning for a
    /// video read only in part.
    private func write(_ clip: Clip, painter: VlogPainter, timeline: VlogTimeline) throws -> String? {
        let info = clip.reader.info
        let converter = PictureConverter(width: info.width & ~1, height: info.height & ~1)
        let faces = FaceTrackTimeline(clip.track)
        let start = timeline.run.pictures, fps = Double(settings.framesPerSecond)
        var pending: VideoFrame?
        var last = MediaTime.zero
        func flush(until seconds: Double) throws {
            guard let pending else { return }
            while Double(timeline.run.pictures - start) / fps < seconds - 1e-6 { try timeline.emit(pending) }
        }
        let readFailure = try timeline.run.read(clip.reader, keepsWhatWasRead: { pending != nil }) { frame in
            let picture = try converter.convert(frame)
            let covers = try painter.covers.covers(for: clip.edits.regions(for: faces.boxes(at: frame.captureTime)))
            try picture.withYUVPicture { try painter.compositor.composite($0, covers: covers, caption: nil) }
            try flush(until: frame.captureTime.seconds)
            pending = try painter.fitter.fit(picture, at: frame.captureTime)
            last = frame.captureTime
        }
        // The last picture lasts its own duration, not until the next session.
        let end = clip.reader.lastPictureEnd ?? last
        try flush(until: end.seconds)
        guard pending != nil, let shortfall = PrivacyExporter.shortfall(of: clip.session.filePath, info: info, readTo: end,
                                                                        exported: end, readFailure: readFailure) else { return nil }
        return shortfall.replacingOccurrences(of: "; exported", with: "; the vlog has its first")
    }

    private func progress(frames: Int, total: Int, since start: Date) -> ExportProgress {
        let fps = Double(settings.framesPerSecond)
        let speed = Double(frames) / max(Date().timeIntervalSince(start), 1e-3)
        return ExportProgress(frames: frames, totalFrames: total, seconds: Double(frames) / fps, totalSeconds: Double(total) / fps,
                              framesPerSecond: speed, secondsLeft: speed > 0 ? Double(max(0, total - frames)) / speed : nil)
    }
}

extension WeeklyVlog.Report: ExportRunReport {}
