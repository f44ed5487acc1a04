import Foundation
import ReelCore

/// The newest preview picture, for any number of watchers: the studio's live preview reads it,
/// a ``PreviewBranch`` writes it. A watcher that falls behind skips to the newest picture; it
/// never makes the branch wait, and the branch never keeps more than one picture.
///
/// Outlives the captures feeding it (the idle preview, then a recording, then the idle
/// preview again): watchers stay connected across them.
public final class PreviewFeed: @unchecked Sendable {
    /// One JPEG of the preview.
    public struct Picture: Sendable {
        /// 1, 2, 3 … across the feed's life.
        public var sequence: Int
        public var jpeg: [UInt8]
        public var width: Int, height: Int
        /// The frame's capture time (the source's clock).
        public var captureTime: MediaTime
    }

    // @unchecked: every field below is touched only with `condition` held.
    private let condition = NSCondition()
    private var newest: Picture?
    private var watchers = 0
    private var closed = false

    public init() {}

    /// Watchers now (a branch encodes nothing while there are none).
    public var watcherCount: Int { condition.withLock { watchers } }

    /// The newest picture (nil before the first).
    public var latest: Picture? { condition.withLock { newest } }

    /// Publishes a JPEG; watchers waiting in ``next(after:timeout:)`` get it.
    public func publish(jpeg: [UInt8], width: Int, height: Int, captureTime: MediaTime) {
        condition.withLock {
            let sequence = (newest?.sequence ?? 0) + 1
            newest = Picture(sequence: sequence, jpeg: jpeg, width: width, height: height, captureTime: captureTime)
            condition.broadcast()
        }
    }

    /// The first picture newer than `sequence`, waiting up to `timeout` seconds for it; nil on
    /// a timeout or once the feed is closed.
    public func next(after sequence: Int, timeout: Double) -> Picture? {
        condition.withLock {
            let deadline = Date(timeIntervalSinceNow: timeout)
            while !closed, (newest?.sequence ?? 0) <= sequence {
                if !condition.wait(until: deadline) { break }
            }
            guard !closed, let newest, newest.sequence > sequence else { return nil }
            return newest
        }
    }

    /// Counts a watcher in; ``leave()`` counts it out.
    public func join() { condition.withLock { watchers += 1 } }
    public func leave() { condition.withLock { watchers = max(0, watchers - 1) } }

    /// Whether ``close()`` was called.
    public var isClosed: Bool { condition.withLock { closed } }

    /// Ends every wait, now and later (the studio is stopping).
    public func close() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }
}
