import Foundation
import ReelCore
import ReelRuntime

/// The live preview's branch of a capture: frames offered by the capture thread are scaled
/// (centre crop to the recording's shape), JPEG-encoded on the branch's own thread and
/// published to a ``PreviewFeed``.
///
/// It drops freely and never waits: ``offer(_:)`` returns at once, a frame that comes while
/// the branch is busy replaces the one waiting (a queue of one, `.dropOldest`), frames closer
/// than `1 / maxFramesPerSecond` to the last one taken are skipped, and with no watcher
/// nothing is taken at all. So the preview can never slow or drop a recorded frame; at worst
/// it shows fewer pictures.
public final class PreviewBranch: Sendable {
    /// What the branch did so far.
    public struct Counts: Sendable, Equatable {
        /// Frames offered, taken into the queue, encoded, and replaced in the queue before
        /// they were encoded.
        public var offered = 0, taken = 0, encoded = 0, replaced = 0
        /// Encoding failures (the branch goes on with the next frame), and the last one.
        public var failures = 0
        public var lastFailure: String?
    }

    public let width: Int, height: Int
    public let maxFramesPerSecond: Double
    private let feed: PreviewFeed
    private let queue: ConsumerQueue<VideoFrame>
    private let thread: Locked<WorkerThread?>
    private let state = Locked<(lastTaken: MediaTime?, counts: Counts)>((nil, Counts()))

    /// A branch making `width` x `height` JPEGs into `feed`, at most `maxFramesPerSecond`.
    public init(feed: PreviewFeed, width: Int = 640, height: Int = 360, maxFramesPerSecond: Double = 15) {
        self.feed = feed
        self.width = width
        self.height = height
        self.maxFramesPerSecond = maxFramesPerSecond
        queue = ConsumerQueue(name: "preview", capacity: 1, policy: .dropOldest, isDroppable: { _ in true })
        thread = Locked(nil)
    }

    /// The size of a preview `longSide` pixels wide (or high, for a portrait canvas) in the
    /// shape of `canvas`, even.
    public static func size(for canvas: VideoDimensions, longSide: Int = 640) -> (width: Int, height: Int) {
        let long = max(canvas.width, canvas.height), short = min(canvas.width, canvas.height)
        let other = max(2, Int((Double(longSide) * Double(short) / Double(max(1, long)) / 2).rounded()) * 2)
        return canvas.width >= canvas.height ? (longSide, other) : (other, longSide)
    }

    /// Starts the encoding thread.
    public func start() {
        let (queue, feed, state, width, height) = (self.queue, self.feed, self.state, self.width, self.height)
        let started = WorkerThread.run(name: "reel.preview") {
            let encoder = try JPEGEncoder(width: width, height: height)
            while let frame = queue.pop() {
                do {
                    let jpeg = try encoder.encode(frame)
                    feed.publish(jpeg: jpeg, width: encoder.width, height: encoder.height, captureTime: frame.captureTime)
                    state.withLock { $0.counts.encoded += 1 }
                } catch {
                    state.withLock { $0.counts.failures += 1; $0.counts.lastFailure = "\(error)" }
                }
            }
        }
        thread.withLock { $0 = started }
    }

    /// Offers a captured frame; never waits. Call from the capture thread.
    public func offer(_ frame: VideoFrame) {
        let take = state.withLock { s -> Bool in
            s.counts.offered += 1
            guard feed.watcherCount > 0 else { return false }
            if let last = s.lastTaken, (frame.captureTime - last).seconds < 0.9 / maxFramesPerSecond, frame.captureTime >= last {
                return false
            }
            s.lastTaken = frame.captureTime
            s.counts.taken += 1
            return true
        }
        guard take else { return }
        if queue.push(frame) == .enqueuedDroppingOldest {
            state.withLock { $0.counts.replaced += 1 }
        }
    }

    /// Ends the branch: the waiting frame is encoded, then the thread ends (waited for).
    public func stop() {
        queue.close()
        thread.withLock { $0 }?.join()
    }

    /// The counts now.
    public var counts: Counts { state.withLock { $0.counts } }
}
