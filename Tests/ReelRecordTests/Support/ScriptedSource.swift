import CFFmpeg
import Foundation
import ReelCore
import ReelRecord
import ReelRuntime
import Synchronization
@testable import ReelMedia

/// A capture source playing a script: test-pattern frames at chosen capture times (seconds
/// after the script's start, on the given clock), pauses in delivery, failures, and steps that
/// act or check at a chosen point of the script. On a ``VirtualClock`` the source moves the
/// time: waiting for a frame or through a silence runs the recorder's ticks that fall due, so
/// the whole script is decided by its times, never by how busy the machine is.
/// Each frame's pattern carries its number (`TestPattern`), so the output can be checked.
final class ScriptedSource: CaptureSource, @unchecked Sendable {
    enum Step {
        /// Frames `from..<to` (numbers = the test pattern's frame index) at `fps`, starting at
        /// `at` seconds of capture time, delivered as fast as taken.
        case frames(from: Int, to: Int, at: Double, fps: Double = 30)
        /// Frames as above, each delivered when its capture time comes on the clock.
        case realTimeFrames(from: Int, to: Int, at: Double, fps: Double = 30)
        /// Deliver nothing for this long on the clock.
        case silence(Double)
        /// Runs `body` on the source's thread at this point of the script (a control, a check).
        case perform(@Sendable () throws -> Void)
        /// `run` throws, as an unplugged camera's read does.
        case fail(String)
    }

    let format: CaptureFormat
    let name = "scripted source"
    private let steps: [Step]
    private let base: MediaTime
    private let clock: any PipelineClock
    private let stopped = Atomic<Bool>(false)

    /// `base` is the capture time of second 0 on `clock` (share both between the sources of
    /// one script).
    init(_ steps: [Step], base: MediaTime, clock: any PipelineClock = RealClock(), width: Int = 320, height: Int = 180) {
        self.steps = steps
        self.base = base
        self.clock = clock
        format = CaptureFormat(width: width, height: height, framesPerSecond: 30, audio: nil)
    }

    func stop() { stopped.store(true, ordering: .relaxed) }

    func run(_ deliver: (CaptureSample) throws -> Void) throws {
        for step in steps {
            if stopped.load(ordering: .relaxed) { return }
            switch step {
            case let .frames(from, to, at, fps), let .realTimeFrames(from, to, at, fps):
                var realTime = false
                if case .realTimeFrames = step { realTime = true }
                for n in from..<to {
                    if stopped.load(ordering: .relaxed) { return }
                    let time = base + MediaTime(seconds: at + Double(n - from) / fps)
                    if realTime { clock.sleep(until: time) }
                    try deliver(.video(try makeFrame(index: n, at: time)))
                }
            case .silence(let seconds):
                let until = clock.now() + MediaTime(seconds: seconds)
                while !stopped.load(ordering: .relaxed), clock.now() < until {
                    clock.sleep(until: min(until, clock.now() + MediaTime(seconds: 0.02)))
                }
            case .perform(let body):
                try body()
            case .fail(let reason):
                throw CaptureError(source: name, reason: reason)
            }
        }
    }

    private func makeFrame(index: Int, at time: MediaTime) throws -> VideoFrame {
        let frame = try VideoFrame.allocate(width: format.width, height: format.height, format: AV_PIX_FMT_YUV420P)
        TestPattern.draw(into: PlanarPicture(frame), frameIndex: index, label: "#\(index)")
        return VideoFrame(taking: frame, captureTime: time)
    }
}

/// Hands out prepared sources in order (failing once `failures` says so), like a camera that
/// is unplugged and plugged back in.
final class SourceOpener: @unchecked Sendable {
    private let lock = NSLock()
    private var queue: [Result<ScriptedSource, CaptureError>]
    private(set) var opened = 0

    init(_ queue: [Result<ScriptedSource, CaptureError>]) { self.queue = queue }

    func open(_ spec: SourceSpec) throws -> any CaptureSource {
        try lock.withLock {
            opened += 1
            guard !queue.isEmpty else { throw CaptureError(source: "\(spec)", reason: "no such device") }
            return try queue.removeFirst().get()
        }
    }
}

/// Collects what a recorder reports.
final class CollectingReporter: RecordReporter, @unchecked Sendable {
    private let lock = NSLock()
    private var _changes: [RecordStateChange] = []
    private var _lines: [String] = []
    var changes: [RecordStateChange] { lock.withLock { _changes } }
    var lines: [String] { lock.withLock { _lines } }
    func info(_ line: String) { lock.withLock { _lines.append(line) } }
    func warning(_ line: String) { lock.withLock { _lines.append("warning: " + line) } }
    func stateChanged(_ change: RecordStateChange) { lock.withLock { _changes.append(change) } }
    private var _statuses: [RecordStatus] = []
    /// Every status snapshot (about one a second).
    var statuses: [RecordStatus] { lock.withLock { _statuses } }
    func status(_ status: RecordStatus) { lock.withLock { _statuses.append(status) } }
    func finished(_ report: RecordReport) {}
}

/// A tracker that always finds a face in the middle of the picture, counting its calls.
final class CentreFaceTracker: FaceTracker, @unchecked Sendable {
    private let lock = NSLock()
    private var _times: [MediaTime] = []
    var times: [MediaTime] { lock.withLock { _times } }
    func track(_ frame: VideoFrame, videoTime: MediaTime) -> FaceTrackSample? {
        lock.withLock { _times.append(videoTime) }
        return FaceTrackSample(time: videoTime, segment: 0, kind: .face, box: NormalizedRect(x: 0.4, y: 0.3, width: 0.2, height: 0.4))
    }
}
