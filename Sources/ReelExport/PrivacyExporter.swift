import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelVision

/// `reel export`: a video leaves the machine only through here (spec §1, Export compositor;
/// issue 5). Decode → scale to the export size → the face boxes for the picture (a session's
/// stored track, or faces found now) → review edits → mosaic / stamp, caption, watermark
/// (ReelCompose, in place) → H.264 → MP4 with the source's audio copied, moov first.
///
/// The output appears only when it is complete: the video is encoded into a hidden
/// fragmented file beside the output, then merged with the audio into a second hidden file,
/// which is synced and renamed into place (``ExportOutput``). A failure or a stop removes
/// both; an existing output is never touched unless ``ExportSettings/overwrite``, and never
/// when it is the source itself.
public final class PrivacyExporter {
    /// The settings.
    public let settings: ExportSettings
    private let reporter: any ExportReporter
    private let stop: ExportStopRequest
    private let makeDetector: () throws -> FaceDetectorChoice

    /// An exporter. `stop` is looked at before each picture (Ctrl-C); `detector` chooses the
    /// face detector when one is needed (CenterFace at ``ExportSettings/detectorWidth``, else
    /// Haar with a warning); tests pass scripted ones.
    public init(settings: ExportSettings, reporter: any ExportReporter, stop: ExportStopRequest = ExportStopRequest(),
                detector: (() throws -> FaceDetectorChoice)? = nil) {
        self.settings = settings
        self.reporter = reporter
        self.stop = stop
        let width = settings.detectorWidth, which = settings.detector
        makeDetector = detector ?? {
            let models = VisionModels.current()
            switch which {
            case .haar:
                return FaceDetectorChoice(detector: try HaarFaceDetector(cascadePath: models.frontalFaceCascade),
                                          warning: "Haar cascade chosen: turned, tilted and dim faces may be missed; check the export before sharing it")
            case .centerface:
                // No silent fallback here: a face the weaker detector misses leaves the machine.
                do {
                    return FaceDetectorChoice(detector: try CenterFaceDetector(modelPath: models.centerFaceModel,
                                                                               settings: CenterFaceDetector.Settings(inputWidth: width)),
                                              warning: nil)
                } catch {
                    guard case let .modelMissing(path, _)? = error as? CenterFaceDetector.Error else { throw error }
                    throw Error("the CenterFace model is not installed (\(path)); run `make setup` (scripts/fetch-model.sh fetches it), "
                                + "or export with --detector haar, which misses turned, tilted and dim faces")
                }
            }
        }
    }

    /// An export that cannot be made, with what to do.
    public struct Error: Swift.Error, CustomStringConvertible {
        /// What happened and what to do.
        public var description: String
        init(_ description: String) { self.description = description }
    }

    /// Exports; throws ``Error`` (or a media error naming the file) when it cannot, leaving
    /// nothing behind, and ``ExportStopRequest/Stopped`` when stopped from outside (also
    /// leaving nothing). A source that ends before its header says, or cannot be read to its
    /// end, is exported as far as it goes, with a warning and ``ExportReport/partial``.
    public func run() throws -> ExportReport {
        let started = Date()
        try stop.check()
        let output = try openOutput()
        let reader = try openSource()
        let info = reader.info
        let size = PictureConverter.size(width: info.width, height: info.height, shortSide: settings.size.shortSide)
        var report = ExportReport(outputPath: output.path)
        (report.width, report.height) = (size.width, size.height)
        let (boxes, detecting) = try faceBoxes(into: &report)
        let (compositor, faceCovers) = try pixelWork()

        // The files: hidden beside the output until complete.
        let videoTemp = try output.hiddenFile("video"), finishing = try output.hiddenFile("finishing")
        defer { output.removeHiddenFiles() }
        let fps = max(1, Int(info.framesPerSecond.rounded()))
        let encoder = VideoEncoderSettings(codec: .h264, width: size.width, height: size.height, framesPerSecond: fps,
                                           bitRate: 0, preset: settings.preset, keyFrameInterval: 2 * fps, zeroLatency: false,
                                           constantRateFactor: settings.quality)
        let writer = try MP4ArchiveWriter(path: videoTemp, video: encoder, audio: nil)
        // The encoder runs on its own thread behind a short queue (never dropping): decoding,
        // detection and compositing of the next pictures overlap with encoding.
        let encoding = EncodeThread(writer: writer)
        var finished = false
        defer { if !finished { encoding.abandon() } }
        let converter = PictureConverter(width: size.width, height: size.height)
        let total = info.duration?.seconds
        var lastProgress = Date.distantPast
        var lastPicture: MediaTime?

        func write(_ picture: VideoFrame, _ faces: [FaceBox]) throws {
            try stop.check()
            let time = picture.captureTime
            let covers = try faceCovers.covers(for: settings.edits.regions(for: faces))
            report.coveredAreas += covers.count
            let caption = settings.caption?.text(at: time)
            try picture.withYUVPicture { try compositor.composite($0, covers: covers, caption: caption) }
            try encoding.append(picture, pts: time)
            report.frames += 1
            lastPicture = time
            let now = Date()
            if now.timeIntervalSince(lastProgress) >= 0.5 {
                lastProgress = now
                reporter.progress(progress(report, seconds: time.seconds, total: total, fps: info.framesPerSecond, since: started))
            }
        }

        /// A failure of the export itself, told apart from the source failing to read.
        struct PipelineFailure: Swift.Error { var error: any Swift.Error }
        var readFailure: (any Swift.Error)?
        do {
            do {
                try reader.forEachFrame { frame in
                    do {
                        try stop.check()
                        try boxes.push(try converter.convert(frame), emit: write)
                    } catch {
                        throw PipelineFailure(error: error)
                    }
                    return true
                }
            } catch let failure as PipelineFailure {
                throw failure.error
            } catch where report.frames > 0 {
                readFailure = error  // damaged part way: keep what was read (warned below)
            }
            try boxes.finish(emit: write)
        } catch let stopped as ExportStopRequest.Stopped {
            throw stopped
        } catch {
            throw Error("exporting \(settings.videoPath) failed after \(report.frames) pictures: \(error); nothing was written to \(output.path)")
        }
        guard report.frames > 0, let lastPicture else {
            throw Error("\(settings.videoPath) holds no picture that could be decoded; is it damaged?")
        }
        try encoding.finish()
        finished = true

        try place(video: videoTemp, via: finishing, at: output, source: reader, end: reader.lastPictureEnd ?? lastPicture,
                  readFailure: readFailure, detecting: detecting, report: &report)
        report.wallSeconds = Date().timeIntervalSince(started)
        var last = progress(report, seconds: lastPicture.seconds, total: lastPicture.seconds, fps: info.framesPerSecond, since: started)
        last.totalFrames = report.frames
        last.secondsLeft = 0
        reporter.progress(last)
        return report
    }

    /// Adds the audio, moov first (the last picture lasting until `end`), places the file,
    /// warns about a source read only in part, writes `--faces-out`; fills in the report.
    private func place(video videoTemp: String, via finishing: String, at output: ExportOutput, source reader: VideoFileReader,
                       end: MediaTime, readFailure: (any Swift.Error)?, detecting: DetectingBoxes?, report: inout ExportReport) throws {
        var metadata: [String: String] = ["comment": "Exported by Reel" + (settings.privacy == .none ? "" : " with faces hidden")]
        if case .session(let session) = settings.input, let title = session.title { metadata["title"] = title }
        let withAudio = settings.copyAudio && reader.info.hasAudio
        try stop.check()
        let summary = try MP4Remuxer.merge(video: videoTemp, audioFrom: withAudio ? settings.videoPath : nil, to: finishing,
                                           metadata: metadata, videoEnd: end)
        try stop.check()
        try output.place(finishing)

        if let shortfall = Self.shortfall(of: settings.videoPath, info: reader.info, readTo: end, exported: summary.duration,
                                          readFailure: readFailure) {
            report.partial = true
            warn(shortfall, into: &report)
        }
        if let path = settings.trackOutputPath, let detecting {
            do {
                try detecting.track.jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                warn("the face positions could not be written to \(path): \(error)", into: &report)
            }
        }
        report.audioCopied = withAudio
        report.videoSeconds = summary.duration.seconds
        report.detections = detecting?.detections ?? 0
        report.subjects = detecting?.subjects.count ?? 0
        report.fileBytes = (try? FileManager.default.attributesOfItem(atPath: output.path)[.size] as? NSNumber)?.int64Value ?? 0
    }

    /// The output, checked: never a file the export reads (the video, a watermark or stamp,
    /// the session's face positions and edits), nor is `--faces-out` one of them or the output.
    private func openOutput() throws -> ExportOutput {
        var inputs = [ExportOutput.Input(role: "the video being exported", path: settings.videoPath)]
        if let watermark = settings.watermarkPath { inputs.append(.init(role: "the watermark image", path: watermark)) }
        if case .stamp(let stamp) = settings.privacy { inputs.append(.init(role: "the stamp image", path: stamp)) }
        if case .session(let session) = settings.input {
            if let track = session.faceTrackPath { inputs.append(.init(role: "the session's recorded face positions", path: track)) }
            inputs.append(.init(role: "the session's review edits", path: SessionMedia(session).editsPath))
        }
        let output: ExportOutput
        do {
            output = try ExportOutput(path: settings.outputPath, overwrite: settings.overwrite, inputs: inputs)
        } catch {
            throw Error("\(error)")
        }
        if let facesOut = settings.trackOutputPath {
            let all = inputs + [.init(role: "the export's own output (-o)", path: settings.outputPath)]
            if let clash = all.first(where: { SameFile.refers(facesOut, to: $0.path) || SameFile.lexical(facesOut) == SameFile.lexical($0.path) }) {
                throw Error("--faces-out \(facesOut) is \(clash.role) (\(clash.path)): writing there would replace it; choose another --faces-out")
            }
        }
        if output.staleRemoved > 0 {
            reporter.info("removed \(output.staleRemoved) hidden partial file\(output.staleRemoved == 1 ? "" : "s") an interrupted export to \(output.path) left behind")
        }
        return output
    }

    /// The source, refused when it is a still picture.
    private func openSource() throws -> VideoFileReader {
        let reader: VideoFileReader
        do {
            reader = try VideoFileReader(path: settings.videoPath)
        } catch {
            throw Error("cannot read the video: \(error)")
        }
        if let format = reader.info.stillImageFormat {
            throw Error("\(settings.videoPath) is a still image (\(format)), not a video: there is nothing to export; give a video file or a session")
        }
        return reader
    }

    /// The warning for a source read only in part: it ends before its header says (by more
    /// than a frame and a half), or reading it failed part way; nil when it was read whole.
    static func shortfall(of path: String, info: MediaFileInfo, readTo end: MediaTime, exported: MediaTime,
                          readFailure: (any Swift.Error)?) -> String? {
        let frame = 1 / max(info.framesPerSecond, 1)
        let promised = info.videoDuration ?? info.duration
        // The container's duration is the longest stream's (audio may run on a little).
        let tolerance = info.videoDuration != nil ? max(1.5 * frame, 0.05) : max(1.5 * frame, 0.25)
        let f = { (seconds: Double) in String(format: "%.1f", seconds) }
        let failure = readFailure.map { " (reading failed: \($0))" } ?? ""
        if let promised, promised.seconds - end.seconds > tolerance {
            return "the source \(path) ends at \(f(end.seconds)) s of its \(f(promised.seconds)) s: the rest is damaged or missing\(failure); "
                + "exported \(f(exported.seconds)) s"
        }
        guard readFailure != nil else { return nil }
        return "the source \(path) could not be read past \(f(end.seconds)) s\(failure): the rest is damaged; exported \(f(exported.seconds)) s"
    }

    /// Which boxes each picture gets: none, a session's stored track, or faces found now.
    private func faceBoxes(into report: inout ExportReport) throws -> (FaceBoxSource, DetectingBoxes?) {
        if settings.privacy == .none { return (NoBoxes(), nil) }
        if settings.detectsFaces {
            let choice = try makeDetector()
            if let warning = choice.warning { warn(String(warning.trimmingPrefix("warning: ")), into: &report) }
            let finder = DetectingBoxes(detector: choice.detector)
            report.detector = choice.detector.name
            return (finder, finder)
        }
        guard let track = settings.faceTrack, !track.samples.isEmpty else {
            let why = if case .session(let session) = settings.input { SessionMedia(session).missingFacesReason(settings.faceTrack) }
                else { "it has no face track" }
            throw Error("this session has no face positions: \(why); "
                        + "export with --all-faces to find the faces in the video now, or --privacy none to export without hiding them")
        }
        return (StoredTrackBoxes(track: track), nil)
    }

    /// The compositor (caption, watermark) and the face covers (mosaic or stamp).
    private func pixelWork() throws -> (FrameCompositor, FaceCovers) {
        do {
            let caption = try settings.caption.map { _ in try CaptionRenderer() }
            let watermark = try settings.watermarkPath.map { try Watermark(pngAt: $0) }
            let compositor = FrameCompositor(captionRenderer: caption, watermark: watermark)
            if case .stamp(let path) = settings.privacy { return (compositor, try FaceCovers(everyFace: path)) }
            return (compositor, try FaceCovers())
        } catch {
            throw Error("\(error)")
        }
    }

    private func warn(_ line: String, into report: inout ExportReport) {
        report.warnings.append(line)
        reporter.warning(line)
    }

    private func progress(_ report: ExportReport, seconds: Double, total: Double?, fps: Double, since start: Date) -> ExportProgress {
        let elapsed = max(Date().timeIntervalSince(start), 1e-3)
        let speed = Double(report.frames) / elapsed
        let totalFrames = total.map { Int(($0 * fps).rounded()) }
        let left = totalFrames.flatMap { speed > 0 ? Double(max(0, $0 - report.frames)) / speed : nil }
        return ExportProgress(frames: report.frames, totalFrames: totalFrames, seconds: seconds, totalSeconds: total,
                              framesPerSecond: speed, secondsLeft: left)
    }
}
