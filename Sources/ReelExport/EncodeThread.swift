import Foundation
import ReelCore
import ReelMedia

/// The export's encoder thread: pictures in through a bounded queue that never drops (the
/// producer waits), the first encoder failure ends the queue and is thrown to the producer.
final class EncodeThread: @unchecked Sendable {
    private let writer: MP4ArchiveWriter
    private let queue = ConsumerQueue<(VideoFrame, MediaTime)>(name: "export-encode", capacity: 8, policy: .neverDrop, isDroppable: { _ in false })
    private let done = DispatchSemaphore(value: 0)
    private let failure = NSLock()
    private var error: (any Swift.Error)?
    private var joined = false

    init(writer: MP4ArchiveWriter) {
        self.writer = writer
        let thread = Thread { [self] in
            defer { done.signal() }
            while let (picture, pts) = queue.pop() {
                do {
                    try self.writer.appendVideo(picture, pts: pts)
                } catch {
                    failure.withLock { self.error = error }
                    queue.cancel()
                    return
                }
            }
        }
        thread.name = "reel.export.encode"
        thread.start()
    }

    private var encoderError: (any Swift.Error)? { failure.withLock { error } }

    /// Queues a picture (waits while the queue is full); throws the encoder's failure.
    func append(_ picture: VideoFrame, pts: MediaTime) throws {
        if let encoderError { throw encoderError }
        guard queue.push((picture, pts)).isEnqueued else {
            throw encoderError ?? PrivacyExporter.Error("the encoder stopped")
        }
    }

    private func join() {
        guard !joined else { return }
        joined = true
        done.wait()
    }

    /// Waits for every queued picture to be encoded, then finishes the file.
    func finish() throws {
        queue.close()
        join()
        if let encoderError { throw encoderError }
        try writer.finish()
    }

    /// Stops after a failure elsewhere: drops what is queued and abandons the file.
    func abandon() {
        queue.cancel()
        join()
        writer.abandon()
    }
}
