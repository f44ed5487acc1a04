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
/// which is synced and renamed into place. A failure removes both; an existing output is
/// never touched unless ``ExportSettings/overwrite``.
public final class PrivacyExporter {
    /// The settings.
    public let settings: ExportSettings
    private let reporter: any ExportReporter
    private let makeDetector: () throws -> FaceDetectorChoice

    /// An exporter. `detector` chooses the face detector when one is needed (CenterFace at
    /// ``ExportSettings/detectorWidth``, else Haar with a warning); tests pass scripted ones.
    public init(settings: ExportSettings, reporter: any ExportReporter, detector: (() throws -> FaceDetectorChoice)? = nil) {
        self.settings = settings
        self.reporter = reporter
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
    /// nothing behind.
    public func run() throws -> ExportReport {
        let started = Date()
        let output = settings.outputPath
        guard output.lowercased().hasSuffix(".mp4") else { throw Error("-o must name an .mp4 file, got '\(output)'") }
        if FileManager.default.fileExists(atPath: output), !settings.overwrite {
            throw Error("\(output) already exists; choose another -o, or add --overwrite to replace it")
        }
        let folder = (output as NSString).deletingLastPathComponent.isEmpty ? "." : (output as NSString).deletingLastPathComponent
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw Error("the folder for \(output) does not exist; create it first")
        }
        guard access(folder, W_OK) == 0 else { throw Error("cannot write in \(folder) (permission denied); choose another -o") }

        let reader: VideoFileReader
        do {
            reader = try VideoFileReader(path: settings.videoPath)
        } catch {
            throw Error("cannot read the video: \(error)")
        }
        let info = reader.info
        let size = PictureConverter.size(width: info.width, height: info.height, shortSide: settings.size.shortSide)
        var report = ExportReport(outputPath: output)
        (report.width, report.height) = (size.width, size.height)

        // The faces: which boxes each picture gets.
        let boxes: FaceBoxSource
        var detecting: DetectingBoxes?
        if settings.privacy == .none {
            boxes = NoBoxes()
        } else if settings.detectsFaces {
            let choice = try makeDetector()
            if let warning = choice.warning { warn(String(warning.trimmingPrefix("warning: ")), into: &report) }
            let finder = DetectingBoxes(detector: choice.detector)
            detecting = finder
            boxes = finder
            report.detector = choice.detector.name
        } else {
            guard let track = settings.faceTrack, !track.samples.isEmpty else {
                let why = if case .session(let session) = settings.input { SessionMedia(session).missingFacesReason(settings.faceTrack) }
                    else { "it has no face track" }
                throw Error("this session has no face positions: \(why); "
                            + "export with --all-faces to find the faces in the video now, or --privacy none to export without hiding them")
            }
            boxes = StoredTrackBoxes(track: track)
        }

        // The pixel work.
        let compositor: FrameCompositor
        let faceCovers: FaceCovers
        do {
            let caption = try settings.caption.map { _ in try CaptionRenderer() }
            let watermark = try settings.watermarkPath.map { try Watermark(pngAt: $0) }
            compositor = FrameCompositor(captionRenderer: caption, watermark: watermark)
            if case .stamp(let path) = settings.privacy { faceCovers = try FaceCovers(everyFace: path) } else { faceCovers = try FaceCovers() }
        } catch {
            throw Error("\(error)")
        }

        // The files: hidden beside the output until complete.
        let base = (output as NSString).lastPathComponent
        let tag = String(UInt32.random(in: .min ... .max), radix: 16)
        let videoTemp = folder + "/.\(base).video-\(tag).mp4", finishing = folder + "/.\(base).finishing-\(tag).mp4"
        defer {
            unlink(videoTemp)
            unlink(finishing)
        }
        let fps = max(1, Int(info.framesPerSecond.rounded()))
        let encoder = VideoEncoderSettings(codec: "libx264", width: size.width, height: size.height, framesPerSecond: fps,
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
        do {
            do {
                try reader.forEachFrame { frame in
                    do {
                        try boxes.push(try converter.convert(frame), emit: write)
                    } catch {
                        throw PipelineFailure(error: error)
                    }
                    return true
                }
            } catch let failure as PipelineFailure {
                throw failure.error
            } catch where report.frames > 0 {
                // The source is damaged part way: keep what was read, say where it stopped.
                warn("\(settings.videoPath) could not be read past \(String(format: "%.1f", lastPicture?.seconds ?? 0)) s (\(error)); "
                     + "everything before that was exported", into: &report)
            }
            try boxes.finish(emit: write)
        } catch {
            throw Error("exporting \(settings.videoPath) failed after \(report.frames) pictures: \(error); nothing was written to \(output)")
        }
        guard report.frames > 0 else { throw Error("\(settings.videoPath) holds no picture that could be decoded; is it damaged?") }
        if report.warnings.isEmpty, let total, let last = lastPicture, total > 2, last.seconds < total * 0.9 - 0.5 {
            warn("the video ends after \(String(format: "%.1f", last.seconds)) s although its header says \(String(format: "%.1f", total)) s: "
                 + "is \(settings.videoPath) cut short or damaged? Everything that could be read was exported", into: &report)
        }
        try encoding.finish()
        finished = true

        // Audio, moov first, then into place.
        var metadata: [String: String] = ["comment": "Exported by Reel" + (settings.privacy == .none ? "" : " with faces hidden")]
        if case .session(let session) = settings.input, let title = session.title { metadata["title"] = title }
        let withAudio = settings.copyAudio && info.hasAudio
        let summary = try MP4Remuxer.merge(video: videoTemp, audioFrom: withAudio ? settings.videoPath : nil, to: finishing, metadata: metadata)
        let handle = open(finishing, O_RDONLY)
        if handle >= 0 { fsync(handle); close(handle) }
        guard rename(finishing, output) == 0 else {
            throw Error("cannot place the export at \(output): \(String(cString: strerror(errno)))")
        }
        let folderHandle = open(folder, O_RDONLY | O_DIRECTORY)
        if folderHandle >= 0 { fsync(folderHandle); close(folderHandle) }

        if let path = settings.trackOutputPath, let detecting {
            do {
                try detecting.track.jsonData().write(to: URL(fileURLWithPath: path), options: .atomic)
            } catch {
                warn("the face positions could not be written to \(path): \(error)", into: &report)
            }
        }
        report.audioCopied = withAudio
        report.videoSeconds = summary.duration.seconds
        report.wallSeconds = Date().timeIntervalSince(started)
        report.detections = detecting?.detections ?? 0
        report.subjects = detecting?.subjects.count ?? 0
        report.fileBytes = (try? FileManager.default.attributesOfItem(atPath: output)[.size] as? NSNumber)?.int64Value ?? 0
        var last = progress(report, seconds: lastPicture?.seconds ?? 0, total: lastPicture?.seconds, fps: info.framesPerSecond, since: started)
        last.totalFrames = report.frames
        last.secondsLeft = 0
        reporter.progress(last)
        return report
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
