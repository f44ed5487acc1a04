import Foundation
import ReelCore
import ReelRuntime
import ReelMedia
import Synchronization

/// A frame the state machine decided to write, on its way to the writer.
struct RecordedFrame: Sendable {
    /// The captured picture.
    let frame: VideoFrame
    /// Where it goes in the video.
    let output: RecordingStateMachine.OutputFrame
}

/// The recorder's writer: scales and encodes the frames it is given into the fragmented MP4
/// in progress, cuts a fragment at least every `fragmentDuration` of capture time (also when
/// no new frame comes, as in a timelapse), samples the face tracker where the schedule says,
/// and writes checkpoints when asked. The face samples of each fragment go into the face log
/// (``FaceSampleLog``, `faces.log` beside the video) and are synced just before the fragment
/// itself, so the disk never holds video whose face positions it lacks.
///
/// Runs on its own thread (``run(queue:)``), which owns the encoder, the file and the face
/// track; other threads only read ``progress`` and post checkpoint requests, both behind
/// one lock, which is why the class can be `@unchecked Sendable`.
final class RecordingBranch: @unchecked Sendable {
    /// Counters other threads may read.
    struct Progress: Sendable {
        var framesWritten = 0
        var fileBytes: Int64 = 0
        var faceSamples = 0
        /// The newest face sample (the tracker's box in the canvas), for the live preview.
        var lastFace: FaceTrackSample?
    }

    /// What the checkpoint records about the recorder when it was asked for.
    struct CheckpointRequest: Sendable {
        var state: RecordingStateMachine.State
        var activeSeconds: Double
        /// Frames the recorder had queued for the writer when it asked: the checkpoint waits
        /// until they are written, so its active time never counts a frame the file lacks.
        var framesQueued = 0
    }

    /// The face log's name in the work folder.
    static let faceLogName = "faces.log"

    private let writer: FragmentedMP4Writer
    private let file: AppendOnlyFile
    private let faceLog: AppendOnlyFile
    private var pendingFaces = Data()
    private let tracker: any FaceTracker
    private let canvas: VideoDimensions
    private let fragmentDuration: MediaTime
    private let checkpointPath: String
    private var checkpoint: RecordingCheckpoint
    private var fragmentStart: MediaTime?
    private let clock: any PipelineClock
    private(set) var faceTrack = FaceTrack()
    private let shared = Locked<(progress: Progress, request: CheckpointRequest?)>((Progress(), nil))

    /// Creates the file at `videoPath` (it must not exist) and the encoder.
    init(settings: RecordSettings, videoPath: String, checkpointPath: String, encoder: VideoEncoderSettings,
         tracker: any FaceTracker, startedAt: Date, clock: any PipelineClock) throws {
        self.clock = clock
        canvas = settings.dimensions
        fragmentDuration = settings.fragmentDuration
        self.tracker = tracker
        self.checkpointPath = checkpointPath
        checkpoint = RecordingCheckpoint(
            id: settings.id, videoPath: videoPath, outputPath: settings.outputPath, canvas: settings.dimensions,
            mode: settings.mode, intervalSeconds: settings.mode == .timelapse ? settings.interval.seconds : nil,
            activeSeconds: 0, framesWritten: 0, state: .recording, startedAt: startedAt, updatedAt: startedAt,
            title: settings.title, tags: settings.tags, faceTrack: FaceTrack(), facesRequested: settings.facesRequested,
            device: settings.source.exclusiveDevice)
        writer = try FragmentedMP4Writer(video: encoder, metadata: settings.metadata)
        file = try AppendOnlyFile(creating: videoPath)
        faceLog = try AppendOnlyFile(creating: FileIO.folder(of: videoPath) + "/" + Self.faceLogName)
        pendingFaces = FaceSampleLog.header
    }

    /// The output the recorder claimed (recorded in the next checkpoint). The owner's call,
    /// before the writer thread starts or after it ended.
    func claimedOutput(_ path: String) {
        checkpoint.outputPath = path
    }

    /// The counters.
    var progress: Progress { shared.withLock { $0.progress } }

    /// Asks the writer thread to cut, sync and write a checkpoint (within a quarter second of
    /// having written the frames queued before the request; a newer request replaces one not
    /// yet handled).
    func requestCheckpoint(_ request: CheckpointRequest) {
        shared.withLock { $0.request = request }
    }

    /// The writer thread's body: handles frames until the queue ends, then finishes the file.
    /// On a failure the queue is cancelled (the capture never waits for a dead writer), the
    /// file keeps every fragment cut so far, and the error is thrown.
    func run(queue: ConsumerQueue<RecordedFrame>) throws {
        do {
            loop: while true {
                switch queue.pop(waitingUntil: Date().addingTimeInterval(0.25)) {
                case .element(let item): try write(item)
                case .empty: break
                case .endOfStream: break loop
                }
                if writer.framesSinceCut > 0, let start = fragmentStart, clock.now() - start >= fragmentDuration {
                    try cut()
                }
                if let request = takeRequest() { try writeCheckpoint(request) }
            }
            let last = try writer.finish()
            try flushFaces()
            try file.append(last)
            try file.sync()
            file.close()
            faceLog.close()
            updateProgress()
        } catch {
            queue.cancel()
            writer.abandon()
            try? file.sync()
            file.close()
            faceLog.close()
            throw error
        }
    }

    /// The pending checkpoint request, once every frame queued before it is written.
    private func takeRequest() -> CheckpointRequest? {
        let written = writer.videoFrames
        return shared.withLock { state in
            guard let request = state.request, request.framesQueued <= written else { return nil }
            state.request = nil
            return request
        }
    }

    private func write(_ item: RecordedFrame) throws {
        let frame = item.frame
        if writer.framesSinceCut > 0, let start = fragmentStart, frame.captureTime - start >= fragmentDuration {
            try cut()
        }
        if item.output.samplesFace, let found = tracker.track(frame, videoTime: item.output.pts) {
            let crop = NormalizedRect.centreFill(source: VideoDimensions(width: frame.width, height: frame.height), target: canvas)
            let sample = FaceTrackSample(time: item.output.pts, segment: found.segment, kind: found.kind,
                                         box: found.box.relative(to: crop))
            faceTrack.append(sample)
            pendingFaces.append(FaceSampleLog.line(sample))
        }
        try writer.appendVideo(frame, pts: item.output.pts)
        if fragmentStart == nil { fragmentStart = frame.captureTime }
        updateProgress()
    }

    /// Ends the fragment in progress and puts it on the disk, its face samples first.
    private func cut() throws {
        let fragment = try writer.cutFragment()
        try flushFaces()
        try file.append(fragment)
        try file.sync()
        fragmentStart = nil
        updateProgress()
    }

    /// Appends and syncs the face samples not yet on the disk.
    private func flushFaces() throws {
        guard !pendingFaces.isEmpty else { return }
        try faceLog.append(pendingFaces)
        try faceLog.sync()
        pendingFaces.removeAll(keepingCapacity: true)
    }

    private func updateProgress() {
        let progress = Progress(framesWritten: writer.videoFrames, fileBytes: file.size, faceSamples: faceTrack.samples.count,
                                lastFace: faceTrack.samples.last)
        shared.withLock { $0.progress = progress }
    }

    /// Cuts what is pending, syncs, and replaces the checkpoint atomically. The writer
    /// thread's (or, before it starts and after it ends, the owner's) call only.
    func writeCheckpoint(_ request: CheckpointRequest) throws {
        try cut()
        checkpoint.state = request.state
        checkpoint.activeSeconds = request.activeSeconds
        checkpoint.framesWritten = writer.videoFrames
        checkpoint.updatedAt = Date()
        checkpoint.faceTrack = faceTrack
        try CheckpointFile.write(checkpoint, to: checkpointPath)
    }
}
