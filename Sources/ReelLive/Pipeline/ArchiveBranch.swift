import Foundation
import ReelCore
import ReelMedia
import Synchronization

/// The archive consumer of the capture fan-out: HEVC + AAC into one MP4, on its own timeline
/// (starting at 0 on the first video sample, the same delta for audio). Independent of the
/// live path: a failing live branch never touches it.
///
/// `@unchecked Sendable`: everything but ``framesWritten`` is used only by the archive thread
/// (and by the owner after that thread ended); the frame count the status loop reads each
/// second is an atomic.
final class ArchiveBranch: @unchecked Sendable {
    private var timeline = SampleTimeline(start: .zero)
    private let writer: MP4ArchiveWriter
    private var lastVideoPTS: MediaTime?
    private var firstVideoPTS: MediaTime?
    private let frameDuration: MediaTime
    private var rate = ArchiveRatePolicy()
    /// Video frames handed to the writer, for the status loop on another thread (reading the
    /// writer's own counter from there was a data race).
    private let written = Atomic<Int>(0)
    /// ``degradation``'s frames left out, for the status loop as well.
    private let leftOut = Atomic<Int>(0)
    /// The archive queue's depth and capacity, read for each frame (nil: never degrade).
    var queueLoad: (@Sendable () -> (depth: Int, capacity: Int))?

    init(path: String, video: VideoEncoderSettings, audio: AudioEncoderSettings?, frameDuration: MediaTime) throws {
        writer = try MP4ArchiveWriter(path: path, video: video, audio: audio)
        self.frameDuration = frameDuration
    }

    var path: String { writer.path }
    var framesWritten: Int { written.load(ordering: .relaxed) }
    /// Frames the rate policy left out so far (any thread).
    var framesLeftOut: Int { leftOut.load(ordering: .relaxed) }

    /// Media time covered so far (first frame to the end of the last).
    var duration: MediaTime {
        guard let first = firstVideoPTS, let last = lastVideoPTS else { return .zero }
        return last + frameDuration - first
    }

    func handle(_ sample: CaptureSample) throws {
        switch sample {
        case .video(let frame):
            let pts = timeline.video(frame.captureTime)
            if let last = lastVideoPTS, pts <= last { return }  // never feed an encoder time going back
            if let load = queueLoad?(), !rate.shouldEncode(at: pts, depth: load.depth, capacity: load.capacity) {
                leftOut.store(rate.skippedFrames, ordering: .relaxed)
                return
            }
            if firstVideoPTS == nil { firstVideoPTS = pts }
            lastVideoPTS = pts
            try writer.appendVideo(frame, pts: pts)
            written.add(1, ordering: .relaxed)
        case .audio(let block):
            if let pts = timeline.audio(block.captureTime) { try writer.appendAudio(block, pts: pts) }
        }
    }

    /// Frames left out on purpose because the encoder could not keep up, and when the rate
    /// changed (stream time of the archive).
    var degradation: (skippedFrames: Int, events: [ArchiveRatePolicy.Event]) { (rate.skippedFrames, rate.events) }

    func finish() throws { try writer.finish() }

    /// After a failure: close the file, keeping what was written.
    func abandon() { writer.abandon() }
}
