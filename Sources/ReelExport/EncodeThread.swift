import Foundation
import ReelCore
import ReelRuntime
import ReelMedia

/// The writer thread of the export and the vlog: pictures (and music blocks) in through a
/// short queue that never drops (the producer waits), written in order by one thread that
/// owns the MP4 writer, so decoding, covering and fitting the next pictures overlap with
/// encoding. The first writer failure ends the queue and is thrown to the producer.
/// `@unchecked Sendable`: the writer is used only by its thread, and by ``finish()`` after that
/// thread has been joined.
final class EncodeThread: @unchecked Sendable {
    /// What goes to the writer.
    enum Item {
        case video(VideoFrame, MediaTime)
        case audio(AudioBlock, MediaTime)
    }

    /// The writer thread ended before the item could be queued (its failure, when it had one,
    /// is thrown instead).
    struct Stopped: Swift.Error, CustomStringConvertible {
        var description: String { "the encoder stopped" }
    }

    private let writer: MP4ArchiveWriter
    private let queue: ConsumerQueue<Item>
    private let worker: WorkerThread

    /// Starts the thread (named `name`) writing into `writer`.
    init(writer: MP4ArchiveWriter, name: String = "reel.export.encode") {
        self.writer = writer
        let queue = ConsumerQueue<Item>(name: name, capacity: 8, policy: .neverDrop, isDroppable: { _ in false })
        self.queue = queue
        // Handed to the thread, which alone uses it until finish() or abandon() has joined it.
        nonisolated(unsafe) let writer = writer
        worker = WorkerThread.run(name: name) {
            do {
                while let item = queue.pop() {
                    switch item {
                    case let .video(picture, pts): try writer.appendVideo(picture, pts: pts)
                    case let .audio(block, pts): try writer.appendAudio(block, pts: pts)
                    }
                }
            } catch {
                queue.cancel()
                throw error
            }
        }
    }

    private var writerError: (any Swift.Error)? { worker.error }

    /// Queues an item (waits while the queue is full); throws the writer's failure.
    func append(_ item: Item) throws {
        if let writerError { throw writerError }
        guard queue.push(item).isEnqueued else { throw writerError ?? Stopped() }
    }

    /// Queues a picture.
    func append(_ picture: VideoFrame, pts: MediaTime) throws {
        try append(.video(picture, pts))
    }

    /// Waits for everything queued to be written, then finishes the file.
    func finish() throws {
        queue.close()
        worker.join()
        if let writerError { throw writerError }
        try writer.finish()
    }

    /// Stops after a failure elsewhere: drops what is queued and abandons the file.
    func abandon() {
        queue.cancel()
        worker.join()
        writer.abandon()
    }
}
