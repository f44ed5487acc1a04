import Foundation
import ReelCompose
import ReelCore
import ReelMedia

/// `reel vlog`: a week of study as one video (issue 6). Per day with sessions: a title card
/// (the date, the day's study time, the session titles), then that day's session videos with
/// privacy applied (each session's stored face track and review edits, the export's mosaic),
/// each scaled and padded — never cropped — into the layout, on one continuous 30 fps
/// timeline, H.264; background music looped or trimmed to the length with a 1 s fade in and a
/// 2 s fade out (AAC), or no sound without music.
///
/// A session whose video is missing, or that has no face positions, is skipped with a warning
/// (a vlog is shared: a session whose faces cannot be hidden from its recorded track is not
/// put in; `reel export --all-faces` exports such a session on its own). The output appears
/// only when complete, as `reel export`'s does.
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

    private struct Clip {
        let session: StudySession
        let reader: VideoFileReader
        let track: FaceTrack
        let edits: PrivacyEdits
        var seconds: Double
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
        do {
            let output = try ExportOutput(path: settings.outputPath, overwrite: settings.overwrite, inputs: inputs)
            if output.staleRemoved > 0 {
                reporter.info("removed \(output.staleRemoved) hidden partial file\(output.staleRemoved == 1 ? "" : "s") an interrupted vlog to \(output.path) left behind")
            }
            return output
        } catch {
            throw Error("\(error)")
        }
    }

    /// Makes the vlog; throws ``Error`` (nothing written) when it cannot, and
    /// ``ExportStopRequest/Stopped`` when stopped from outside (nothing written either).
    public func run() throws -> Report {
        let started = Date()
        try stop.check()
        let target = try openOutput()
        let output = target.path
        var report = Report(outputPath: output)
        let week = settings.week
        guard !week.days.isEmpty else {
            throw Error("no study sessions were recorded from \(week.monday) to \(week.sunday); nothing to put in a vlog (reel sessions lists them)")
        }
        func warn(_ line: String) {
            report.warnings.append(line)
            reporter.warning(line)
        }

        // Plan: which sessions can go in, and how long everything is.
        let fps = settings.framesPerSecond
        var days: [(day: VlogWeek.Day, clips: [Clip])] = []
        for day in week.days {
            var clips: [Clip] = []
            for session in day.sessions {
                let name = "session \(session.id.uuidString.lowercased().prefix(8))" + (session.title.map { " (\($0))" } ?? "")
                guard FileManager.default.fileExists(atPath: session.filePath) else {
                    warn("\(name): its video \(session.filePath) is missing; skipped")
                    continue
                }
                let media = SessionMedia(session)
                do {
                    let stored = try media.faceTrack()
                    guard let track = stored, !track.samples.isEmpty else {
                        warn("\(name) has no face positions (\(media.missingFacesReason(stored))), so its faces cannot be hidden; "
                             + "skipped (reel export --all-faces exports it on its own)")
                        continue
                    }
                    let reader = try VideoFileReader(path: session.filePath)
                    clips.append(Clip(session: session, reader: reader, track: track, edits: try media.edits(),
                                      seconds: reader.info.duration?.seconds ?? session.videoSeconds))
                } catch {
                    warn("\(name): \(error); skipped")
                }
            }
            if !clips.isEmpty { days.append((day, clips)) }
        }
        guard !days.isEmpty else {
            throw Error("none of the sessions from \(week.monday) to \(week.sunday) could be used (see the warnings); nothing was written")
        }
        let plannedSeconds = days.reduce(0.0) { $0 + Double(settings.cardSeconds) + $1.clips.reduce(0) { $0 + $1.seconds } }

        // Music, looped or trimmed later.
        let sampleRate = 48_000
        var music: [Float] = []
        if let path = settings.musicPath {
            do {
                music = try AudioFileDecoder.stereoSamples(of: path, sampleRate: sampleRate)
            } catch {
                throw Error("cannot read the background music: \(error)")
            }
            guard music.count >= 2 else { throw Error("the background music \(path) holds no sound") }
        }

        let (width, height) = settings.layout.size
        (report.width, report.height) = (width, height)
        let videoTemp = try target.hiddenFile("vlog"), finishing = try target.hiddenFile("finishing")
        defer { target.removeHiddenFiles() }
        let encoder = VideoEncoderSettings(codec: .h264, width: width, height: height, framesPerSecond: fps, bitRate: 0,
                                           preset: settings.preset, keyFrameInterval: 2 * fps, zeroLatency: false,
                                           constantRateFactor: settings.quality)
        let writer = try MP4ArchiveWriter(path: videoTemp, video: encoder,
                                          audio: music.isEmpty ? nil : AudioEncoderSettings(sampleRate: sampleRate, channels: 2, bitRate: 160_000))
        let encoding = EncodeThread(writer: writer, name: "reel.vlog.encode")
        var finished = false
        defer { if !finished { encoding.abandon() } }
        let fitter = PictureFitter(width: width, height: height)
        let compositor = FrameCompositor()
        let cards: TitleCard
        do {
            cards = try TitleCard(width: width, height: height)
        } catch {
            throw Error("\(error)")
        }

        // Stamps the review chose for some segments are read once.
        let faceCovers = try FaceCovers()

        var frameIndex = 0
        var audioWritten = 0  // samples per channel
        var lastProgress = Date.distantPast
        let totalFrames = Int((plannedSeconds * Double(fps)).rounded())
        func time(_ index: Int) -> MediaTime { MediaTime(value: Int64(index), timescale: Int32(fps)) }
        func writeAudio(until index: Int) throws {
            guard !music.isEmpty else { return }
            let end = index * sampleRate / fps
            let block = 1024
            while audioWritten + block <= end {
                var samples = [Float](repeating: 0, count: block * 2)
                for i in 0..<block {
                    let n = audioWritten + i
                    let gain = Float(Self.musicGain(at: Double(n) / Double(sampleRate), total: plannedSeconds))
                    let source = (n * 2) % music.count
                    samples[2 * i] = music[source] * gain
                    samples[2 * i + 1] = music[(source + 1) % music.count] * gain
                }
                let pts = MediaTime(value: Int64(audioWritten), timescale: Int32(sampleRate))
                try encoding.append(.audio(try AudioBlock.stereo(samples[...], sampleRate: sampleRate, at: pts), pts))
                audioWritten += block
            }
        }
        func emit(_ picture: VideoFrame) throws {
            try stop.check()
            try encoding.append(.video(picture, time(frameIndex)))
            frameIndex += 1
            try writeAudio(until: frameIndex)
            let now = Date()
            if now.timeIntervalSince(lastProgress) >= 0.5 {
                lastProgress = now
                reporter.progress(progress(frames: frameIndex, total: totalFrames, since: started))
            }
        }

        do {
            for (day, clips) in days {
                let card = try cards.picture(for: day, shown: clips.map(\.session), fitter: fitter)
                for _ in 0..<(settings.cardSeconds * fps) { try emit(card) }
                report.cards += 1
                for clip in clips {
                    let info = clip.reader.info
                    let converter = PictureConverter(width: info.width & ~1, height: info.height & ~1)
                    let timeline = FaceTrackTimeline(clip.track)
                    let start = frameIndex
                    var pending: VideoFrame?
                    var last = MediaTime.zero
                    var readFailure: (any Swift.Error)?
                    func flush(until seconds: Double) throws {
                        guard let pending else { return }
                        while Double(frameIndex - start) / Double(fps) < seconds - 1e-6 { try emit(pending) }
                    }
                    do {
                        try clip.reader.forEachFrame { frame in
                            do {
                                let picture = try converter.convert(frame)
                                let covers = try faceCovers.covers(for: clip.edits.regions(for: timeline.boxes(at: frame.captureTime)))
                                try picture.withYUVPicture { try compositor.composite($0, covers: covers, caption: nil) }
                                try flush(until: frame.captureTime.seconds)
                                pending = try fitter.fit(picture, at: frame.captureTime)
                                last = frame.captureTime
                                return true
                            } catch {
                                throw VlogFailure(error: error)
                            }
                        }
                    } catch let failure as VlogFailure {
                        // Our own work failed (a stamp, the encoder): the vlog fails.
                        throw failure.error
                    } catch where pending != nil {
                        readFailure = error  // damaged part way: keep what was read (warned below)
                    }
                    // The last picture lasts its own duration, not until the next session.
                    let end = clip.reader.lastPictureEnd ?? last
                    try flush(until: end.seconds)
                    if pending != nil, let shortfall = PrivacyExporter.shortfall(of: clip.session.filePath, info: info, readTo: end,
                                                                                  exported: end, readFailure: readFailure) {
                        report.partial = true
                        warn(shortfall.replacingOccurrences(of: "; exported", with: "; the vlog has its first"))
                    }
                    report.sessions += 1
                }
            }
            try writeAudio(until: frameIndex)
            try encoding.finish()
            finished = true
        } catch let error as Error {
            throw error
        } catch let stopped as ExportStopRequest.Stopped {
            throw stopped
        } catch {
            throw Error("making the vlog failed after \(frameIndex) pictures: \(error); nothing was written to \(output)")
        }

        try stop.check()
        _ = try MP4Remuxer.faststart(from: videoTemp, to: finishing, videoEnd: time(frameIndex))
        try stop.check()
        do {
            try target.place(finishing)
        } catch {
            throw Error("\(error)")
        }
        report.frames = frameIndex
        report.videoSeconds = Double(frameIndex) / Double(fps)
        report.music = !music.isEmpty
        report.wallSeconds = Date().timeIntervalSince(started)
        var final = progress(frames: frameIndex, total: frameIndex, since: started)
        final.secondsLeft = 0
        reporter.progress(final)
        return report
    }

    private func progress(frames: Int, total: Int, since start: Date) -> ExportProgress {
        let fps = Double(settings.framesPerSecond)
        let speed = Double(frames) / max(Date().timeIntervalSince(start), 1e-3)
        return ExportProgress(frames: frames, totalFrames: total, seconds: Double(frames) / fps, totalSeconds: Double(total) / fps,
                              framesPerSecond: speed, secondsLeft: speed > 0 ? Double(max(0, total - frames)) / speed : nil)
    }
}

/// A failure of the vlog's own work inside a session's picture loop, told apart from the
/// session's video failing to read.
private struct VlogFailure: Swift.Error {
    var error: any Swift.Error
}
