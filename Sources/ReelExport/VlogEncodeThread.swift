import Foundation
import ReelCore
import ReelMedia

/// The vlog's writer thread: pictures and music blocks in through a short queue that never
/// drops (the producer waits), written in order by one thread that owns the writer, so
/// decoding, covering and fitting the next pictures overlap with encoding. The first writer
/// failure ends the queue and is thrown to the producer.
final class VlogEncodeThread: @unchecked Sendable {
    enum Item {
        case video(VideoFrame, MediaTime)
        case audio(AudioBlock, MediaTime)
    }

    private let writer: MP4ArchiveWriter
    private let queue = ConsumerQueue<Item>(name: "vlog-encode", capacity: 8, policy: .neverDrop, isDroppable: { _ in false })
    private let done = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var error: (any Swift.Error)?
    private var joined = false

    init(writer: MP4ArchiveWriter) {
        self.writer = writer
        let thread = Thread { [self] in
            defer { done.signal() }
            while let item = queue.pop() {
                do {
                    switch item {
                    case let .video(picture, pts): try self.writer.appendVideo(picture, pts: pts)
                    case let .audio(block, pts): try self.writer.appendAudio(block, pts: pts)
                    }
                } catch {
                    lock.withLock { self.error = error }
                    queue.cancel()
                    return
                }
            }
        }
        thread.name = "reel.vlog.encode"
        thread.start()
    }

    private var writerError: (any Swift.Error)? { lock.withLock { error } }

    /// Queues an item (waits while the queue is full); throws the writer's failure.
    func append(_ item: Item) throws {
        if let writerError { throw writerError }
        guard queue.push(item).isEnqueued else { throw writerError ?? WeeklyVlog.Error("the encoder stopped") }
    }

    private func join() {
        guard !joined else { return }
        joined = true
        done.wait()
    }

    /// Waits for everything queued to be written, then finishes the file.
    func finish() throws {
        queue.close()
        join()
        if let writerError { throw writerError }
        try writer.finish()
    }

    /// Stops after a failure elsewhere: drops what is queued and abandons the file.
    func abandon() {
        queue.cancel()
        join()
        writer.abandon()
    }
}
