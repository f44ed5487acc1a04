import ReelRuntime
import CFFmpeg
import Foundation
import ReelCore
import Synchronization

/// A V4L2 camera and, optionally, an ALSA or PulseAudio microphone, through libavdevice.
///
/// Devices stamp samples on their own clocks; Reel stamps each on arrival with the monotonic
/// clock (audio blocks moved back by their duration), so video and audio share one clock.
/// A camera that delivers nothing for 5 s, or that disappears, ends the run with an error.
public final class CameraSource: CaptureSource {
    public let format: CaptureFormat
    public let name: String
    private let video: MediaReader
    private let microphone: MediaReader?
    private let pendingAudio = Locked<[AudioBlock]>([])
    private let audioFailure = Locked<CaptureError?>(nil)

    /// Opens the camera at `device` and the microphone `audio`.
    public init(device: String, audio: AudioDeviceSpec) throws {
        video = try MediaReader(url: device, inputFormat: "video4linux2", wantAudio: false, stallSeconds: 5)
        switch audio {
        case .none: microphone = nil
        case .alsa(let name): microphone = try MediaReader(url: name, inputFormat: "alsa", wantVideo: false, stallSeconds: 5)
        case .pulse(let name): microphone = try MediaReader(url: name, inputFormat: "pulse", wantVideo: false, stallSeconds: 5)
        }
        guard let v = video.videoFormat else { throw CaptureError(source: device, reason: "the camera reports no video stream") }
        format = CaptureFormat(width: v.width, height: v.height, framesPerSecond: v.framesPerSecond, audio: microphone?.audioFormat)
        name = "camera \(device)" + (microphone.map { " + microphone \($0.name)" } ?? "")
    }

    public func stop() {
        video.interrupt.stopped.store(true, ordering: .relaxed)
        microphone?.interrupt.stopped.store(true, ordering: .relaxed)
    }

    public func run(_ deliver: (CaptureSample) throws -> Void) throws {
        var audioThread: WorkerThread?
        if let microphone {
            audioThread = WorkerThread.run(name: "reel.microphone") { [self] in
                do {
                    while try microphone.readFrames({ decoded in
                        guard case let .audio(frame, _) = decoded else { return }
                        let rate = max(Int64(frame.pointee.sample_rate), 1)
                        let duration = Int64(frame.pointee.nb_samples) * 1_000_000_000 / rate
                        let block = AudioBlock(taking: frame, captureTime: .nanoseconds(MonotonicClock.now().nanoseconds - duration))
                        pendingAudio.withLock { $0.append(block) }
                    }) {}
                } catch let error as CaptureError {
                    audioFailure.withLock { $0 = error }
                } catch {
                    audioFailure.withLock { $0 = CaptureError(source: microphone.name, reason: "\(error)") }
                }
            }
        }
        // The microphone's thread is told to stop and joined before the source returns: it
        // owns the microphone's reader, which must not outlive this call's use of it.
        defer {
            if let audioThread {
                stop()
                audioThread.join()
            }
        }
        while !video.interrupt.stopped.load(ordering: .relaxed) {
            let more = try video.readFrames { decoded in
                guard case let .video(frame, _) = decoded else { return }
                let now = MonotonicClock.now()
                // Audio captured before this picture goes first, keeping capture order.
                let ready = pendingAudio.withLock { blocks in
                    let split = blocks.firstIndex { $0.captureTime > now } ?? blocks.count
                    defer { blocks.removeFirst(split) }
                    return Array(blocks[..<split])
                }
                for block in ready { try deliver(.audio(block)) }
                if let failure = audioFailure.withLock({ $0 }) { throw failure }
                try deliver(.video(VideoFrame(taking: frame, captureTime: now)))
            }
            if !more { break }
        }
    }
}
